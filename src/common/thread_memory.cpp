/*
 * The per-thread list of keepers (thread_memory.h).  The heads are plain
 * pointers, constant-initialized and never destroyed, so a keeper may link
 * or unlink itself at any point of the thread's life, its end included.
 */
#include "common/thread_memory.h"

namespace sbcc {

namespace {

constinit thread_local ThreadMemoryHook *heads[ThreadMemoryHook::kTiers] = {};

} // namespace

void thread_memory_link(ThreadMemoryHook &h) noexcept
{
   if (h.linked)
      return;
   ThreadMemoryHook *&head = heads[h.tier];
   h.prev = nullptr;
   h.next = head;
   if (head)
      head->prev = &h;
   head = &h;
   h.linked = true;
}

void thread_memory_unlink(ThreadMemoryHook &h) noexcept
{
   if (!h.linked)
      return;
   if (h.prev)
      h.prev->next = h.next;
   else
      heads[h.tier] = h.next;
   if (h.next)
      h.next->prev = h.prev;
   h.prev = h.next = nullptr;
   h.linked = false;
}

void release_thread_memory() noexcept
{
   /* A release may unlink its own hook, and a table's release may link a
    * pool (its first kept block): within a tier, go on from the next hook
    * read before the call; the block tier is walked after all tables. */
   for (unsigned t = 0; t < ThreadMemoryHook::kTiers; t++) {
      for (ThreadMemoryHook *h = heads[t]; h;) {
         ThreadMemoryHook *next = h->next;
         h->on_release(h);
         h = next;
      }
   }
}

} // namespace sbcc
