/*
 * The per-thread cache of blocks (sb_block_cache.h).
 *
 * A cached large block may be larger than the request it serves, so every
 * large block carries its real size in a header of kHeader bytes (which
 * also keeps the payload 64-byte aligned).  A small block is its size
 * class's size, which its request names again when it is freed: no header.
 */
#include "r600/sb/sb_block_cache.h"

#include <array>
#include <bit>

namespace sbcc::r600::sb {

namespace {

constexpr size_t kHeader = 64;
constexpr std::align_val_t kAlign{64};

struct Slot {
   char *block = nullptr; /* header start */
   size_t bytes = 0;      /* payload size */
};

void release(char *block) noexcept { ::operator delete(block, kAlign); }

/* Small blocks: kSmallMin << c bytes for class c, up to the first large
 * request. */
constexpr size_t kSmallMin = 64;
constexpr unsigned small_class(size_t bytes)
{
   return bytes <= kSmallMin ? 0 : unsigned(std::bit_width((bytes - 1) / kSmallMin));
}
constexpr unsigned kSmallClasses = small_class(kBlockCacheMinBytes - 1) + 1;
constexpr size_t small_bytes(unsigned c) { return kSmallMin << c; }

struct SmallFree {
   SmallFree *next;
};
struct SmallList {
   SmallFree *head = nullptr;
   unsigned count = 0;
};

/* Set once the thread's cache is destroyed: a block freed later (by
 * another thread_local object's destructor at thread exit) goes straight
 * back to the system. */
thread_local bool cache_gone = false;

struct Cache {
   std::array<Slot, kBlockCacheSlots> slots{};
   size_t kept = 0;
   std::array<SmallList, kSmallClasses> small{};

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
      for (SmallList &l : small) {
         while (SmallFree *f = l.head) {
            l.head = f->next;
            release(reinterpret_cast<char *>(f));
         }
         l.count = 0;
      }
   }

   char *take_small(unsigned c) noexcept
   {
      SmallList &l = small[c];
      SmallFree *f = l.head;
      if (!f)
         return nullptr;
      l.head = f->next;
      l.count--;
      return reinterpret_cast<char *>(f);
   }

   void give_small(unsigned c, char *block) noexcept
   {
      SmallList &l = small[c];
      if (l.count == kBlockCacheSmallKept) {
         release(block);
         return;
      }
      l.head = ::new (static_cast<void *>(block)) SmallFree{l.head};
      l.count++;
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
      const unsigned c = small_class(bytes);
      char *block = cache_gone ? nullptr : cache().take_small(c);
      return block ? block : ::operator new(small_bytes(c), kAlign);
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
      if (cache_gone)
         release(static_cast<char *>(p));
      else
         cache().give_small(small_class(bytes), static_cast<char *>(p));
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
   for (const SmallList &l : cache().small)
      st.small_blocks += l.count;
   return st;
}

void block_cache_trim() { cache().trim(); }

} // namespace sbcc::r600::sb
