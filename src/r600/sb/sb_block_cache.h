/*
 * Large blocks kept with the compiling thread from shader to shader.
 *
 * Why: malloc hands a large block (glibc: from 128 KiB up, and the heap
 * top it trims on free) straight back to the system when it is freed, so
 * the next shader that needs one faults every page in again, zeroed by
 * the kernel.  On a big shader those faults were most of ra_split's time
 * and a third of the whole pipeline.  Blocks from here are cached per
 * thread when freed (up to kBlockCacheSlots blocks and kBlockCacheBytes
 * in all) and handed out again, best fit first.  Smaller requests (a
 * small shader's node blocks and tables) are kept too, in a class pool
 * (common/class_pool.h) of up to kBlockCacheSmallKept blocks a class:
 * glibc serves a 64-byte aligned block through memalign, over a thousand
 * instructions for a node block.  The cache is freed when the thread ends
 * or by release_thread_memory() (common/thread_memory.h).
 *
 * Owns: nothing but its blocks.  May call: common's class pool and thread
 * memory list, operator new/delete.
 */
#pragma once

#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace sbcc::r600::sb {

/* Requests below this size are kept by size class, not best fit. */
constexpr size_t kBlockCacheMinBytes = size_t(64) << 10;
/* Blocks kept per small size class at most. */
constexpr unsigned kBlockCacheSmallKept = 8;
/* What one thread keeps between shaders at most. */
constexpr size_t kBlockCacheBytes = size_t(96) << 20;
constexpr unsigned kBlockCacheSlots = 64;

/* At least `bytes` bytes, aligned for any fundamental type and for 64. */
void *block_cache_allocate(size_t bytes);
/* p from block_cache_allocate(bytes), with the same `bytes`. */
void block_cache_free(void *p, size_t bytes) noexcept;

/* Blocks the calling thread keeps now, and their bytes (for tests). */
struct BlockCacheStats {
   unsigned blocks = 0; /* large ones */
   size_t bytes = 0;
   unsigned small_blocks = 0;
};
BlockCacheStats block_cache_stats();
/* Frees what the calling thread's cache keeps (tests; a driver calls
 * sbcc_release_thread_memory(), which frees this and the rest). */
void block_cache_trim();

/* A std::allocator through the cache.  construct() without arguments
 * default-initializes: a vector of a trivial type resized before it is
 * written in full is not zeroed first. */
template <typename T> struct BlockCacheAllocator {
   using value_type = T;
   BlockCacheAllocator() = default;
   template <typename U> BlockCacheAllocator(const BlockCacheAllocator<U> &) noexcept {}
   T *allocate(size_t n) { return static_cast<T *>(block_cache_allocate(n * sizeof(T))); }
   void deallocate(T *p, size_t n) noexcept { block_cache_free(p, n * sizeof(T)); }
   template <typename U> void construct(U *p) noexcept { ::new (static_cast<void *>(p)) U; }
   template <typename U, typename... Args> void construct(U *p, Args &&...args)
   {
      ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
   }
   template <typename U> bool operator==(const BlockCacheAllocator<U> &) const { return true; }
   template <typename U> bool operator!=(const BlockCacheAllocator<U> &) const { return false; }
};

/* A vector of large transient data (per-value tables of a big shader,
 * edge lists) whose storage comes back with the next shader. */
template <typename T> using CachedVector = std::vector<T, BlockCacheAllocator<T>>;

} // namespace sbcc::r600::sb
