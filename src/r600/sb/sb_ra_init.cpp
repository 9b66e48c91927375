/*
 * ra_init: colours the coalescing classes with (GPR, channel) pairs.
 * Arrays keep their GPRs (reserved for them), precoloured classes keep
 * theirs, then vector operands (one GPR, distinct channels) and the
 * remaining classes in definition order, each taking the lowest free
 * channel of the lowest GPR its interfering classes leave.  On SSA values
 * coloured in definition order this first fit keeps the register count
 * close to the maximal pressure, which is what lets it beat allocations
 * that follow the source program's registers.  Last, runs of exports
 * (one type, consecutive array bases) move onto consecutive GPRs with one
 * channel layout where that costs no register and no copy, so bc_finalize
 * can merge them into burst exports (fewer CF instructions).
 */
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "common/thread_memory.h"
#include "r600/sb/sb_ra.h"
#include "r600/sb/sb_small_vector.h"

namespace sbcc::r600::sb::region {

namespace {

/* Register channels (bit g * 4 + c) in words, so that scalar() finds the
 * first free one 16 GPRs at a time. */
struct RegBits {
   static constexpr unsigned kWords = (kRaMaxGprs * 4 + 63) / 64;
   std::array<uint64_t, kWords> w; /* zeroed by reset() or value-initialization */
   void reset() { w.fill(0); }
   void set(unsigned i) { w[i / 64] |= uint64_t(1) << (i % 64); }
   bool operator[](unsigned i) const { return (w[i / 64] >> (i % 64)) & 1; }
};

/* For each set of channels (bit c for channel c), a 1 byte on those
 * channels of two GPRs: eight register channels as scalar() reads them. */
static constexpr std::array<uint64_t, 16> kChanBytes = [] {
   std::array<uint64_t, 16> t{};
   for (unsigned m = 0; m < 16; m++)
      for (unsigned c = 0; c < 4; c++)
         if (m & (1u << c))
            t[m] |= uint64_t(0x0000000100000001) << (c * 8);
   return t;
}();

/* Lists placed through their own offsets (out.list[out.start[k]++] = v)
 * leave each offset at the next list's: they move up one place back (one
 * memmove instead of a copy of the offsets to place from). */
static void restore_offsets(unsigned n, RaAdjacency &out)
{
   if (n == 0)
      return;
   std::copy_backward(out.start.begin(), out.start.begin() + (n - 1), out.start.begin() + n);
   out.start[0] = 0;
}

/* Lists by key in one array, each in the order `each` emits its entries:
 * each(emit) calls emit(key, value) and is run twice (count, then fill),
 * so it must emit the same both times.  One allocation instead of one per
 * key. */
template <typename Each> void build_lists(unsigned n, RaAdjacency &out, Each &&each)
{
   out.start.assign(size_t(n) + 1, 0);
   each([&](unsigned k, unsigned) { out.start[k + 1]++; });
   for (unsigned k = 0; k < n; k++)
      out.start[k + 1] += out.start[k];
   out.list.resize(out.start[n]);
   each([&](unsigned k, unsigned v) { out.list[out.start[k]++] = v; });
   restore_offsets(n, out);
}

/* The colourer's tables, kept with the thread from shader to shader for
 * their storage and lent to each Colourer: each is sized and filled anew
 * where it is used. */
struct ColourerTables {
   RaAdjacency members;        /* by root */
   std::vector<int> gpr, chan; /* by root */
   /* gpr * 4 + chan of each value's class, -1 uncoloured (kept by colour()
    * for every member): occupied() reads it for every neighbour of every
    * class, and the placement of export runs for every neighbour of the
    * classes it moves, one load instead of three (root, gpr, chan).  The neighbours
    * are members or values no class holds (unread fetch results: their
    * own uncoloured roots), so by value it says what by root would. */
   std::vector<int16_t> slot;
   /* Class of every value: the classes are final here, so one find() per
    * value instead of one per adjacency visit. */
   std::vector<unsigned> root;
   /* Roots joined to this root by a copy ra_coalesce could not merge: their
    * register channel, when free, makes the MOV a no-op finalize drops. */
   RaAdjacency partners; /* by root */
   /* Scratch of vector(): the GPRs to try first. */
   std::vector<unsigned> order;
   /* While a run is placed, what fits() needs of each of its uncoloured
    * classes, gathered from the interference lists once: the register
    * channels other classes hold, the channels chan_excl partners hold,
    * and the run's own classes it interferes with or prefers another
    * channel than (its ranges of run_adj_ and run_excl_). */
   struct RunClass {
      RegBits busy;
      unsigned excl = 0;
      uint32_t adj_begin = 0, adj_end = 0, excl_begin = 0, excl_end = 0;
   };
   /* The first num_run entries are the run's; the rest are kept for the
    * next run instead of freed, and for the next shader of the thread. */
   std::vector<RunClass> run_classes;
   /* The run's classes' lists one after another, class by class as
    * gather_run() takes them: with a list of its own, each class grew
    * one from nothing whenever a run had more classes than any before
    * (136 allocations for the nine runs of the 24 median corpus
    * shaders). */
   std::vector<unsigned> run_adj_, run_excl_;
   /* The lists of placing a run (place_run, put_burst), kept as the rest
    * is: each grew push by push, some fifteen allocations a run. */
   std::vector<unsigned> run_all_, burst_hs_, pair_hs_, moved_;
   /* burst_reach() by layout and GPR, kReachUnknown until taken. */
   std::vector<uint8_t> burst_reach_;
   std::vector<std::array<int, 4>> maps_, old_maps_;
   std::vector<std::pair<int, int>> run_saved_;
   std::vector<uint8_t> joined_;
   std::vector<int> to_gpr_, to_chan_;
   /* try_move()'s scratch: the colours of the classes it moved. */
   std::vector<std::pair<int, int>> moved_from_;
   /* The channel each class of the run being placed had before, and the
    * GPR each element of it had. */
   std::vector<int> was_chan, old_gpr_;
   std::vector<int> run_index; /* by root, -1 outside the run */
   /* Taken by prepare_runs(): copies (ctx.copies indices) and vector
    * groups by the classes they join, and its scratch. */
   RaAdjacency copies_of, groups_of;
   std::vector<unsigned> last_group_;
};

struct Colourer : ColourerTables {
   ThreadLend<ColourerTables> lend{*this};
   RegionShader &sh;
   RaContext &ctx;
   Diagnostics &diags;

   Colourer(RegionShader &s, RaContext &c, Diagnostics &d) : sh(s), ctx(c), diags(d) {}

   RegBits busy{}; /* scratch */
   /* 1 for each channel of the GPRs that are not reserved, a byte each as
    * the marks, which scalar() reads with them. */
   std::array<uint8_t, kRaMaxGprs * 4> usable{};
   /* mark_occupied()'s marks: a byte per register channel, from marks[1]
    * on, so that marking a neighbour is one store with no test (an
    * uncoloured one, slot -1, marks marks[0], never read).  All zero
    * between calls: their readers clear them, and nothing above top_slot
    * is ever marked.  Eight bytes more than the channels, so that eight at
    * a time may be read from marks[1]. */
   std::array<uint8_t, kRaMaxGprs * 4 + 8> marks{};
   int top_slot = -1; /* the highest register channel colour() has handed out */
   /* Channels to avoid if possible (chan_excl): a soft constraint, since a
    * fixed or precoloured channel may leave no other choice. */
   unsigned chan_pref = 0;

   void colour(unsigned r, int g, int c)
   {
      gpr[r] = g;
      chan[r] = c;
      const int s = g < 0 ? -1 : g * 4 + c;
      top_slot = std::max(top_slot, s);
      for (unsigned v : members[r])
         slot[v] = int16_t(s);
   }

   bool fail(const std::string &msg)
   {
      diags.error("ra", SourceLoc{0, 0}, "ra_init: " + msg);
      return false;
   }

   /* Marks the register channels taken by classes interfering with root
    * r and sets chan_pref.  Each neighbour is a byte store (see marks):
    * this loop visits every adjacency entry once per colouring (over a
    * million on a large shader), where setting a bit took a test, a shift
    * and a read-modify-write. */
   void mark_occupied(unsigned r)
   {
      /* Local pointers: a byte store may alias any member, which the
       * compiler would reload after each. */
      uint8_t *const m = marks.data() + 1;
      const int16_t *const sl = slot.data();
      unsigned chans = 0;
      for (unsigned v : members[r]) {
         /* Eight neighbours a step, up to a bound taken once: the loop's
          * counter and test were as much as the visit. */
         const RaAdjacency::Range l = ctx.adj[v];
         const unsigned *p = l.b;
         const unsigned *const e8 = p + (l.size() & ~size_t(7));
         for (; p != e8; p += 8) {
            m[sl[p[0]]] = 1;
            m[sl[p[1]]] = 1;
            m[sl[p[2]]] = 1;
            m[sl[p[3]]] = 1;
            m[sl[p[4]]] = 1;
            m[sl[p[5]]] = 1;
            m[sl[p[6]]] = 1;
            m[sl[p[7]]] = 1;
         }
         for (; p != l.e; p++)
            m[sl[*p]] = 1;
         /* chan_excl partners are allocated results, members of their
          * classes: their slot says their class's channel. */
         for (unsigned w : ctx.chan_excl[v])
            if (const int s = sl[w]; s >= 0)
               chans |= 1u << (s % 4);
      }
      chan_pref = chans;
   }

   /* Register channels taken by classes interfering with root r, in busy. */
   void occupied(unsigned r)
   {
      mark_occupied(r);
      take_marks(busy);
   }

   /* Eight bytes from b on, the first lowest. */
   static uint64_t load8(const uint8_t *b)
   {
      uint64_t x;
      std::memcpy(&x, b, 8);
      if constexpr (std::endian::native == std::endian::big)
         x = __builtin_bswap64(x);
      return x;
   }

   /* The marked register channels as bits, leaving the marks clear. */
   void take_marks(RegBits &bits)
   {
      uint8_t *const m = marks.data() + 1;
      bits.reset();
      const unsigned n = unsigned(top_slot + 1);
      for (unsigned i = 0; i < n; i += 8) {
         const uint64_t x = load8(m + i);
         std::memset(m + i, 0, 8);
         /* Byte j (0 or 1) to bit 56 + j: the other products of the
          * multiplication land on distinct bits below 56. */
         bits.w[i / 64] |= ((x * 0x0102040810204080ull) >> 56) << (i % 64);
      }
   }

   /* Whether a neighbour w of a member of r holds register channel s
    * with counts(w): by slot (see occupied()), four compared a step, and
    * the rare one there looked at alone, from the first step with one on. */
   template <typename Counts> bool neighbour_on(unsigned r, int s, Counts &&counts) const
   {
      const int16_t *const sl = slot.data();
      for (unsigned v : members[r]) {
         const RaAdjacency::Range l = ctx.adj[v];
         const unsigned *p = l.b;
         const unsigned *const e4 = p + (l.size() & ~size_t(3));
         for (; p != e4; p += 4)
            if ((sl[p[0]] == s) | (sl[p[1]] == s) | (sl[p[2]] == s) | (sl[p[3]] == s))
               break;
         for (; p != l.e; p++)
            if (sl[*p] == s && counts(*p))
               return true;
      }
      return false;
   }

   int want_chan(unsigned r) const
   {
      return ctx.fixed_chan[r] >= 0 ? ctx.fixed_chan[r] : ctx.pre_chan[r];
   }

   /* Register channels precoloured() handed out so far. */
   RegBits pre_taken{};

   /* Runs before any other class is coloured: a neighbour can hold r's
    * register channel only if an earlier precoloured class took it, so
    * the neighbours are looked at only then (the inputs' classes are the
    * largest ones, and usually each has its register to itself).  Only
    * registers count here: a precoloured value cannot move to honour a
    * channel preference. */
   bool precoloured(unsigned r)
   {
      const unsigned g = unsigned(ctx.pre_gpr[r]), c = unsigned(ctx.pre_chan[r]);
      const unsigned s = g * 4 + c;
      if (pre_taken[s] && neighbour_on(r, int(s), [](unsigned) { return true; }))
         return fail("two live precoloured values need R" + std::to_string(g) + "." + "xyzw"[c]);
      pre_taken.set(s);
      colour(r, int(g), int(c));
      return true;
   }

   /* The first free register channel in GPR then channel order, avoiding
    * chan_pref if that leaves one.  It reads the marks themselves, eight
    * (two GPRs) at a time, as far as the first free one, which is usually
    * well below top_slot: packing them all into bits first cost more. */
   bool scalar(unsigned r)
   {
      mark_occupied(r);
      const int fc = want_chan(r);
      const unsigned chans = fc >= 0 ? 1u << fc : 0xfu;
      uint8_t *const m = marks.data() + 1;
      int found = -1;
      for (unsigned avoid : {chan_pref, 0u}) {
         const uint64_t allowed = kChanBytes[chans & ~avoid & 0xfu];
         for (unsigned i = 0; allowed && i < usable.size(); i += 8) {
            const uint64_t free = ~load8(m + i) & allowed & load8(usable.data() + i);
            if (free) {
               found = int(i) + std::countr_zero(free) / 8;
               break;
            }
         }
         if (found >= 0)
            break;
      }
      std::memset(m, 0, size_t(top_slot + 1));
      if (found < 0)
         return fail("out of registers");
      colour(r, found / 4, found % 4);
      return true;
   }

   bool vector(const std::vector<unsigned> &group)
   {
      /* At most 4 classes: fixed arrays, no allocation per operand. */
      std::array<unsigned, 4> roots;
      size_t nroots = 0;
      for (unsigned v : group) {
         unsigned r = root[v];
         if (std::find(roots.begin(), roots.begin() + nroots, r) == roots.begin() + nroots) {
            if (nroots == roots.size())
               return fail("a vector operand of more than 4 classes");
            roots[nroots++] = r;
         }
      }
      /* Members already coloured (precoloured) pin the GPR and channels. */
      int pinned = -1;
      unsigned taken = 0;
      std::array<unsigned, 4> open;
      std::array<RegBits, 4> busy_of;
      size_t nopen = 0;
      for (size_t k = 0; k < nroots; k++) {
         const unsigned r = roots[k];
         if (gpr[r] >= 0) {
            if (pinned >= 0 && gpr[r] != pinned)
               return fail("a vector operand over two precoloured GPRs");
            pinned = gpr[r];
            taken |= 1u << chan[r];
            continue;
         }
         occupied(r);
         busy_of[nopen] = busy;
         open[nopen++] = r;
      }
      /* Biased colouring: the GPRs the copies' partners (typically the
       * inputs an export reads) already hold come first; there a copy on its
       * source's channel is a no-op, and the GPR is in use anyway. */
      order.clear();
      if (pinned < 0)
         for (size_t k = 0; k < nopen; k++)
            for (unsigned p : partners[open[k]])
               if (gpr[p] >= 0 && !ctx.reserved_gpr[gpr[p]] &&
                   std::find(order.begin(), order.end(), unsigned(gpr[p])) == order.end())
                  order.push_back(unsigned(gpr[p]));
      auto place_in = [&](unsigned g) {
         /* No class may lack a free channel in g: a word test per class
          * instead of assign() finding out channel by channel. */
         for (size_t i = 0; i < nopen; i++) {
            const int fc = want_chan(open[i]);
            const unsigned allowed = (fc >= 0 ? 1u << fc : 0xfu) & ~taken;
            const unsigned held = unsigned(busy_of[i].w[g / 16] >> (g % 16 * 4)) & 0xfu;
            if (!(allowed & ~held))
               return false;
         }
         std::array<int, 4> pick{-1, -1, -1, -1};
         if (!assign(open.data(), nopen, busy_of.data(), g, 0, taken, pick))
            return false;
         for (size_t i = 0; i < nopen; i++)
            colour(open[i], int(g), pick[i]);
         return true;
      };
      for (unsigned g : order)
         if (place_in(g))
            return true;
      for (unsigned g = pinned >= 0 ? unsigned(pinned) : 0; g < kRaMaxGprs; g++) {
         if (ctx.reserved_gpr[g] && int(g) != pinned)
            continue;
         if (place_in(g))
            return true;
         if (pinned >= 0)
            break;
      }
      return fail("out of registers for a vector operand");
   }

   bool assign(const unsigned *roots, size_t n, const RegBits *bo, unsigned g, size_t i,
               unsigned used, std::array<int, 4> &pick)
   {
      /* n <= 4 (the bound also tells the compiler the arrays suffice). */
      if (i >= n || i >= pick.size())
         return i == n;
      int fc = want_chan(roots[i]);
      /* A partner's channel in g first: the copy then moves nothing. */
      unsigned first = 0;
      for (unsigned p : partners[roots[i]])
         if (gpr[p] == int(g)) {
            first = unsigned(chan[p]);
            break;
         }
      for (unsigned k = 0; k < 4; k++) {
         unsigned c = (first + k) % 4;
         if ((used & (1u << c)) || (fc >= 0 && int(c) != fc) || bo[i][g * 4 + c])
            continue;
         pick[i] = int(c);
         if (assign(roots, n, bo, g, i + 1, used | (1u << c), pick))
            return true;
      }
      return false;
   }

   /* Export bursts.  bc_finalize merges exports in a row into one burst
    * when their swizzles agree and each reads the GPR after the previous
    * one's; each export is a vector group coloured on its own.  Here a run
    * of exports of one type with consecutive array bases moves onto
    * consecutive GPRs with one channel layout, when nothing is lost: the
    * GPRs are not above the highest one an export reads (a burst never
    * costs a register), free of every class the moved ones interfere
    * with, vector groups move whole, fixed and precoloured channels stay,
    * and no copy that was a no-op stops being one. */
   struct ExportSlot {
      int konst = -1; /* SEL_MASK / SEL_0 / SEL_1 finalize will emit */
      int root = -1;  /* else the class read */
   };
   using Slots = std::array<ExportSlot, 4>;

   /* What finalize's emit_export will put in each swizzle position. */
   bool export_slots(const Node *n, Slots &slots) const
   {
      const ExportInfo &e = n->cf->exp;
      size_t vi = 0;
      for (unsigned ch = 0; ch < 4; ch++) {
         slots[ch] = ExportSlot{};
         if (e.swizzle[ch] >= 4) {
            slots[ch].konst = e.swizzle[ch];
            continue;
         }
         if (vi >= n->src.size())
            return false;
         const Value &v = n->src[vi++];
         if (const int sel = operand_const_sel(v); sel >= 0) {
            slots[ch].konst = sel;
         } else if (v.kind == ValueKind::Var && ra_value_allocatable(sh, v) &&
                    ctx.allocatable[sh.value_id(v)] && gpr[root[sh.value_id(v)]] >= 0) {
            slots[ch].root = int(root[sh.value_id(v)]);
         } else {
            return false;
         }
      }
      return vi == n->src.size();
   }

   /* Copies touching the classes that are no-ops now (one touching two of
    * them counts twice, alike before and after a move). */
   unsigned noop_copies(const std::vector<unsigned> &classes) const
   {
      unsigned n = 0;
      for (unsigned r : classes)
         for (unsigned k : copies_of[r]) {
            const unsigned a = root[ctx.copies[k].dst], b = root[ctx.copies[k].src];
            n += a == b || (gpr[a] == gpr[b] && chan[a] == chan[b]);
         }
      return n;
   }

   size_t num_run = 0; /* run_classes of the run being placed */

   void gather_run(const std::vector<unsigned> &all)
   {
      num_run = 0;
      for (unsigned r : all)
         if (gpr[r] < 0)
            run_index[r] = int(num_run++);
      if (run_classes.size() < num_run)
         run_classes.resize(num_run);
      run_adj_.clear();
      run_excl_.clear();
      uint8_t *const m = marks.data() + 1;
      const int16_t *const sl = slot.data();
      for (unsigned r : all) {
         if (run_index[r] < 0)
            continue;
         RunClass &k = run_classes[unsigned(run_index[r])];
         k.excl = 0;
         k.adj_begin = uint32_t(run_adj_.size());
         k.excl_begin = uint32_t(run_excl_.size());
         for (unsigned v : members[r]) {
            /* By slot, one load a neighbour, and a mark (see occupied());
             * r itself is uncoloured, so a coloured neighbour is another
             * class. */
            for (unsigned w : ctx.adj[v]) {
               const int s = sl[w];
               m[s] = 1;
               if (s >= 0)
                  continue;
               const unsigned o = root[w];
               if (o != r && run_index[o] >= 0)
                  run_adj_.push_back(o);
            }
            for (unsigned w : ctx.chan_excl[v]) {
               const unsigned o = root[w];
               if (o == r)
                  continue;
               if (gpr[o] >= 0 && chan[o] != was_chan[r])
                  k.excl |= 1u << chan[o];
               else if (gpr[o] < 0 && run_index[o] >= 0)
                  run_excl_.push_back(o);
            }
         }
         k.adj_end = uint32_t(run_adj_.size());
         k.excl_end = uint32_t(run_excl_.size());
         take_marks(k.busy);
      }
   }

   void forget_run(const std::vector<unsigned> &all)
   {
      for (unsigned r : all)
         run_index[r] = -1;
      num_run = 0;
   }

   /* Whether class r may take register channel (g, c): no class it
    * interferes with is there, its fixed channel allows it, and no class it
    * would rather not share a channel with (chan_excl) ends up on c. */
   bool fits(unsigned r, int g, int c, unsigned num_gprs) const
   {
      if (g < 0 || unsigned(g) >= num_gprs || ctx.reserved_gpr[unsigned(g)])
         return false;
      const int fc = want_chan(r);
      if (fc >= 0 && fc != c)
         return false;
      if (r < run_index.size() && run_index[r] >= 0) {
         const RunClass &k = run_classes[unsigned(run_index[r])];
         if (k.busy[unsigned(g) * 4 + unsigned(c)] || (k.excl & (1u << c)))
            return false;
         for (size_t j = k.adj_begin; j < k.adj_end; j++)
            if (const unsigned o = run_adj_[j]; gpr[o] == g && chan[o] == c)
               return false;
         for (size_t j = k.excl_begin; j < k.excl_end; j++)
            if (const unsigned o = run_excl_[j];
                gpr[o] >= 0 && chan[o] == c && c != was_chan[r])
               return false;
         return true;
      }
      if (neighbour_on(r, g * 4 + c, [&](unsigned w) { return root[w] != r; }))
         return false;
      for (unsigned v : members[r]) {
         /* Only a new conflict counts: fixed channels may have forced one. */
         for (unsigned w : ctx.chan_excl[v]) {
            const unsigned o = root[w];
            if (o != r && gpr[o] >= 0 && chan[o] == c && c != was_chan[r])
               return false;
         }
      }
      return true;
   }

   /* One export of a run: the classes it reads, by swizzle position, and
    * each once (at most four: inline, not an allocation per export). */
   struct RunElem {
      Slots slots;
      SmallVector<unsigned, 4> roots;
      bool pinned = false; /* precoloured, or shares a vector group: stays */
   };

   /* Element e on GPR g with position ch on channel map[ch], if it fits
    * (classes of the run not placed yet are uncoloured). */
   bool put(const RunElem &e, int g, const std::array<int, 4> &map, unsigned num_gprs)
   {
      std::array<std::pair<unsigned, int>, 4> done; /* root, channel */
      unsigned n = 0;
      for (unsigned ch = 0; ch < 4; ch++) {
         if (e.slots[ch].root < 0)
            continue;
         const unsigned r = unsigned(e.slots[ch].root);
         const int c = map[ch];
         bool seen = false, clash = false;
         for (unsigned k = 0; k < n; k++) {
            seen = seen || (done[k].first == r && done[k].second == c);
            clash = clash || (done[k].first == r) != (done[k].second == c);
         }
         if (clash)
            return false;
         if (seen)
            continue;
         if (e.pinned ? gpr[r] != g || chan[r] != c : !fits(r, g, c, num_gprs))
            return false;
         done[n++] = {r, c};
      }
      if (!e.pinned)
         for (unsigned k = 0; k < n; k++)
            colour(done[k].first, g, done[k].second);
      return true;
   }

   void unput(const RunElem &e)
   {
      if (!e.pinned)
         for (unsigned r : e.roots)
            colour(r, -1, -1);
   }

   static constexpr uint8_t kReachUnknown = 0xff;

   /* How many elements from i on (at most `most`) put() places on
    * consecutive GPRs from h with layout maps[m], each after the ones
    * before it, as a burst places them; they are taken out again.  Kept
    * in burst_reach_ while the bursts from i are tried, longest first:
    * the colours the puts depend on are the same for each length (a
    * burst that does not fit is taken out), so each layout and GPR is
    * placed once, not once per length. */
   unsigned burst_reach(const std::vector<RunElem> &run, size_t i, size_t most,
                        const std::vector<std::array<int, 4>> &maps, size_t m, unsigned h,
                        unsigned num_gprs)
   {
      uint8_t &reach = burst_reach_[m * num_gprs + h];
      if (reach != kReachUnknown)
         return reach;
      size_t k = 0;
      while (k < most && put(run[i + k], int(h + k), maps[m], num_gprs))
         k++;
      reach = uint8_t(k);
      while (k-- > 0)
         unput(run[i + k]);
      return reach;
   }

   /* Elements [i, i + len) on consecutive GPRs with one channel layout, one
    * of those the run's elements had: the first GPR that takes them all
    * (len <= most, the longest burst tried from i; see burst_reach). */
   bool put_burst(const std::vector<RunElem> &run, size_t i, size_t len, size_t most,
                  const std::vector<std::array<int, 4>> &maps, unsigned num_gprs)
   {
      /* Where an element already was first: its copies stay no-ops.  A
       * pinned element admits one GPR and its own layout; fixed channels
       * rule layouts out before any GPR is tried. */
      std::vector<unsigned> &hs = burst_hs_;
      hs.clear();
      int only = -1;
      for (size_t k = 0; k < len; k++) {
         if (run[i + k].pinned && (old_gpr_[i + k] < int(k) ||
                                   (only >= 0 && only != old_gpr_[i + k] - int(k))))
            return false;
         if (run[i + k].pinned)
            only = old_gpr_[i + k] - int(k);
         if (old_gpr_[i + k] >= int(k))
            hs.push_back(unsigned(old_gpr_[i + k]) - unsigned(k));
      }
      if (only >= 0)
         hs.assign(1, unsigned(only));
      else
         for (unsigned h = 0; h < num_gprs; h++)
            hs.push_back(h);
      for (size_t m = 0; m < maps.size(); m++) {
         const std::array<int, 4> &map = maps[m];
         bool possible = true;
         for (size_t k = 0; k < len && possible; k++)
            for (unsigned ch = 0; ch < 4; ch++) {
               const int r = run[i + k].slots[ch].root;
               if (r < 0)
                  continue;
               const int fc = run[i + k].pinned ? chan[unsigned(r)] : want_chan(unsigned(r));
               possible = possible && (fc < 0 || fc == map[ch]);
            }
         for (unsigned h : hs) {
            if (!possible || h + len > num_gprs ||
                burst_reach(run, i, most, maps, m, h, num_gprs) < len)
               continue;
            /* The same puts as burst_reach()'s first len: they fit. */
            for (size_t k = 0; k < len; k++)
               put(run[i + k], int(h + k), map, num_gprs);
            return true;
         }
      }
      return false;
   }

   /* A run of two or more exports with one swizzle pattern.  Its movable
    * elements are taken out and put back from the left, each time as the
    * longest burst that fits anywhere below num_gprs, else alone where it
    * was (or anywhere, on its old channels).  Any failure, or a copy that
    * stops being a no-op, restores the colours it had. */
   void place_run(std::vector<RunElem> &run)
   {
      prepare_runs();
      const unsigned num_gprs = run_gprs;
      /* Precoloured classes stay; so do classes in a vector group with
       * classes outside their export (a fetch's results it reads). */
      for (RunElem &e : run)
         for (unsigned r : e.roots) {
            e.pinned = e.pinned || ctx.pre_gpr[r] >= 0;
            for (unsigned gi : groups_of[r])
               for (unsigned v : ctx.vec_groups[gi])
                  e.pinned = e.pinned || (ctx.allocatable[v] &&
                                          std::find(e.roots.begin(), e.roots.end(), root[v]) ==
                                             e.roots.end());
         }
      std::vector<unsigned> &all = run_all_;
      std::vector<std::array<int, 4>> &maps = maps_, &old_maps = old_maps_;
      all.clear();
      maps.clear();
      old_maps.clear();
      old_gpr_.clear();
      for (const RunElem &e : run) {
         std::array<int, 4> map{-1, -1, -1, -1};
         int g = -1;
         for (unsigned ch = 0; ch < 4; ch++)
            if (e.slots[ch].root >= 0) {
               map[ch] = chan[unsigned(e.slots[ch].root)];
               g = gpr[unsigned(e.slots[ch].root)];
            }
         old_maps.push_back(map);
         old_gpr_.push_back(g);
         if (std::find(maps.begin(), maps.end(), map) == maps.end())
            maps.push_back(map);
         for (unsigned r : e.roots) {
            if (std::find(all.begin(), all.end(), r) != all.end())
               return; /* a class read by two elements */
            all.push_back(r);
         }
      }
      std::vector<std::pair<int, int>> &saved = run_saved_;
      saved.clear();
      for (unsigned r : all) {
         saved.push_back({gpr[r], chan[r]});
         was_chan[r] = chan[r];
      }
      const unsigned before = noop_copies(all);
      for (const RunElem &e : run)
         unput(e);
      gather_run(all);
      bool ok = true;
      unsigned bursts = 0;
      for (size_t i = 0; ok && i < run.size();) {
         const size_t most = std::min<size_t>(run.size() - i, 16);
         size_t len = most;
         if (len >= 2)
            burst_reach_.assign(maps.size() * num_gprs, kReachUnknown);
         while (len >= 2 && !put_burst(run, i, len, most, maps, num_gprs))
            len--;
         if (len >= 2) {
            bursts += unsigned(len - 1);
            i += len;
            continue;
         }
         ok = put(run[i], old_gpr_[i], old_maps[i], num_gprs);
         for (unsigned h = 0; !ok && h < num_gprs; h++)
            ok = put(run[i], int(h), old_maps[i], num_gprs);
         i++;
      }
      forget_run(all);
      if (ok && bursts > 0 && noop_copies(all) >= before)
         return;
      for (size_t k = 0; k < all.size(); k++) {
         colour(all[k], saved[k].first, saved[k].second);
      }
      /* Else pairs, left to right, the others staying where they are:
       * element i next to element i - 1, one of the two moving (or both,
       * to a layout one of them has), unless that breaks a pair made
       * before.  The lists are kept from pair to pair: each pair tries up
       * to two layouts on every GPR. */
      std::vector<uint8_t> &joined = joined_;
      joined.assign(run.size(), false);
      std::vector<unsigned> &hs = pair_hs_, &moved = moved_;
      std::vector<int> &to_gpr = to_gpr_, &to_chan = to_chan_;
      for (size_t i = 1; i < run.size(); i++) {
         if (old_gpr_[i - 1] < 0 || old_gpr_[i] < 0)
            continue;
         const bool move_prev = !run[i - 1].pinned && !joined[i - 1];
         if (run[i].pinned && !move_prev)
            continue;
         hs.assign(1, unsigned(old_gpr_[i - 1]));
         if (old_gpr_[i] > 0)
            hs.push_back(unsigned(old_gpr_[i] - 1));
         if (move_prev && !run[i].pinned)
            for (unsigned h = 0; h + 1 < num_gprs; h++)
               hs.push_back(h);
         bool done = false;
         for (const std::array<int, 4> &map : {old_maps[i - 1], old_maps[i]}) {
            if (done)
               break;
            /* Which classes move, to which channels, and whether two would
             * share one or one would need two, depends on the layout
             * only: the GPRs are h and h + 1 alike for every h. */
            moved.clear();
            to_gpr.clear();
            to_chan.clear();
            if (!pair_targets(run[i - 1], 0, map, moved, to_gpr, to_chan))
               continue;
            const size_t from_prev = moved.size();
            if (!pair_targets(run[i], 1, map, moved, to_gpr, to_chan))
               continue;
            for (unsigned h : hs) {
               if (done)
                  break;
               if ((!move_prev && (int(h) != old_gpr_[i - 1] || map != old_maps[i - 1])) ||
                   (run[i].pinned && (int(h) + 1 != old_gpr_[i] || map != old_maps[i])))
                  continue;
               for (size_t k = 0; k < moved.size(); k++)
                  to_gpr[k] = int(h) + (k >= from_prev);
               done = try_move(moved, to_gpr, to_chan, num_gprs);
               if (done) {
                  old_gpr_[i - 1] = int(h);
                  old_gpr_[i] = int(h) + 1;
                  old_maps[i - 1] = old_maps[i] = map;
                  joined[i] = true;
               }
            }
         }
      }
   }

   /* The register channels of element e on GPR g with layout map, added to
    * the lists; false when two classes would share one or a class would
    * need two. */
   static bool pair_targets(const RunElem &e, int g, const std::array<int, 4> &map,
                            std::vector<unsigned> &moved, std::vector<int> &to_gpr,
                            std::vector<int> &to_chan)
   {
      for (unsigned ch = 0; ch < 4; ch++) {
         if (e.slots[ch].root < 0)
            continue;
         const unsigned r = unsigned(e.slots[ch].root);
         const auto k = size_t(std::find(moved.begin(), moved.end(), r) - moved.begin());
         if (k < moved.size()) {
            if (to_gpr[k] != g || to_chan[k] != map[ch])
               return false;
            continue;
         }
         for (size_t j = 0; j < moved.size(); j++)
            if (to_gpr[j] == g && to_chan[j] == map[ch])
               return false;
         moved.push_back(r);
         to_gpr.push_back(g);
         to_chan.push_back(map[ch]);
      }
      return true;
   }

   /* Moves the classes of unpinned elements (their vector groups are their
    * own) to the given register channels if that loses nothing; false
    * leaves the colours as they were. */
   bool try_move(const std::vector<unsigned> &moved, const std::vector<int> &to_gpr,
                 const std::vector<int> &to_chan, unsigned num_gprs)
   {
      auto moving = [&](unsigned o) {
         return std::find(moved.begin(), moved.end(), o) != moved.end();
      };
      for (size_t i = 0; i < moved.size(); i++) {
         const unsigned r = moved[i];
         if (gpr[r] == to_gpr[i] && chan[r] == to_chan[i])
            continue; /* stays: a pinned element's class among them */
         if (unsigned(to_gpr[i]) >= num_gprs || ctx.reserved_gpr[unsigned(to_gpr[i])])
            return false;
         const int fc = want_chan(r);
         if (fc >= 0 && fc != to_chan[i])
            return false;
         if (neighbour_on(r, to_gpr[i] * 4 + to_chan[i],
                          [&](unsigned w) { return !moving(root[w]); }))
            return false;
         for (unsigned v : members[r]) {
            for (unsigned w : ctx.chan_excl[v]) {
               const unsigned o = root[w];
               if (!moving(o) && chan[o] == to_chan[i] && chan[o] != chan[r])
                  return false;
            }
         }
      }
      const unsigned before = noop_copies(moved);
      std::vector<std::pair<int, int>> &saved = moved_from_;
      saved.clear();
      for (size_t i = 0; i < moved.size(); i++) {
         saved.push_back({gpr[moved[i]], chan[moved[i]]});
         colour(moved[i], to_gpr[i], to_chan[i]);
      }
      if (noop_copies(moved) >= before)
         return true;
      for (size_t i = 0; i < moved.size(); i++) {
         colour(moved[i], saved[i].first, saved[i].second);
      }
      return false;
   }

   /* What only runs need, taken when the first run is placed (most
    * shaders have none): the vector groups of each class, copies_of and
    * the tables by root. */
   bool runs_prepared = false;
   /* Registers the exports read are the ones sure to be in the final
    * count: the clause-local stage may turn others into clause
    * temporaries or compact them away (not past a burst), so a burst stays
    * below the highest of them, as coloured before any run moved: the
    * runs are all found (and this taken) before the first is placed. */
   unsigned run_gprs = 0;

   void prepare_runs()
   {
      if (runs_prepared)
         return;
      runs_prepared = true;
      const unsigned nv = ctx.num_values;
      run_index.assign(members.size(), -1);
      was_chan.assign(members.size(), -1);
      std::vector<unsigned> &last = last_group_;
      last.resize(nv);
      build_lists(nv, groups_of, [&](auto &&emit) {
         /* A group listed once per class (consecutive members). */
         std::fill(last.begin(), last.end(), ~0u);
         for (size_t gi = 0; gi < ctx.vec_groups.size(); gi++)
            for (unsigned v : ctx.vec_groups[gi])
               if (ctx.allocatable[v] && last[root[v]] != gi) {
                  last[root[v]] = unsigned(gi);
                  emit(root[v], unsigned(gi));
               }
      });
      build_lists(nv, copies_of, [&](auto &&emit) {
         for (size_t k = 0; k < ctx.copies.size(); k++) {
            const RaCopy &c = ctx.copies[k];
            if (!ctx.allocatable[c.dst] || !ctx.allocatable[c.src])
               continue;
            emit(root[c.dst], unsigned(k));
            if (root[c.src] != root[c.dst])
               emit(root[c.src], unsigned(k));
         }
      });
   }

   /* Exports in a row within one list: ALU clauses between them do not
    * break a run, since finalize moves an ALU clause before exports that do
    * not read what it writes (ra_split's copies for the next export).  A
    * run holds one type, consecutive array bases and one swizzle pattern
    * (the same positions masked, constant or read); EXPORT_DONE ends it.
    * The runs are found first and placed in the order found: placing one
    * leaves every class it reads coloured, so finding the later ones reads
    * the same, and the exports' GPRs (run_gprs) come from the same walk
    * (walking the whole tree again for them cost as much as the rest of
    * ra_init on a large shader: the walk here skips the ALU clauses). */
   void burst_exports()
   {
      std::vector<std::vector<RunElem>> runs;
      find_runs(sh.root, runs);
      for (std::vector<RunElem> &run : runs)
         place_run(run);
   }

   void find_runs(const Node *n, std::vector<std::vector<RunElem>> &runs)
   {
      std::vector<RunElem> run;
      const ExportInfo *last = nullptr;
      auto end_run = [&]() {
         if (run.size() > 1)
            runs.push_back(std::move(run));
         run.clear();
         last = nullptr;
      };
      for (const Node *c : n->children) {
         if (c->kind == NodeKind::Cf && (!c->cf || cf_op_info(c->cf->op).enc == CfEncoding::Alu))
            continue;
         if (!(c->kind == NodeKind::Cf && cf_op_info(c->cf->op).enc == CfEncoding::Export)) {
            end_run();
            find_runs(c, runs);
            continue;
         }
         for (const Value &v : c->src)
            if (v.kind == ValueKind::Var && ra_value_allocatable(sh, v) &&
                ctx.allocatable[sh.value_id(v)])
               run_gprs = std::max(run_gprs, unsigned(gpr[root[sh.value_id(v)]] + 1));
         const ExportInfo &e = c->cf->exp;
         RunElem el;
         if (e.rw_rel || e.burst_count != 1 || !export_slots(c, el.slots)) {
            end_run();
            continue;
         }
         for (unsigned ch = 0; ch < 4; ch++) {
            const int r = el.slots[ch].root;
            if (r >= 0 &&
                std::find(el.roots.begin(), el.roots.end(), unsigned(r)) == el.roots.end())
               el.roots.push_back(unsigned(r));
         }
         bool joins = last && last->type == e.type && last->array_base + 1 == e.array_base;
         for (unsigned ch = 0; joins && ch < 4; ch++)
            joins = (el.slots[ch].root < 0) == (run.back().slots[ch].root < 0) &&
                    el.slots[ch].konst == run.back().slots[ch].konst;
         if (!joins)
            end_run();
         run.push_back(std::move(el));
         last = &e;
         if (c->cf->op != CfOp::EXPORT || c->cf->end_of_program)
            end_run();
      }
      end_run();
   }
};

} // namespace

bool ra_init(RegionShader &sh, RaContext &ctx, Allocation &alloc, Diagnostics &diags)
{
   unsigned nv = ctx.num_values;
   if (nv != sh.num_values() || ctx.parent.size() != nv) {
      diags.error("ra", SourceLoc{0, 0}, "ra_init: run ra_split first");
      return false;
   }
   Colourer col(sh, ctx, diags);
   /* The scratch of the class lists and of the sort, kept with the
    * thread as the colourer's tables are (each is sized and filled anew
    * below). */
   struct Tables {
      std::vector<unsigned> first, roots, at, sorted;
   };
   Tables &kept = thread_kept<Tables>();
   if (std::find(ctx.reserved_gpr.begin(), ctx.reserved_gpr.end(), 1) == ctx.reserved_gpr.end()) {
      /* No arrays: every channel of R0..R123. */
      col.usable.fill(1);
   } else {
      for (unsigned g = 0; g < kRaMaxGprs; g++)
         if (!ctx.reserved_gpr[g])
            std::fill_n(col.usable.begin() + g * 4, 4, uint8_t(1));
   }
   /* The tables by value, each value's class and the members of each
    * class (in value order) in three passes over the values: one that
    * sets the tables and counts the members, one over the classes for
    * the lists' offsets and the roots (classes with members, in root
    * order), and one that places the members and takes each class's
    * first definition (placing through the offsets, restore_offsets). */
   std::vector<unsigned> &first = kept.first;
   col.gpr.resize(nv);
   col.chan.resize(nv);
   col.slot.resize(nv);
   col.root.resize(nv);
   first.resize(nv);
   RaAdjacency &members = col.members;
   members.start.assign(size_t(nv) + 1, 0);
   for (unsigned v = 0; v < nv; v++) {
      col.gpr[v] = col.chan[v] = -1;
      col.slot[v] = -1;
      first[v] = ~0u;
      const unsigned r = ctx.find(v);
      col.root[v] = r;
      members.start[r + 1] += ctx.allocatable[v] != 0;
   }
   std::vector<unsigned> &roots = kept.roots;
   roots.clear();
   roots.reserve(nv);
   for (unsigned r = 0; r < nv; r++) {
      if (members.start[r + 1])
         roots.push_back(r);
      members.start[r + 1] += members.start[r];
   }
   members.list.resize(members.start[nv]);
   unsigned last_point = 0; /* of any definition: a bound of the first ones */
   for (unsigned v = 0; v < nv; v++) {
      if (!ctx.allocatable[v])
         continue;
      const unsigned r = col.root[v];
      members.list[members.start[r]++] = v;
      first[r] = std::min(first[r], ctx.def_order[v]);
      last_point = std::max(last_point, ctx.def_order[v]);
   }
   restore_offsets(nv, members);
   build_lists(nv, col.partners, [&](auto &&emit) {
      for (const RaCopy &c : ctx.copies) {
         if (!ctx.allocatable[c.dst] || !ctx.allocatable[c.src])
            continue;
         unsigned a = col.root[c.dst], b = col.root[c.src];
         if (a == b)
            continue;
         emit(a, b);
         emit(b, a);
      }
   });

   for (unsigned r : roots)
      if (ctx.pre_gpr[r] >= 0 && !col.precoloured(r))
         return false;
   for (const auto &g : ctx.vec_groups) {
      bool any = false;
      for (unsigned v : g)
         any |= ctx.allocatable[v] && col.gpr[col.root[v]] < 0;
      if (any && !col.vector(g))
         return false;
   }
   /* Classes by first definition, ties in root order.  The points are
    * bounded by the tree's size, so a shader sorts by counting (a stable
    * placement, the order std::stable_sort gives) up to the last
    * definition point unless the points are sparse: small shaders too
    * (std::stable_sort, its buffer and merges, cost about twice as much on
    * the corpus's median shaders). */
   if (last_point <= 4 * roots.size()) {
      std::vector<unsigned> &at = kept.at, &sorted = kept.sorted;
      at.assign(size_t(last_point) + 2, 0);
      sorted.resize(roots.size());
      for (unsigned r : roots)
         at[first[r] + 1]++;
      for (unsigned p = 0; p <= last_point; p++)
         at[p + 1] += at[p];
      for (unsigned r : roots)
         sorted[at[first[r]]++] = r;
      roots.swap(sorted);
   } else {
      std::stable_sort(roots.begin(), roots.end(),
                       [&](unsigned a, unsigned b) { return first[a] < first[b]; });
   }
   for (unsigned r : roots)
      if (col.gpr[r] < 0 && !col.scalar(r))
         return false;

   col.burst_exports();

   alloc.reg.assign(nv, RegAssign{});
   alloc.num_gprs = 0;
   for (unsigned v = 0; v < nv; v++) {
      if (!ctx.allocatable[v])
         continue;
      unsigned r = col.root[v];
      alloc.reg[v].gpr = int16_t(col.gpr[r]);
      alloc.reg[v].chan = uint8_t(col.chan[r]);
      alloc.num_gprs = std::max(alloc.num_gprs, unsigned(col.gpr[r] + 1));
   }
   /* Array values stay where the array is. */
   for (size_t var = 0; !sh.arrays.empty() && var < sh.vars.size(); var++) {
      if (!var_in_array(sh, int(var)))
         continue;
      const Var &vv = sh.vars[var];
      for (unsigned ver = 0; ver <= sh.version_count[var]; ver++) {
         RegAssign &ra = alloc.reg[sh.value_id(int(var), ver)];
         ra.gpr = int16_t(vv.index);
         ra.chan = uint8_t(vv.chan);
      }
   }
   for (const RelArray &a : sh.arrays)
      alloc.num_gprs = std::max(alloc.num_gprs, a.first + a.count);
   return true;
}

} // namespace sbcc::r600::sb::region
