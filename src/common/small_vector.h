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
 * power-of-two blocks (SvPool below, a ClassPool), so the capacity after
 * growth may be larger than asked for.
 * May use: class_pool.h and the standard library.
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

#include "common/class_pool.h"

namespace sbcc {

/* SmallVector's heap blocks (class_pool.h): 16 to 1,024 bytes, at most
 * 256 KiB a class.  Lists that spill are made by the hundred per shader
 * (ALU groups of three or more instructions, fetch operands, the copies
 * ra_split adds) and freed together when the shader is dropped. */
struct SmallVectorBlocks {
   static constexpr size_t kMinBytes = 16;
   static constexpr unsigned kClasses = 7;
   static constexpr size_t kAlign = 0;
   static constexpr unsigned kept_blocks(unsigned c)
   {
      return unsigned((size_t(256) << 10) / (kMinBytes << c));
   }
};
using SvPool = ClassPool<SmallVectorBlocks>;

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
