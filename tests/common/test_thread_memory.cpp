/*
 * What a thread keeps between shaders (src/common/thread_memory.h,
 * class_pool.h): tables kept and lent per thread, blocks kept per size
 * class, and release_thread_memory() giving all of it back.
 */
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "common/class_pool.h"
#include "common/small_vector.h"
#include "common/thread_memory.h"

namespace sbcc {
namespace {

struct Tables {
   std::vector<int> list;
   std::vector<uint8_t> flags;
};

TEST(ThreadMemory, AKeptTableIsTheThreadsOwnUntilReleased)
{
   Tables &t = thread_kept<Tables>();
   EXPECT_EQ(&t, &thread_kept<Tables>());
   t.list.assign(1000, 7);
   const int *storage = t.list.data();
   t.list.clear();
   /* The next user of the thread finds the storage. */
   EXPECT_EQ(thread_kept<Tables>().list.data(), storage);
   EXPECT_GE(thread_kept<Tables>().list.capacity(), 1000u);

   const Tables *other = nullptr;
   size_t other_capacity = 1;
   std::thread th([&] {
      other = &thread_kept<Tables>();
      other_capacity = thread_kept<Tables>().list.capacity();
   });
   th.join();
   EXPECT_NE(other, &t);
   EXPECT_EQ(other_capacity, 0u);

   release_thread_memory();
   EXPECT_EQ(thread_kept<Tables>().list.capacity(), 0u);
   /* Kept again afterwards. */
   thread_kept<Tables>().list.assign(10, 1);
   EXPECT_EQ(thread_kept<Tables>().list.size(), 10u);
   release_thread_memory();
}

struct Pass : Tables {
   ThreadLend<Tables> lend{*this};
};

TEST(ThreadMemory, ALenderHandsTheStorageOverAndTakesItBack)
{
   release_thread_memory();
   const int *storage;
   {
      Pass p;
      EXPECT_EQ(p.list.capacity(), 0u);
      p.list.assign(500, 3);
      storage = p.list.data();
      /* A pass nested in this one gets tables of its own, not these. */
      Pass nested;
      EXPECT_EQ(nested.list.capacity(), 0u);
      nested.list.assign(5, 1);
   }
   /* The outer pass gave back last: its storage is what is kept. */
   EXPECT_EQ(thread_kept<Tables>().list.data(), storage);
   {
      Pass again;
      EXPECT_EQ(again.list.data(), storage);
      EXPECT_EQ(again.list.size(), 500u); /* as the last user left it */
      EXPECT_EQ(thread_kept<Tables>().list.capacity(), 0u);
   }
   release_thread_memory();
   Pass after;
   EXPECT_EQ(after.list.capacity(), 0u);
}

struct TestBlocks {
   static constexpr size_t kMinBytes = 32;
   static constexpr unsigned kClasses = 3; /* 32, 64, 128 */
   static constexpr size_t kAlign = 64;
   static constexpr unsigned kept_blocks(unsigned c) { return 4 >> c; }
};
using TestPool = ClassPool<TestBlocks>;

TEST(ThreadMemory, AClassPoolKeepsABoundedNumberPerClass)
{
   if (!TestPool::kEnabled)
      GTEST_SKIP() << "no class pools under AddressSanitizer";
   EXPECT_EQ(TestPool::size_class(0), 0u);
   EXPECT_EQ(TestPool::size_class(32), 0u);
   EXPECT_EQ(TestPool::size_class(33), 1u);
   EXPECT_EQ(TestPool::size_class(128), 2u);
   TestPool &pool = TestPool::pool();
   std::vector<void *> blocks;
   for (int i = 0; i < 6; i++) {
      blocks.push_back(pool.take(0));
      EXPECT_EQ(reinterpret_cast<uintptr_t>(blocks.back()) % 64, 0u);
      std::memset(blocks.back(), i, 32);
   }
   for (void *b : blocks)
      pool.give(0, b);
   EXPECT_EQ(pool.kept_blocks(), 4u); /* the rest went back */
   void *again = pool.take(0);
   EXPECT_EQ(again, blocks[3]); /* the last kept comes first */
   EXPECT_EQ(pool.kept_blocks(), 3u);
   pool.give(0, again);
   void *big = pool.take(2);
   pool.give(2, big);
   EXPECT_EQ(pool.kept_blocks(), 5u);
   release_thread_memory();
   EXPECT_EQ(pool.kept_blocks(), 0u);
   /* It keeps again after a release. */
   pool.give(1, pool.take(1));
   EXPECT_EQ(pool.kept_blocks(), 1u);
   release_thread_memory();
   EXPECT_EQ(pool.kept_blocks(), 0u);
}

/* Releasing a kept table frees lists whose blocks the pool then keeps:
 * the pools are released after the tables, so nothing is left. */
TEST(ThreadMemory, TablesAreReleasedBeforeThePools)
{
   if (!SvPool::kEnabled)
      GTEST_SKIP() << "no class pools under AddressSanitizer";
   struct Lists {
      std::vector<SmallVector<uint32_t, 1>> lists;
   };
   release_thread_memory();
   auto &kept = thread_kept<Lists>().lists;
   kept.resize(20);
   for (auto &l : kept)
      l.assign(6, 1u); /* 24 bytes: a pool block each */
   EXPECT_EQ(SvPool::pool().kept_blocks(), 0u);
   release_thread_memory();
   EXPECT_TRUE(thread_kept<Lists>().lists.empty());
   EXPECT_EQ(SvPool::pool().kept_blocks(), 0u);
   SmallVector<uint32_t, 1> one(6, 2u);
   one = SmallVector<uint32_t, 1>{};
   EXPECT_EQ(SvPool::pool().kept_blocks(), 1u);
   release_thread_memory();
}

/* A thread's keepers go when it ends, whatever the order (LSan and
 * valgrind see a leak otherwise). */
TEST(ThreadMemory, AThreadEndingFreesWhatItKept)
{
   std::thread th([] {
      thread_kept<Tables>().list.assign(100, 1);
      SmallVector<uint32_t, 1> l(9, 4u);
      l = SmallVector<uint32_t, 1>{};
      TestPool::pool().give(1, TestPool::pool().take(1));
      struct Late {
         SmallVector<uint32_t, 1> list{1, 2, 3};
      };
      thread_kept<Late>(); /* made last, destroyed first */
   });
   th.join();
   SUCCEED();
}

} // namespace
} // namespace sbcc
