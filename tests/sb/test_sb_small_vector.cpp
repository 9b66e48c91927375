/*
 * SmallVector (src/common/small_vector.h): the operand lists of region IR
 * nodes and the instruction and literal lists of ALU groups.  Checked against std::vector doing the same operations, with
 * element types that own memory, across the inline/heap boundary.
 */
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

#include "r600/sb/sb_region_ir.h"
#include "r600/sb/sb_small_vector.h"

namespace sbcc::r600::sb {
namespace {

using Strings = SmallVector<std::string, 3>;

std::vector<std::string> as_std(const Strings &v) { return {v.begin(), v.end()}; }

/* Long enough that std::string allocates: a lost or doubled element shows
 * up under ASan, not only as a wrong value. */
std::string item(int i) { return "element number " + std::to_string(i) + " of the list"; }

TEST(SbSmallVector, StaysInlineUpToItsCapacity)
{
   Strings v;
   const std::string *inline_data = v.data();
   for (int i = 0; i < 3; i++)
      v.push_back(item(i));
   EXPECT_EQ(v.data(), inline_data);
   EXPECT_EQ(v.capacity(), 3u);
   v.push_back(item(3));
   EXPECT_NE(v.data(), inline_data);
   EXPECT_EQ(as_std(v), (std::vector<std::string>{item(0), item(1), item(2), item(3)}));
}

TEST(SbSmallVector, CopyAndMoveFromInlineAndHeap)
{
   for (int n : {0, 2, 3, 7}) {
      Strings a;
      for (int i = 0; i < n; i++)
         a.emplace_back(item(i));
      const std::vector<std::string> want = as_std(a);

      Strings copy(a);
      EXPECT_EQ(as_std(copy), want);
      Strings assigned{item(100)};
      assigned = a;
      EXPECT_EQ(as_std(assigned), want);

      Strings moved(std::move(copy));
      EXPECT_EQ(as_std(moved), want);
      EXPECT_TRUE(copy.empty());
      copy.push_back(item(50)); /* a moved-from list is usable */
      EXPECT_EQ(as_std(copy), std::vector<std::string>{item(50)});

      Strings move_assigned(5, item(9));
      move_assigned = std::move(moved);
      EXPECT_EQ(as_std(move_assigned), want);
      EXPECT_TRUE(moved.empty());
   }
}

TEST(SbSmallVector, PushBackOfOwnElementWhileGrowing)
{
   Strings v{item(0), item(1), item(2)};
   v.push_back(v[0]); /* the argument lives in the storage being replaced */
   v.push_back(v.back());
   EXPECT_EQ(as_std(v), (std::vector<std::string>{item(0), item(1), item(2), item(0), item(0)}));
   Strings w{item(7)};
   w.resize(6, w[0]);
   EXPECT_EQ(as_std(w), std::vector<std::string>(6, item(7)));
}

/* Random operations on a SmallVector and a std::vector side by side. */
TEST(SbSmallVector, MatchesStdVectorUnderRandomOperations)
{
   std::mt19937 rng(1234);
   for (int round = 0; round < 200; round++) {
      Strings v;
      std::vector<std::string> ref;
      for (int step = 0; step < 60; step++) {
         const unsigned op = rng() % 9;
         const std::string x = item(int(rng() % 1000));
         const size_t at = ref.empty() ? 0 : rng() % (ref.size() + 1);
         switch (op) {
         case 0:
         case 1:
            v.push_back(x);
            ref.push_back(x);
            break;
         case 2:
            v.insert(v.begin() + at, x);
            ref.insert(ref.begin() + long(at), x);
            break;
         case 3:
            if (at < ref.size()) {
               v.erase(v.begin() + at);
               ref.erase(ref.begin() + long(at));
            }
            break;
         case 4: {
            const size_t n = rng() % 7;
            v.resize(n);
            ref.resize(n);
            break;
         }
         case 5: {
            const std::string more[2] = {x, item(2000)};
            v.insert(v.begin() + at, more, more + 2);
            ref.insert(ref.begin() + long(at), more, more + 2);
            break;
         }
         case 6:
            if (!ref.empty()) {
               v.pop_back();
               ref.pop_back();
            }
            break;
         case 7: {
            const size_t n = rng() % 6;
            v.assign(n, x);
            ref.assign(n, x);
            break;
         }
         default:
            if (rng() % 8 == 0) {
               v.clear();
               ref.clear();
            }
            break;
         }
         ASSERT_EQ(as_std(v), ref) << "round " << round << " step " << step << " op " << op;
      }
   }
}

/* The element type it was written for: a Value with relative-access parts
 * (heap-owning members) survives growth, copies and erasure. */
TEST(SbSmallVector, HoldsRegionValuesWithRelativeParts)
{
   using namespace region;
   Value rel;
   rel.kind = ValueKind::Rel;
   rel.base = 4;
   rel.rel_parts().addr = std::make_unique<Value>();
   rel.rel()->kind = ValueKind::Var;
   rel.rel()->var = 3;
   Value element;
   element.kind = ValueKind::Var;
   element.var = 9;
   element.version = 2;
   rel.rel_parts().mayuse.push_back(element);

   ValueList list;
   for (int i = 0; i < 5; i++)
      list.push_back(rel);
   list.erase(list.begin() + 1);
   ValueList copy = list;
   ASSERT_EQ(copy.size(), 4u);
   for (const Value &v : copy) {
      ASSERT_TRUE(v.rel());
      EXPECT_EQ(v.rel()->var, 3);
      ASSERT_EQ(v.mayuse().size(), 1u);
      EXPECT_EQ(v.mayuse()[0].version, 2u);
   }
}

/* Swap across the inline/heap boundary, in both directions. */
TEST(SbSmallVector, SwapInlineAndHeap)
{
   Strings small{item(0)}, big{item(1), item(2), item(3), item(4)}, none;
   small.swap(big);
   EXPECT_EQ(as_std(small), (std::vector<std::string>{item(1), item(2), item(3), item(4)}));
   EXPECT_EQ(as_std(big), std::vector<std::string>{item(0)});
   big.swap(small);
   EXPECT_EQ(as_std(big), (std::vector<std::string>{item(1), item(2), item(3), item(4)}));
   EXPECT_EQ(as_std(small), std::vector<std::string>{item(0)});
   none.swap(small);
   EXPECT_TRUE(small.empty());
   EXPECT_EQ(as_std(none), std::vector<std::string>{item(0)});
   Strings other{item(5), item(6), item(7), item(8)};
   big.swap(other);
   EXPECT_EQ(big[0], item(5));
   EXPECT_EQ(other[0], item(1));
}

/* Trivially copyable elements take the byte-copy paths: an ALU group's
 * lists, also past their inline capacity (a malformed group). */
TEST(SbSmallVector, GroupListsBehaveAsVectors)
{
   AluGroup g;
   std::vector<AluInstr> ref;
   for (unsigned i = 0; i < 7; i++) {
      AluInstr in;
      in.op = i % 2 ? AluOp::ADD : AluOp::MOV;
      in.slot = uint8_t(i % 5);
      in.src[0] = src_gpr(i, i % 4);
      g.instrs.push_back(in);
      ref.push_back(in);
      AluGroup copy = g, moved = std::move(copy);
      ASSERT_EQ(moved.instrs.size(), i + 1);
      EXPECT_TRUE(std::equal(moved.instrs.begin(), moved.instrs.end(), ref.begin()));
      EXPECT_EQ(moved, g);
   }
   EXPECT_EQ(g.instrs.at(6).src[0].sel, 6u);
   EXPECT_THROW(g.instrs.at(7), std::out_of_range);
   g.literals = std::vector<uint32_t>{1, 2, 3};
   EXPECT_EQ(g.literals, (std::vector<uint32_t>{1, 2, 3}));
   g.literals.assign(ref.size(), 9u);
   EXPECT_EQ(g.literals.size(), 7u);
   g.instrs = std::vector<AluInstr>(ref.begin(), ref.begin() + 2);
   EXPECT_EQ(g.instrs.size(), 2u);
   EXPECT_EQ(g.instrs[1], ref[1]);
}

/* Heap storage comes from the thread's SvPool: a freed block serves the
 * next list of its size class, and the capacity is the whole block's. */
TEST(SbSmallVector, PoolReusesFreedBlocksOfTheClass)
{
   if (!SvPool::kEnabled)
      GTEST_SKIP() << "no pool under AddressSanitizer";
   const uint32_t *first;
   {
      SmallVector<uint32_t, 4> v(5, 7u); /* 20 bytes: the 32-byte class */
      EXPECT_EQ(v.capacity(), 8u);
      first = v.data();
   }
   SmallVector<uint32_t, 2> w{1, 2, 3, 4, 5, 6}; /* 24 bytes: the same class */
   EXPECT_EQ(w.data(), first);
   EXPECT_EQ(w.capacity(), 8u);
   EXPECT_EQ(w[5], 6u);
   Strings s; /* 32-byte elements: growth asks for 6 and gets the 256-byte class */
   for (int i = 0; i < 8; i++)
      s.push_back(item(i));
   EXPECT_EQ(s.capacity(), 8u);
   s.push_back(item(8)); /* 16 asked, 512 bytes */
   EXPECT_EQ(s.capacity(), 16u);
   EXPECT_EQ(as_std(s).back(), item(8));
   /* Past the largest class a list takes exactly what it asks for. */
   SmallVector<uint64_t, 1> big;
   big.reserve(SvPool::kMaxBytes / sizeof(uint64_t) + 1);
   EXPECT_EQ(big.capacity(), SvPool::kMaxBytes / sizeof(uint64_t) + 1);
}

TEST(SbSmallVector, PoolClassesCoverEachSizeOnce)
{
   EXPECT_EQ(SvPool::size_class(1), 0u);
   EXPECT_EQ(SvPool::size_class(16), 0u);
   EXPECT_EQ(SvPool::size_class(17), 1u);
   EXPECT_EQ(SvPool::size_class(32), 1u);
   EXPECT_EQ(SvPool::size_class(33), 2u);
   EXPECT_EQ(SvPool::size_class(SvPool::kMaxBytes), SvPool::kClasses - 1);
   for (size_t b = 1; b <= SvPool::kMaxBytes; b++) {
      const unsigned c = SvPool::size_class(b);
      ASSERT_GE(SvPool::class_bytes(c), b);
      ASSERT_TRUE(c == 0 || SvPool::class_bytes(c - 1) < b);
   }
}

/* More blocks than a class keeps: the rest go back to operator delete. */
TEST(SbSmallVector, PoolKeepsABoundedNumber)
{
   const size_t n = SvPool::kept_at_most(SvPool::size_class(32)) + 100;
   std::vector<SmallVector<uint32_t, 1>> lists(n);
   for (size_t i = 0; i < n; i++)
      lists[i].assign(5, uint32_t(i));
   for (size_t i = 0; i < n; i++)
      ASSERT_EQ(lists[i][4], uint32_t(i));
   lists.clear();
   SmallVector<uint32_t, 1> again(6, 3u);
   EXPECT_EQ(again[5], 3u);
}

/* Lists made on one thread and freed on another, before and after the
 * first thread ends (its pool is released then; valgrind and LSan see a
 * leak if it is not). */
TEST(SbSmallVector, ListsCrossThreads)
{
   Strings from_thread, outlives_thread;
   std::thread t([&] {
      Strings a;
      for (int i = 0; i < 6; i++)
         a.push_back(item(i));
      from_thread = std::move(a);
      Strings dropped(5, item(9)); /* kept by this thread's pool at its end */
      outlives_thread.assign(7, item(8));
   });
   t.join();
   EXPECT_EQ(as_std(from_thread).back(), item(5));
   EXPECT_EQ(outlives_thread.size(), 7u);
   from_thread = Strings{};
   outlives_thread.clear();
   outlives_thread.push_back(item(1));
   EXPECT_EQ(as_std(outlives_thread), std::vector<std::string>{item(1)});
}

} // namespace
} // namespace sbcc::r600::sb
