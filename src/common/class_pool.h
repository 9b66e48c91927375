/*
 * ClassPool<Shape>: heap blocks kept with the thread by power-of-two size
 * class once freed, for the next request of the same class instead of
 * malloc.
 *
 * Why: a compiled shader frees hundreds of small blocks at once (spilled
 * SmallVector lists, sb's small node blocks and tables), which overflowed
 * glibc's per-thread cache (seven blocks per size) and sent most of them
 * through malloc's slow paths, about 250 instructions a pair, and over a
 * thousand for a 64-byte aligned block (memalign).  Two users, one pool
 * each: SmallVector (small_vector.h) and sb's block cache
 * (sb_block_cache.h); a Shape names the range, the alignment and how many
 * blocks a class keeps.  A block is plain operator new memory, so blocks
 * move freely between threads' pools.  What a thread keeps is bounded,
 * freed when the thread ends and by release_thread_memory()
 * (thread_memory.h).  Under AddressSanitizer the pools keep nothing
 * (kEnabled), so that a use after free is still caught.
 *
 * A Shape has: kMinBytes (the smallest class, a power of two of at least
 * a pointer), kClasses, kAlign (0 for operator new's own) and
 * kept_blocks(c), the most blocks class c keeps.
 *
 * May use: thread_memory.h and the standard library.
 */
#pragma once

#include <bit>
#include <cstddef>
#include <new>

#include "common/thread_memory.h"

namespace sbcc {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kClassPoolsEnabled = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kClassPoolsEnabled = false;
#else
inline constexpr bool kClassPoolsEnabled = true;
#endif
#else
inline constexpr bool kClassPoolsEnabled = true;
#endif

template <typename Shape> class ClassPool : ThreadMemoryHook {
 public:
   static constexpr bool kEnabled = kClassPoolsEnabled;
   static constexpr size_t kMinBytes = Shape::kMinBytes;
   static constexpr unsigned kClasses = Shape::kClasses;
   static constexpr size_t kMaxBytes = kMinBytes << (kClasses - 1);
   static_assert(std::has_single_bit(kMinBytes) && kMinBytes >= sizeof(void *));

   /* The class of a block of `bytes` (0..kMaxBytes): the smallest power
    * of two from kMinBytes up that holds it. */
   static unsigned size_class(size_t bytes)
   {
      return bytes <= kMinBytes ? 0 : unsigned(std::bit_width((bytes - 1) / kMinBytes));
   }
   static constexpr size_t class_bytes(unsigned c) { return kMinBytes << c; }
   static constexpr unsigned kept_at_most(unsigned c) { return Shape::kept_blocks(c); }

   /* The calling thread's pool: constant-initialized, so reaching it costs
    * no guard or call. */
   static ClassPool &pool();

   /* A block of class c's size, kept or new. */
   void *take(unsigned c)
   {
      if (Free *f = head_[c]) {
         head_[c] = f->next;
         room_[c]++;
         return f;
      }
      return allocate(class_bytes(c));
   }

   /* p, of class c, for the class's next take (or back to the system if
    * the class is full or the thread is ending). */
   void give(unsigned c, void *p) noexcept
   {
      if (room_[c]) {
         push(c, p);
         return;
      }
      give_slow(c, p);
   }

   /* Blocks kept now, over all classes. */
   unsigned kept_blocks() const
   {
      unsigned n = 0;
      if (state_ == Keeping)
         for (unsigned c = 0; c < kClasses; c++)
            n += kept_at_most(c) - room_[c];
      return n;
   }

   /* Frees every kept block; the pool keeps working. */
   void release() noexcept { drop(Unused); }

 private:
   enum State : unsigned char { Unused, Keeping, Gone };
   struct Free {
      Free *next;
   };
   Free *head_[kClasses] = {};
   /* How many more blocks each class may keep: 0 until the first block is
    * kept (which links the pool to the thread's list and registers its
    * release at thread exit), after a release and once the thread ends. */
   unsigned room_[kClasses] = {};
   State state_ = Unused;

   static void *allocate(size_t bytes)
   {
      if constexpr (Shape::kAlign != 0)
         return ::operator new(bytes, std::align_val_t(Shape::kAlign));
      else
         return ::operator new(bytes);
   }
   static void deallocate(void *p, size_t bytes) noexcept
   {
      if constexpr (Shape::kAlign != 0)
         ::operator delete(p, bytes, std::align_val_t(Shape::kAlign));
      else
         ::operator delete(p, bytes);
   }

   void push(unsigned c, void *p) noexcept
   {
      head_[c] = ::new (p) Free{head_[c]};
      room_[c]--;
   }

   /* The first block kept (on the thread, or since a release), a full
    * class, or a thread that is ending. */
   [[gnu::noinline]] void give_slow(unsigned c, void *p) noexcept
   {
      if (state_ == Unused) {
         /* Made on the thread's first kept block, destroyed when the
          * thread ends: blocks freed after that (by other thread_local
          * objects' destructors) go straight back to operator delete. */
         struct AtExit {
            ~AtExit() { pool().drop(Gone); }
         };
         static thread_local AtExit at_exit;
         (void)at_exit;
         state_ = Keeping;
         for (unsigned k = 0; k < kClasses; k++)
            room_[k] = kept_at_most(k);
         tier = Blocks;
         on_release = [](ThreadMemoryHook *h) { static_cast<ClassPool *>(h)->drop(Unused); };
         thread_memory_link(*this);
      }
      if (room_[c])
         push(c, p);
      else
         deallocate(p, class_bytes(c));
   }

   void drop(State next) noexcept
   {
      for (unsigned c = 0; c < kClasses; c++) {
         while (Free *f = head_[c]) {
            head_[c] = f->next;
            deallocate(f, class_bytes(c));
         }
         room_[c] = 0;
      }
      if (state_ != Gone)
         state_ = next;
      thread_memory_unlink(*this);
   }
};

template <typename Shape> inline constinit thread_local ClassPool<Shape> class_pool_instance;

template <typename Shape> inline ClassPool<Shape> &ClassPool<Shape>::pool()
{
   return class_pool_instance<Shape>;
}

} // namespace sbcc
