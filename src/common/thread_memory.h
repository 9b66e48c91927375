/*
 * What a compiling thread keeps from one shader to the next, and the one
 * way to give it all back.
 *
 * Why: allocating a pass's tables afresh for every shader, and handing
 * every freed block back to malloc, was a large part of compiling a small
 * shader.  So passes keep their tables with the thread (thread_kept,
 * ThreadLend below) and the allocation pools keep freed blocks
 * (ClassPool in class_pool.h, sb's block cache).  Everything kept is
 * bounded and goes when the thread ends; release_thread_memory() gives it
 * back earlier, for a driver thread that stops compiling
 * (sbcc_release_thread_memory() in include/sbcc/sbcc.h).  Every keeper
 * links a ThreadMemoryHook into its thread's list, so that call reaches
 * all of them.
 *
 * May use: the standard library only.
 */
#pragma once

#include <utility>

namespace sbcc {

/* One thing a thread keeps, in that thread's list while it is linked. */
struct ThreadMemoryHook {
   /* Tables are released before blocks: freeing a table gives its blocks
    * to the pools. */
   enum Tier : unsigned char { Tables, Blocks, kTiers };
   void (*on_release)(ThreadMemoryHook *) = nullptr;
   Tier tier = Tables;
   bool linked = false;
   ThreadMemoryHook *prev = nullptr, *next = nullptr;
};

/* Into / out of the calling thread's list (linking twice, or unlinking
 * what is not linked, does nothing). */
void thread_memory_link(ThreadMemoryHook &h) noexcept;
void thread_memory_unlink(ThreadMemoryHook &h) noexcept;

/* Runs on_release of every hook linked on the calling thread, tables
 * first.  Not while a pass runs on this thread. */
void release_thread_memory() noexcept;

template <typename T> struct ThreadKeptStore : ThreadMemoryHook {
   T value{};
   ThreadKeptStore()
   {
      tier = Tables;
      on_release = [](ThreadMemoryHook *h) { static_cast<ThreadKeptStore *>(h)->value = T{}; };
      thread_memory_link(*this);
   }
   ~ThreadKeptStore() { thread_memory_unlink(*this); }
   ThreadKeptStore(const ThreadKeptStore &) = delete;
   ThreadKeptStore &operator=(const ThreadKeptStore &) = delete;
};

/* The calling thread's T, made on first use, emptied (to T{}) by
 * release_thread_memory().  T is normally a struct local to one pass, so
 * that no two passes share a store.  For code that does not run nested
 * in itself; otherwise lend (below). */
template <typename T> T &thread_kept()
{
   static thread_local ThreadKeptStore<T> store;
   return store.value;
}

/* Lends the thread's kept T to `borrower` (usually the pass object,
 * deriving from T) for the lender's scope: its tables are moved into the
 * borrower when the lender is made and back when it goes.  The borrower
 * starts with the last shader's storage (contents as it left them), and
 * a pass nested in itself gets empty tables of its own, not shared ones
 * (the outer pass's are the ones kept after).  T's members must move
 * without allocating. */
template <typename T> class ThreadLend {
 public:
   explicit ThreadLend(T &borrower) : borrower_(borrower), kept_(thread_kept<T>())
   {
      borrower_ = std::move(kept_);
   }
   ~ThreadLend() { kept_ = std::move(borrower_); }
   ThreadLend(const ThreadLend &) = delete;
   ThreadLend &operator=(const ThreadLend &) = delete;

 private:
   T &borrower_;
   T &kept_;
};

} // namespace sbcc
