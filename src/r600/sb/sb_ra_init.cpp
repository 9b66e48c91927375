/*
 * ra_init: colours the coalescing classes with (GPR, channel) pairs.
 * Arrays keep their GPRs (reserved for them), precoloured classes keep
 * theirs, then vector operands (one GPR, distinct channels) and the
 * remaining classes in definition order, each taking the lowest free
 * channel of the lowest GPR its interfering classes leave.  On SSA values
 * coloured in definition order this first fit keeps the register count
 * close to the maximal pressure, which is what lets it beat allocations
 * that follow the source program's registers.
 */
#include <algorithm>

#include "r600/sb/sb_ra.h"

namespace sbcc::r600::sb::region {

namespace {

struct Colourer {
   RegionShader &sh;
   RaContext &ctx;
   Diagnostics &diags;
   std::vector<std::vector<unsigned>> members; /* by root */
   std::vector<int> gpr, chan;                  /* by root */
   std::vector<bool> busy;                      /* scratch: kRaMaxGprs * 4 */
   /* Class of every value: the classes are final here, so one find() per
    * value instead of one per adjacency visit. */
   std::vector<unsigned> root;
   /* Channels to avoid if possible (chan_excl): a soft constraint, since a
    * fixed or precoloured channel may leave no other choice. */
   unsigned chan_pref = 0;
   /* Roots joined to this root by a copy ra_coalesce could not merge: their
    * register channel, when free, makes the MOV a no-op finalize drops. */
   std::vector<std::vector<unsigned>> partners; /* by root */

   bool fail(const std::string &msg)
   {
      diags.error("ra", SourceLoc{0, 0}, "ra_init: " + msg);
      return false;
   }

   /* Register channels taken by classes interfering with root r. */
   void occupied(unsigned r)
   {
      std::fill(busy.begin(), busy.end(), false);
      unsigned chans = 0;
      for (unsigned v : members[r]) {
         for (unsigned w : ctx.adj[v]) {
            unsigned o = root[w];
            if (gpr[o] >= 0)
               busy[unsigned(gpr[o]) * 4 + unsigned(chan[o])] = true;
         }
         for (unsigned w : ctx.chan_excl[v]) {
            unsigned o = root[w];
            if (gpr[o] >= 0)
               chans |= 1u << chan[o];
         }
      }
      chan_pref = chans;
   }

   int want_chan(unsigned r) const
   {
      return ctx.fixed_chan[r] >= 0 ? ctx.fixed_chan[r] : ctx.pre_chan[r];
   }

   bool precoloured(unsigned r)
   {
      /* Only registers count here: a precoloured value cannot move to
       * honour a channel preference. */
      std::fill(busy.begin(), busy.end(), false);
      for (unsigned v : members[r])
         for (unsigned w : ctx.adj[v]) {
            unsigned o = root[w];
            if (gpr[o] >= 0)
               busy[unsigned(gpr[o]) * 4 + unsigned(chan[o])] = true;
         }
      unsigned g = unsigned(ctx.pre_gpr[r]), c = unsigned(ctx.pre_chan[r]);
      if (busy[g * 4 + c])
         return fail("two live precoloured values need R" + std::to_string(g) + "." +
                     "xyzw"[c]);
      gpr[r] = int(g);
      chan[r] = int(c);
      return true;
   }

   bool scalar(unsigned r)
   {
      occupied(r);
      int fc = want_chan(r);
      for (unsigned avoid : {chan_pref, 0u})
         for (unsigned g = 0; g < kRaMaxGprs; g++) {
            if (ctx.reserved_gpr[g])
               continue;
            for (unsigned c = 0; c < 4; c++) {
               if ((fc >= 0 && int(c) != fc) || busy[g * 4 + c] || (avoid & (1u << c)))
                  continue;
               gpr[r] = int(g);
               chan[r] = int(c);
               return true;
            }
         }
      return fail("out of registers");
   }

   bool vector(const std::vector<unsigned> &group)
   {
      std::vector<unsigned> roots;
      for (unsigned v : group) {
         unsigned r = root[v];
         if (std::find(roots.begin(), roots.end(), r) == roots.end())
            roots.push_back(r);
      }
      if (roots.size() > 4)
         return fail("a vector operand of more than 4 classes");
      /* Members already coloured (precoloured) pin the GPR and channels. */
      int pinned = -1;
      unsigned taken = 0;
      std::vector<unsigned> open;
      std::vector<std::vector<bool>> busy_of;
      for (unsigned r : roots) {
         if (gpr[r] >= 0) {
            if (pinned >= 0 && gpr[r] != pinned)
               return fail("a vector operand over two precoloured GPRs");
            pinned = gpr[r];
            taken |= 1u << chan[r];
            continue;
         }
         open.push_back(r);
         occupied(r);
         busy_of.push_back(busy);
      }
      /* Biased colouring: the GPRs the copies' partners (typically the
       * inputs an export reads) already hold come first; there a copy on its
       * source's channel is a no-op, and the GPR is in use anyway. */
      std::vector<unsigned> order;
      if (pinned < 0)
         for (unsigned r : open)
            for (unsigned p : partners[r])
               if (gpr[p] >= 0 && !ctx.reserved_gpr[gpr[p]] &&
                   std::find(order.begin(), order.end(), unsigned(gpr[p])) == order.end())
                  order.push_back(unsigned(gpr[p]));
      auto place_in = [&](unsigned g) {
         std::vector<int> pick(open.size(), -1);
         if (!assign(open, busy_of, g, 0, taken, pick))
            return false;
         for (size_t i = 0; i < open.size(); i++) {
            gpr[open[i]] = int(g);
            chan[open[i]] = pick[i];
         }
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

   bool assign(const std::vector<unsigned> &roots, const std::vector<std::vector<bool>> &bo,
               unsigned g, size_t i, unsigned used, std::vector<int> &pick)
   {
      if (i == roots.size())
         return true;
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
         if (assign(roots, bo, g, i + 1, used | (1u << c), pick))
            return true;
      }
      return false;
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
   Colourer col{sh, ctx, diags, {}, {}, {}, {}, {}, 0, {}};
   col.members.resize(nv);
   col.gpr.assign(nv, -1);
   col.chan.assign(nv, -1);
   col.busy.assign(kRaMaxGprs * 4, false);
   col.root.resize(nv);
   for (unsigned v = 0; v < nv; v++)
      col.root[v] = ctx.find(v);
   std::vector<unsigned> first(nv, ~0u);
   for (unsigned v = 0; v < nv; v++) {
      if (!ctx.allocatable[v])
         continue;
      unsigned r = col.root[v];
      col.members[r].push_back(v);
      first[r] = std::min(first[r], ctx.def_order[v]);
   }
   std::vector<unsigned> roots;
   for (unsigned r = 0; r < nv; r++)
      if (!col.members[r].empty())
         roots.push_back(r);
   col.partners.resize(nv);
   for (const RaCopy &c : ctx.copies) {
      if (!ctx.allocatable[c.dst] || !ctx.allocatable[c.src])
         continue;
      unsigned a = col.root[c.dst], b = col.root[c.src];
      if (a == b)
         continue;
      col.partners[a].push_back(b);
      col.partners[b].push_back(a);
   }

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
   std::stable_sort(roots.begin(), roots.end(),
                    [&](unsigned a, unsigned b) { return first[a] < first[b]; });
   for (unsigned r : roots)
      if (col.gpr[r] < 0 && !col.scalar(r))
         return false;

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
   for (size_t var = 0; var < sh.vars.size(); var++) {
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
