/*
 * The per-thread block cache (src/r600/sb/sb_block_cache.h): large blocks
 * come back to the next request that fits, best fit first, within the
 * cache's limits; small ones to the next request of their size class.
 */
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "r600/sb/sb_block_cache.h"
#include "r600/sb/sb_region_ir.h"

namespace sbcc::r600::sb {
namespace {

constexpr size_t kBig = kBlockCacheMinBytes;

class SbBlockCache : public ::testing::Test {
protected:
   void SetUp() override { block_cache_trim(); }
   void TearDown() override { block_cache_trim(); }
};

TEST_F(SbBlockCache, SmallBlocksAreKeptBySizeClass)
{
   if (!kClassPoolsEnabled)
      GTEST_SKIP() << "no class pools under AddressSanitizer";
   void *p = block_cache_allocate(kBig - 1);
   EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
   std::memset(p, 0xab, kBig - 1);
   block_cache_free(p, kBig - 1);
   EXPECT_EQ(block_cache_stats().blocks, 0u);
   EXPECT_EQ(block_cache_stats().small_blocks, 1u);
   /* Another size of the class (kBig / 2 + 1 .. kBig - 1) gets it back. */
   void *q = block_cache_allocate(kBig / 2 + 1);
   EXPECT_EQ(q, p);
   EXPECT_EQ(block_cache_stats().small_blocks, 0u);
   /* One of the class below does not. */
   void *r = block_cache_allocate(kBig / 2);
   EXPECT_NE(r, p);
   block_cache_free(q, kBig / 2 + 1);
   block_cache_free(r, kBig / 2);
   EXPECT_EQ(block_cache_stats().small_blocks, 2u);
   /* Each class keeps a bounded number. */
   std::vector<void *> many;
   for (unsigned i = 0; i < kBlockCacheSmallKept + 3; i++) {
      many.push_back(block_cache_allocate(100));
      std::memset(many.back(), int(i), 100);
   }
   for (void *m : many)
      block_cache_free(m, 100);
   EXPECT_EQ(block_cache_stats().small_blocks, 2u + kBlockCacheSmallKept);
   block_cache_trim();
   EXPECT_EQ(block_cache_stats().small_blocks, 0u);
}

TEST_F(SbBlockCache, AFreedBlockServesTheNextRequestThatFits)
{
   void *p = block_cache_allocate(2 * kBig);
   EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
   std::memset(p, 1, 2 * kBig);
   block_cache_free(p, 2 * kBig);
   EXPECT_EQ(block_cache_stats().blocks, 1u);
   EXPECT_EQ(block_cache_stats().bytes, 2 * kBig);

   /* Too large for the kept block: a new one, the kept one stays. */
   void *q = block_cache_allocate(3 * kBig);
   EXPECT_NE(q, p);
   EXPECT_EQ(block_cache_stats().blocks, 1u);
   /* Smaller than the kept block: gets it, whole (its real size is kept). */
   void *r = block_cache_allocate(kBig);
   EXPECT_EQ(r, p);
   EXPECT_EQ(block_cache_stats().blocks, 0u);
   block_cache_free(r, kBig);
   EXPECT_EQ(block_cache_stats().bytes, 2 * kBig);
   block_cache_free(q, 3 * kBig);
   EXPECT_EQ(block_cache_stats().blocks, 2u);
   EXPECT_EQ(block_cache_stats().bytes, 5 * kBig);
}

TEST_F(SbBlockCache, BestFitFirst)
{
   void *a = block_cache_allocate(4 * kBig);
   void *b = block_cache_allocate(2 * kBig);
   void *c = block_cache_allocate(8 * kBig);
   block_cache_free(a, 4 * kBig);
   block_cache_free(b, 2 * kBig);
   block_cache_free(c, 8 * kBig);
   EXPECT_EQ(block_cache_allocate(3 * kBig), a);
   EXPECT_EQ(block_cache_allocate(kBig), b);
   EXPECT_EQ(block_cache_allocate(5 * kBig), c);
   block_cache_free(a, 3 * kBig);
   block_cache_free(b, kBig);
   block_cache_free(c, 5 * kBig);
}

TEST_F(SbBlockCache, KeepsNoMoreThanItsLimits)
{
   /* More blocks than slots: the largest are kept. */
   std::vector<std::pair<void *, size_t>> blocks;
   for (unsigned i = 0; i < kBlockCacheSlots + 8; i++) {
      const size_t bytes = kBig + i * 4096;
      blocks.push_back({block_cache_allocate(bytes), bytes});
   }
   for (auto &b : blocks)
      block_cache_free(b.first, b.second);
   BlockCacheStats st = block_cache_stats();
   EXPECT_EQ(st.blocks, kBlockCacheSlots);
   size_t expect = 0;
   for (unsigned i = 8; i < kBlockCacheSlots + 8; i++)
      expect += kBig + i * 4096;
   EXPECT_EQ(st.bytes, expect);

   /* A block above the byte limit is never kept. */
   block_cache_trim();
   void *huge = block_cache_allocate(kBlockCacheBytes + 1);
   block_cache_free(huge, kBlockCacheBytes + 1);
   EXPECT_EQ(block_cache_stats().blocks, 0u);
}

TEST_F(SbBlockCache, EachThreadHasItsOwn)
{
   void *p = block_cache_allocate(kBig);
   block_cache_free(p, kBig);
   unsigned other = ~0u;
   std::thread t([&] {
      other = block_cache_stats().blocks;
      /* Left in that thread's cache: freed when it ends (ASan sees a leak
       * otherwise). */
      block_cache_free(block_cache_allocate(kBig), kBig);
   });
   t.join();
   EXPECT_EQ(other, 0u);
   EXPECT_EQ(block_cache_stats().blocks, 1u);
}

TEST_F(SbBlockCache, CachedVectorGrowsAndReuses)
{
   {
      CachedVector<uint32_t> v;
      for (uint32_t i = 0; i < 200000; i++)
         v.push_back(i);
      for (uint32_t i = 0; i < 200000; i++)
         ASSERT_EQ(v[i], i);
   }
   const size_t kept = block_cache_stats().bytes;
   EXPECT_GE(kept, 200000 * sizeof(uint32_t));
   {
      CachedVector<uint32_t> v(200000);
      EXPECT_LT(block_cache_stats().bytes, kept);
   }
   EXPECT_EQ(block_cache_stats().bytes, kept);
}

/* The region IR takes its node blocks from the cache: a big tree's blocks
 * are there for the next shader, and node_count() counts across blocks of
 * growing size. */
TEST_F(SbBlockCache, RegionNodeBlocks)
{
   using region::RegionShader;
   const size_t n = RegionShader::node_block_capacity(0) + RegionShader::node_block_capacity(1) +
                    RegionShader::node_block_capacity(2) + 5;
   {
      RegionShader sh;
      for (size_t i = 0; i < n; i++) {
         region::Node *node = sh.create(region::NodeKind::Alu);
         node->src.resize(4); /* past the inline storage: freed with the node */
      }
      EXPECT_EQ(sh.node_count(), n);
      EXPECT_EQ(sh.node_blocks.size(), 4u);
   }
   EXPECT_GE(block_cache_stats().blocks, 2u);
}

} // namespace
} // namespace sbcc::r600::sb
