/*
 * The per-thread cache of blocks (sb_block_cache.h).
 *
 * A cached large block may be larger than the request it serves, so every
 * large block carries its real size in a header of kHeader bytes (which
 * also keeps the payload 64-byte aligned).  Small blocks come from a
 * ClassPool (common/class_pool.h): no header, since a small block's
 * request names its class again when it is freed.
 */
#include "r600/sb/sb_block_cache.h"

#include <array>
#include <bit>

#include "common/class_pool.h"

namespace sbcc::r600::sb {

namespace {

constexpr size_t kHeader = 64;
constexpr std::align_val_t kAlign{64};

struct Slot {
   char *block = nullptr; /* header start */
   size_t bytes = 0;      /* payload size */
};

void release(char *block) noexcept { ::operator delete(block, kAlign); }

/* Small blocks: a class pool of 64 bytes up to the first large request,
 * 64-byte aligned as the large ones. */
struct SmallBlocks {
   static constexpr size_t kMinBytes = 64;
   static constexpr unsigned kClasses =
      unsigned(std::bit_width((kBlockCacheMinBytes - 2) / kMinBytes)) + 1;
   static constexpr size_t kAlign = 64;
   static constexpr unsigned kept_blocks(unsigned) { return kBlockCacheSmallKept; }
};
using SmallPool = ClassPool<SmallBlocks>;
static_assert(SmallPool::class_bytes(SmallPool::kClasses - 1) >= kBlockCacheMinBytes - 1);

/* Set once the thread's cache is destroyed: a block freed later (by
 * another thread_local object's destructor at thread exit) goes straight
 * back to the system. */
thread_local bool cache_gone = false;

struct Cache : ThreadMemoryHook {
   std::array<Slot, kBlockCacheSlots> slots{};
   size_t kept = 0;

   Cache()
   {
      tier = Blocks;
      on_release = [](ThreadMemoryHook *h) { static_cast<Cache *>(h)->trim(); };
      thread_memory_link(*this);
   }
   ~Cache()
   {
      trim();
      thread_memory_unlink(*this);
      cache_gone = true;
   }
   Cache(const Cache &) = delete;
   Cache &operator=(const Cache &) = delete;

   void trim() noexcept
   {
      for (Slot &s : slots)
         if (s.block) {
            release(s.block);
            s = Slot{};
         }
      kept = 0;
   }

   /* The smallest kept block of at least `bytes`, taken out; or null. */
   char *take(size_t bytes)
   {
      Slot *best = nullptr;
      for (Slot &s : slots)
         if (s.block && s.bytes >= bytes && (!best || s.bytes < best->bytes))
            best = &s;
      if (!best)
         return nullptr;
      char *b = best->block;
      kept -= best->bytes;
      *best = Slot{};
      return b;
   }

   /* Keeps the block if it fits the limits, evicting smaller ones for it:
    * large blocks are the expensive ones to fault in again. */
   void give(char *block, size_t bytes) noexcept
   {
      if (bytes > kBlockCacheBytes) {
         release(block);
         return;
      }
      for (;;) {
         Slot *empty = nullptr, *smallest = nullptr;
         for (Slot &s : slots) {
            if (!s.block) {
               if (!empty)
                  empty = &s;
            } else if (!smallest || s.bytes < smallest->bytes) {
               smallest = &s;
            }
         }
         if (empty && kept + bytes <= kBlockCacheBytes) {
            *empty = Slot{block, bytes};
            kept += bytes;
            return;
         }
         if (!smallest || smallest->bytes >= bytes) {
            release(block);
            return;
         }
         release(smallest->block);
         kept -= smallest->bytes;
         *smallest = Slot{};
      }
   }
};

Cache &cache()
{
   static thread_local Cache c;
   return c;
}

size_t &header_size(char *block) { return *reinterpret_cast<size_t *>(block); }

} // namespace

void *block_cache_allocate(size_t bytes)
{
   if (bytes < kBlockCacheMinBytes) {
      if constexpr (!SmallPool::kEnabled)
         return ::operator new(bytes, kAlign);
      return SmallPool::pool().take(SmallPool::size_class(bytes));
   }
   char *block = cache_gone ? nullptr : cache().take(bytes);
   if (!block) {
      block = static_cast<char *>(::operator new(kHeader + bytes, kAlign));
      header_size(block) = bytes;
   }
   return block + kHeader;
}

void block_cache_free(void *p, size_t bytes) noexcept
{
   if (!p)
      return;
   if (bytes < kBlockCacheMinBytes) {
      if constexpr (!SmallPool::kEnabled)
         ::operator delete(p, bytes, kAlign);
      else
         SmallPool::pool().give(SmallPool::size_class(bytes), p);
      return;
   }
   char *block = static_cast<char *>(p) - kHeader;
   if (cache_gone)
      release(block);
   else
      cache().give(block, header_size(block));
}

BlockCacheStats block_cache_stats()
{
   BlockCacheStats st;
   for (const Slot &s : cache().slots)
      if (s.block) {
         st.blocks++;
         st.bytes += s.bytes;
      }
   st.small_blocks = SmallPool::pool().kept_blocks();
   return st;
}

void block_cache_trim()
{
   cache().trim();
   SmallPool::pool().release();
}

} // namespace sbcc::r600::sb
