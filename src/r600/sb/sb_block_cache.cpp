/*
 * The per-thread cache of large blocks (sb_block_cache.h).
 *
 * A cached block may be larger than the request it serves, so every large
 * block carries its real size in a header of kHeader bytes (which also
 * keeps the payload 64-byte aligned).
 */
#include "r600/sb/sb_block_cache.h"

#include <array>

namespace sbcc::r600::sb {

namespace {

constexpr size_t kHeader = 64;
constexpr std::align_val_t kAlign{64};

struct Slot {
   char *block = nullptr; /* header start */
   size_t bytes = 0;      /* payload size */
};

void release(char *block) noexcept { ::operator delete(block, kAlign); }

/* Set once the thread's cache is destroyed: a block freed later (by
 * another thread_local object's destructor at thread exit) goes straight
 * back to the system. */
thread_local bool cache_gone = false;

struct Cache {
   std::array<Slot, kBlockCacheSlots> slots{};
   size_t kept = 0;

   ~Cache()
   {
      trim();
      cache_gone = true;
   }

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
   if (bytes < kBlockCacheMinBytes)
      return ::operator new(bytes, kAlign);
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
      ::operator delete(p, kAlign);
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
   return st;
}

void block_cache_trim() { cache().trim(); }

} // namespace sbcc::r600::sb
