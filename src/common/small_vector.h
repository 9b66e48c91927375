/*
 * SmallVector<T, N>: a vector that keeps up to N elements inside itself and
 * goes to the heap only beyond that, with the part of std::vector's
 * interface the code base uses.
 *
 * Why: lists that are nearly always short and made in great numbers.  The
 * operand lists of sb's region IR nodes (at most one destination and three
 * sources, nearly always) and the instructions and literals of an ALU group
 * (at most five and four): as std::vectors they cost one or two heap
 * allocations per node or group when made and frees when dropped.
 *
 * Iterators are plain pointers and, as with std::vector, are invalidated
 * by anything that may grow the list.
 *
 * Heap storage of up to SvPool::kMaxBytes comes from a per-thread pool of
 * power-of-two blocks (SvPool below), so the capacity after growth may be
 * larger than asked for.
 * May use: the standard library only.
 */
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace sbcc {

/* The blocks SmallVector's heap path frees, kept with the thread by size
 * class for the next list that grows instead of going back to malloc.
 * Why: lists that spill are made by the hundred per shader (ALU groups of
 * three or more instructions, fetch operands, the copies ra_split adds)
 * and freed together when the shader is dropped, which overflowed glibc's
 * per-thread cache (seven blocks per size) so that most took malloc's and
 * free's slow paths, about 250 instructions a pair.  A pool block is
 * plain operator new memory; blocks move freely between threads' pools.
 * What a thread keeps is bounded (kKeptBytes per class) and freed when the
 * thread ends.  Under AddressSanitizer lists go straight to operator new,
 * so that a use after free is still caught. */
struct SvPool {
   /* Off under AddressSanitizer: a kept block is never poisoned. */
#if defined(__SANITIZE_ADDRESS__)
   static constexpr bool kEnabled = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
   static constexpr bool kEnabled = false;
#else
   static constexpr bool kEnabled = true;
#endif
#else
   static constexpr bool kEnabled = true;
#endif
   static constexpr unsigned kClasses = 7; /* 16, 32, ..., 1024 bytes */
   static constexpr size_t kMinBytes = 16;
   static constexpr size_t kMaxBytes = kMinBytes << (kClasses - 1);
   static constexpr size_t kKeptBytes = size_t(256) << 10;
   enum State : unsigned char { Unused, Keeping, Gone };

   struct Free {
      Free *next;
   };
   Free *head[kClasses] = {};
   /* How many more blocks each class may keep: 0 until the first block is
    * kept (which registers the release at thread exit) and after it. */
   unsigned room[kClasses] = {};
   State state = Unused;

   /* The class of a block of `bytes` (1..kMaxBytes): the smallest power
    * of two from kMinBytes up that holds it. */
   static unsigned size_class(size_t bytes)
   {
      return unsigned(std::bit_width((bytes - 1) / kMinBytes));
   }
   static constexpr size_t class_bytes(unsigned c) { return kMinBytes << c; }

   void *take(unsigned c)
   {
      if (Free *f = head[c]) {
         head[c] = f->next;
         room[c]++;
         return f;
      }
      return ::operator new(class_bytes(c));
   }

   void give(unsigned c, void *p) noexcept
   {
      if (room[c]) {
         push(c, p);
         return;
      }
      give_slow(c, p);
   }

 private:
   void push(unsigned c, void *p) noexcept
   {
      head[c] = ::new (p) Free{head[c]};
      room[c]--;
   }

   /* The first block a thread keeps, a full class, or a thread that is
    * ending. */
   [[gnu::noinline]] void give_slow(unsigned c, void *p) noexcept
   {
      if (state == Unused) {
         /* Constructed on the thread's first kept block, destroyed when
          * the thread ends: lists freed after that (by other thread_local
          * objects' destructors) go straight back to operator delete. */
         struct Release {
            ~Release() { pool().release(); }
         };
         static thread_local Release release_at_exit;
         (void)release_at_exit;
         state = Keeping;
         for (unsigned k = 0; k < kClasses; k++)
            room[k] = unsigned(kKeptBytes / class_bytes(k));
      }
      if (room[c])
         push(c, p);
      else
         ::operator delete(p, class_bytes(c));
   }

   void release() noexcept
   {
      for (unsigned c = 0; c < kClasses; c++) {
         while (Free *f = head[c]) {
            head[c] = f->next;
            ::operator delete(f, class_bytes(c));
         }
         room[c] = 0;
      }
      state = Gone;
   }

 public:
   /* The calling thread's pool: constant-initialized, so reaching it costs
    * no guard or call. */
   static SvPool &pool();
};

inline constinit thread_local SvPool sv_pool_instance;
inline SvPool &SvPool::pool() { return sv_pool_instance; }

template <typename T, unsigned N> class SmallVector {
   static_assert(N > 0, "use std::vector for no inline storage");

 public:
   using value_type = T;
   using size_type = size_t;
   using iterator = T *;
   using const_iterator = const T *;
   using reference = T &;
   using const_reference = const T &;

   SmallVector() = default;
   explicit SmallVector(size_t n) { resize(n); }
   SmallVector(size_t n, const T &v) { assign(n, v); }
   SmallVector(std::initializer_list<T> il) { assign(il.begin(), il.end()); }
   template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
   SmallVector(It first, It last)
   {
      assign(first, last);
   }
   SmallVector(const SmallVector &o) { assign(o.begin(), o.end()); }
   SmallVector(SmallVector &&o) noexcept { take(std::move(o)); }
   ~SmallVector() { release(); }

   SmallVector &operator=(const SmallVector &o)
   {
      if (this != &o)
         assign(o.begin(), o.end());
      return *this;
   }
   SmallVector &operator=(SmallVector &&o) noexcept
   {
      if (this != &o) {
         release();
         take(std::move(o));
      }
      return *this;
   }
   SmallVector &operator=(std::initializer_list<T> il)
   {
      assign(il.begin(), il.end());
      return *this;
   }
   /* Code that builds a list in a std::vector and hands it over. */
   template <typename A> SmallVector &operator=(const std::vector<T, A> &v)
   {
      assign(v.begin(), v.end());
      return *this;
   }

   size_t size() const { return size_; }
   bool empty() const { return size_ == 0; }
   size_t capacity() const { return cap_; }
   T *data() { return ptr_; }
   const T *data() const { return ptr_; }
   iterator begin() { return ptr_; }
   iterator end() { return ptr_ + size_; }
   const_iterator begin() const { return ptr_; }
   const_iterator end() const { return ptr_ + size_; }
   const_iterator cbegin() const { return ptr_; }
   const_iterator cend() const { return ptr_ + size_; }
   std::reverse_iterator<iterator> rbegin() { return std::reverse_iterator<iterator>(end()); }
   std::reverse_iterator<iterator> rend() { return std::reverse_iterator<iterator>(begin()); }
   std::reverse_iterator<const_iterator> rbegin() const
   {
      return std::reverse_iterator<const_iterator>(end());
   }
   std::reverse_iterator<const_iterator> rend() const
   {
      return std::reverse_iterator<const_iterator>(begin());
   }
   T &operator[](size_t i) { return ptr_[i]; }
   const T &operator[](size_t i) const { return ptr_[i]; }
   T &at(size_t i)
   {
      if (i >= size_)
         throw std::out_of_range("SmallVector::at");
      return ptr_[i];
   }
   const T &at(size_t i) const { return const_cast<SmallVector *>(this)->at(i); }
   T &front() { return ptr_[0]; }
   const T &front() const { return ptr_[0]; }
   T &back() { return ptr_[size_ - 1]; }
   const T &back() const { return ptr_[size_ - 1]; }

   void reserve(size_t n)
   {
      if (n > cap_)
         grow_to(n);
   }

   void clear()
   {
      std::destroy(ptr_, ptr_ + size_);
      size_ = 0;
   }

   void resize(size_t n)
   {
      if (n < size_) {
         std::destroy(ptr_ + n, ptr_ + size_);
      } else if (n > size_) {
         reserve(n);
         std::uninitialized_value_construct(ptr_ + size_, ptr_ + n);
      }
      size_ = unsigned(n);
   }

   void resize(size_t n, const T &v)
   {
      if (n <= size_) {
         resize(n);
         return;
      }
      if (n > cap_) {
         const T copy = v; /* v may live in this list */
         grow_to(n);
         std::uninitialized_fill(ptr_ + size_, ptr_ + n, copy);
      } else {
         std::uninitialized_fill(ptr_ + size_, ptr_ + n, v);
      }
      size_ = unsigned(n);
   }

   void assign(size_t n, const T &v)
   {
      const T copy = v;
      clear();
      resize(n, copy);
   }

   template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
   void assign(It first, It last)
   {
      clear();
      const size_t n = size_t(std::distance(first, last));
      reserve(n);
      if constexpr (kTrivial && std::contiguous_iterator<It> &&
                    std::is_same_v<std::iter_value_t<It>, T>) {
         if (n)
            std::memcpy(static_cast<void *>(ptr_), std::to_address(first), n * sizeof(T));
      } else {
         std::uninitialized_copy(first, last, ptr_);
      }
      size_ = unsigned(n);
   }

   void assign(std::initializer_list<T> il) { assign(il.begin(), il.end()); }

   void push_back(const T &v)
   {
      if (size_ == cap_) {
         const T copy = v; /* v may live in this list */
         grow_to(next_capacity());
         ::new (static_cast<void *>(ptr_ + size_)) T(std::move(copy));
      } else {
         ::new (static_cast<void *>(ptr_ + size_)) T(v);
      }
      size_++;
   }

   void push_back(T &&v)
   {
      if (size_ == cap_) {
         T moved = std::move(v);
         grow_to(next_capacity());
         ::new (static_cast<void *>(ptr_ + size_)) T(std::move(moved));
      } else {
         ::new (static_cast<void *>(ptr_ + size_)) T(std::move(v));
      }
      size_++;
   }

   template <typename... Args> T &emplace_back(Args &&...args)
   {
      if (size_ == cap_) {
         T made(std::forward<Args>(args)...);
         grow_to(next_capacity());
         ::new (static_cast<void *>(ptr_ + size_)) T(std::move(made));
      } else {
         ::new (static_cast<void *>(ptr_ + size_)) T(std::forward<Args>(args)...);
      }
      return ptr_[size_++];
   }

   void pop_back() { std::destroy_at(ptr_ + --size_); }

   iterator insert(const_iterator pos, const T &v)
   {
      const size_t at = size_t(pos - ptr_);
      T copy = v;
      push_back(std::move(copy));
      std::rotate(ptr_ + at, ptr_ + size_ - 1, ptr_ + size_);
      return ptr_ + at;
   }

   template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
   iterator insert(const_iterator pos, It first, It last)
   {
      const size_t at = size_t(pos - ptr_);
      const size_t old = size_;
      for (; first != last; ++first)
         push_back(*first);
      std::rotate(ptr_ + at, ptr_ + old, ptr_ + size_);
      return ptr_ + at;
   }

   iterator erase(const_iterator pos) { return erase(pos, pos + 1); }

   iterator erase(const_iterator first, const_iterator last)
   {
      T *f = ptr_ + (first - ptr_);
      T *l = ptr_ + (last - ptr_);
      if (f != l) {
         T *new_end = std::move(l, end(), f);
         std::destroy(new_end, end());
         size_ = unsigned(new_end - ptr_);
      }
      return f;
   }

   void swap(SmallVector &o) noexcept
   {
      if (!is_inline() && !o.is_inline()) {
         std::swap(ptr_, o.ptr_);
         std::swap(size_, o.size_);
         std::swap(cap_, o.cap_);
         return;
      }
      if (empty() && o.empty())
         return; /* nothing to move, and both stay where they are */
      SmallVector tmp(std::move(o));
      o = std::move(*this);
      *this = std::move(tmp);
   }

   /* std::erase_if's counterpart. */
   template <typename Pred> friend size_t erase_if(SmallVector &v, Pred pred)
   {
      T *new_end = std::remove_if(v.begin(), v.end(), pred);
      const size_t removed = size_t(v.end() - new_end);
      v.erase(new_end, v.end());
      return removed;
   }

   friend bool operator==(const SmallVector &a, const SmallVector &b)
   {
      return std::equal(a.begin(), a.end(), b.begin(), b.end());
   }
   template <typename A> friend bool operator==(const SmallVector &a, const std::vector<T, A> &b)
   {
      return std::equal(a.begin(), a.end(), b.begin(), b.end());
   }

 private:
   /* Trivially copyable elements (group instructions, literals) are copied
    * as bytes: the standard algorithms do so only for types that are also
    * trivially default-constructible, which ones with member initializers
    * are not. */
   static constexpr bool kTrivial = std::is_trivially_copyable_v<T>;
   /* Only types that need more than operator new's alignment take its
    * aligned form: glibc serves that through memalign, about three times
    * the instructions of a plain malloc, for every list that spills. */
   static constexpr bool kOverAligned = alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__;
   /* Heap storage from the thread's SvPool, except for over-aligned types. */
   static constexpr bool kPooled = SvPool::kEnabled && !kOverAligned;

   /* Moves n elements from `from` into uninitialized `to` and ends their
    * lives in `from`. */
   static void relocate(T *from, size_t n, T *to)
   {
      if constexpr (kTrivial) {
         if (n)
            std::memcpy(static_cast<void *>(to), from, n * sizeof(T));
      } else {
         std::uninitialized_move(from, from + n, to);
         std::destroy(from, from + n);
      }
   }

   bool is_inline() const { return ptr_ == inline_ptr(); }
   /* Only compared, or used where elements have been constructed. */
   T *inline_ptr() { return reinterpret_cast<T *>(inline_); }
   const T *inline_ptr() const { return reinterpret_cast<const T *>(inline_); }
   size_t next_capacity() const { return size_t(cap_) * 2; }

   /* A pool block holds as many elements as fit in its class, at least
    * n: grow_to is asked for two or more (N >= 1 stay inline), so the
    * class holds two elements or more and cap_ * sizeof(T), more than
    * half the class, names the same class again in free_heap. */
   [[gnu::noinline]] void grow_to(size_t n)
   {
      T *fresh;
      if (kPooled && n * sizeof(T) <= SvPool::kMaxBytes) {
         const unsigned c = SvPool::size_class(n * sizeof(T));
         fresh = static_cast<T *>(SvPool::pool().take(c));
         n = SvPool::class_bytes(c) / sizeof(T);
      } else if constexpr (kOverAligned) {
         fresh = static_cast<T *>(::operator new(n * sizeof(T), std::align_val_t(alignof(T))));
      } else {
         fresh = static_cast<T *>(::operator new(n * sizeof(T)));
      }
      relocate(ptr_, size_, fresh);
      free_heap();
      ptr_ = fresh;
      cap_ = unsigned(n);
   }

   void free_heap()
   {
      if (!is_inline())
         free_block(ptr_, cap_);
   }

   /* Out of line: every list's destructor comes here, and most lists
    * never leave their inline storage. */
   [[gnu::noinline]] static void free_block(T *p, unsigned cap) noexcept
   {
      if (kPooled && size_t(cap) * sizeof(T) <= SvPool::kMaxBytes) {
         SvPool::pool().give(SvPool::size_class(size_t(cap) * sizeof(T)), p);
         return;
      }
      if constexpr (kOverAligned)
         ::operator delete(p, std::align_val_t(alignof(T)));
      else
         ::operator delete(p);
   }

   void release()
   {
      std::destroy(ptr_, ptr_ + size_);
      free_heap();
      ptr_ = inline_ptr();
      size_ = 0;
      cap_ = N;
   }

   /* Leaves o empty and inline (this must be empty and inline). */
   void take(SmallVector &&o)
   {
      if (o.is_inline()) {
         relocate(o.ptr_, o.size_, ptr_);
         size_ = o.size_;
         o.size_ = 0;
      } else {
         ptr_ = o.ptr_;
         size_ = o.size_;
         cap_ = o.cap_;
         o.ptr_ = o.inline_ptr();
         o.size_ = 0;
         o.cap_ = N;
      }
   }

   T *ptr_ = inline_ptr();
   unsigned size_ = 0;
   unsigned cap_ = N;
   alignas(T) unsigned char inline_[N * sizeof(T)];
};

} // namespace sbcc
