/*
 * ra_coalesce: merges values into classes that get one register channel.
 * Order: phi/psi classes (required: ra_split made them interference-free),
 * then copies feeding fetch/export vector operands, then the other copies,
 * most expensive first (cost grows with loop depth).  A merge is refused
 * when the two classes interfere or their constraints disagree (two
 * precolours, two fixed channels, two vector operands, a vector operand
 * that would need one channel twice).
 */
#include <algorithm>
#include <span>

#include "common/thread_memory.h"
#include "r600/sb/sb_ra.h"

namespace sbcc::r600::sb::region {

namespace {

/* Classes' tables, kept with the thread from shader to shader for their
 * storage (see ra_coalesce) and lent to each Classes (held by value, not
 * referred to: the merge tests read them for every member).  Sized and
 * filled anew each time. */
struct ClassTables {
   /* Members of each class as a list threaded through `next` (head, tail
    * and size by root): a merge splices two lists in O(1), and there is no
    * allocation per value. */
   std::vector<unsigned> next, head, tail, size;
   /* Neighbours by root (adjacency and chan_excl lists of all members),
    * what testing the class for interference costs; set by merge(), so
    * only for classes of two values or more (see neighbours()). */
   std::vector<unsigned> degree;
   /* Scratch for group_channels_ok and can_join (neither calls the
    * other): asked per vector operand. */
   std::vector<unsigned> roots_;
};

struct Classes : ClassTables {
   ThreadLend<ClassTables> lend{*this};
   RaContext &ctx;
   static constexpr unsigned kEnd = ~0u;
   Classes(const Classes &) = delete;
   Classes &operator=(const Classes &) = delete;

   explicit Classes(RaContext &c) : ctx(c)
   {
      unsigned nv = ctx.num_values;
      head.assign(nv, kEnd);
      size.assign(nv, 0);
      /* Written before they are read: a list's tail, a value's next once
       * it is in a list, a class's degree when it gets a second member. */
      next.resize(nv);
      tail.resize(nv);
      degree.resize(nv);
      /* ctx.parent is kept flat from here on (each value's entry is its
       * root, merge() relabels the smaller class's members), so the
       * interference test reads a neighbour's class with one load. */
      for (unsigned v = 0; v < nv; v++) {
         unsigned r = ctx.find(v);
         ctx.parent[v] = r;
         next[v] = kEnd;
         if (head[r] == kEnd)
            head[r] = v;
         else
            next[tail[r]] = v;
         tail[r] = v;
         size[r]++;
      }
   }

   /* Most classes are one value, whose lists say it directly: taken
    * for every value up front, this cost more than the test saved on
    * small shaders. */
   unsigned neighbours(unsigned r) const
   {
      return size[r] == 1 ? unsigned(ctx.adj[r].size() + ctx.chan_excl[r].size()) : degree[r];
   }

   /* Whether a member of one class interferes with (or must not share a
    * channel with) a member of the other.  Both relations are symmetric.
    * Most tests are between classes of a value or two, whose values
    * neighbour many others (one live across a long loop neighbours most
    * of it): then each pair is looked up in the sorted adjacency list (and
    * the short chan_excl list), else the lists of the class with fewer
    * neighbours are read, each neighbour's class taken with one load. */
   bool interfere(unsigned ra, unsigned rb) const
   {
      const unsigned na = neighbours(ra), nb = neighbours(rb);
      unsigned scan = na <= nb ? ra : rb;
      unsigned other = scan == ra ? rb : ra;
      /* A binary search costs about what reading a dozen entries does. */
      if (size[ra] * size[rb] * 12 < std::min(na, nb)) {
         for (unsigned v = head[scan]; v != kEnd; v = next[v]) {
            const RaAdjacency::Range excl = ctx.chan_excl[v];
            for (unsigned u = head[other]; u != kEnd; u = next[u])
               if (ra_interfere(ctx, v, u) || std::find(excl.begin(), excl.end(), u) != excl.end())
                  return true;
         }
         return false;
      }
      const unsigned *class_of = ctx.parent.data();
      for (unsigned v = head[scan]; v != kEnd; v = next[v]) {
         for (unsigned w : ctx.adj[v])
            if (class_of[w] == other)
               return true;
         for (unsigned w : ctx.chan_excl[v])
            if (class_of[w] == other)
               return true;
      }
      return false;
   }

   /* Fixed channels the classes of vector group g would need, with class
    * `extra` (fixed channel `chan`) joining it; false on a duplicate. */
   bool group_channels_ok(int g, unsigned skip_a, unsigned skip_b, int chan)
   {
      unsigned seen = 0;
      if (chan >= 0)
         seen |= 1u << chan;
      std::vector<unsigned> &roots = roots_;
      roots.clear();
      for (unsigned v : ctx.vec_groups[g]) {
         unsigned r = ctx.find(v);
         if (r == skip_a || r == skip_b || std::count(roots.begin(), roots.end(), r))
            continue;
         roots.push_back(r);
         int c = ctx.fixed_chan[r] >= 0 ? ctx.fixed_chan[r] : ctx.pre_chan[r];
         if (c < 0)
            continue;
         if (seen & (1u << c))
            return false;
         seen |= 1u << c;
      }
      return true;
   }

   /* Whether every other class of vector group g may share GPR `gpr`. */
   bool group_gpr_ok(int g, unsigned skip_a, unsigned skip_b, int gpr)
   {
      for (unsigned v : ctx.vec_groups[g]) {
         unsigned r = ctx.find(v);
         if (r != skip_a && r != skip_b && ctx.pre_gpr[r] >= 0 && ctx.pre_gpr[r] != gpr)
            return false;
      }
      return true;
   }

   bool allow_pin = false;
   bool allow_same_group = false;

   /* Vector group b joins group a (an export of a fetch result, a fetch
    * of another's result): one GPR for both. */
   void join_groups(int a, int b)
   {
      for (unsigned v : ctx.vec_groups[b]) {
         ctx.vec_group[v] = a;
         ctx.vec_group[ctx.find(v)] = a;
         ctx.vec_groups[a].push_back(v);
      }
      ctx.vec_groups[b].clear();
   }

   /* Whether copies cs (all of group b) can merge into their sources,
    * which sit in group a or in no group, with at most 4 classes left. */
   bool can_join(int a, const std::vector<const RaCopy *> &cs)
   {
      std::vector<unsigned> &roots = roots_;
      roots.clear();
      for (unsigned v : ctx.vec_groups[a]) {
         unsigned r = ctx.find(v);
         if (std::find(roots.begin(), roots.end(), r) == roots.end())
            roots.push_back(r);
      }
      for (const RaCopy *c : cs) {
         unsigned r = ctx.find(c->src);
         if (ctx.pre_gpr[r] >= 0 || ctx.pre_gpr[ctx.find(c->dst)] >= 0)
            return false;
         if (std::find(roots.begin(), roots.end(), r) == roots.end())
            roots.push_back(r);
      }
      if (roots.size() > 4)
         return false;
      unsigned seen = 0;
      for (unsigned r : roots) {
         int c = ctx.fixed_chan[r];
         if (c < 0)
            continue;
         if (seen & (1u << c))
            return false;
         seen |= 1u << c;
      }
      return true;
   }

   bool merge(unsigned a, unsigned b, bool dry = false)
   {
      unsigned ra = ctx.find(a), rb = ctx.find(b);
      if (ra == rb)
         return true;
      if (ctx.pre_gpr[ra] >= 0 && ctx.pre_gpr[rb] >= 0 &&
          (ctx.pre_gpr[ra] != ctx.pre_gpr[rb] || ctx.pre_chan[ra] != ctx.pre_chan[rb]))
         return false;
      int ca = ctx.fixed_chan[ra] >= 0 ? ctx.fixed_chan[ra] : ctx.pre_chan[ra];
      int cb = ctx.fixed_chan[rb] >= 0 ? ctx.fixed_chan[rb] : ctx.pre_chan[rb];
      if (ca >= 0 && cb >= 0 && ca != cb)
         return false;
      int ga = ctx.vec_group[ra], gb = ctx.vec_group[rb];
      if (ga >= 0 && gb >= 0 && (ga != gb || !allow_same_group))
         return false;
      int g = ga >= 0 ? ga : gb;
      int pre = ctx.pre_gpr[ra] >= 0 ? ctx.pre_gpr[ra] : ctx.pre_gpr[rb];
      /* A precoloured value joins a vector operand only when the whole
       * operand moves into its GPR at once (pin_vectors): a half-pinned
       * operand may find no free channels there. */
      if (g >= 0 && pre >= 0 && (!allow_pin || !group_gpr_ok(g, ra, rb, pre)))
         return false;
      int chan = ca >= 0 ? ca : cb;
      if (g >= 0 && chan >= 0 && !group_channels_ok(g, ra, rb, chan))
         return false;
      if (interfere(ra, rb))
         return false;
      if (dry)
         return true;
      /* Keep the bigger class's root. */
      if (size[ra] < size[rb])
         std::swap(ra, rb);
      degree[ra] = neighbours(ra) + neighbours(rb);
      for (unsigned v = head[rb]; v != kEnd; v = next[v])
         ctx.parent[v] = ra;
      next[tail[ra]] = head[rb];
      tail[ra] = tail[rb];
      size[ra] += size[rb];
      head[rb] = tail[rb] = kEnd;
      size[rb] = 0;
      if (ctx.pre_gpr[ra] < 0) {
         ctx.pre_gpr[ra] = ctx.pre_gpr[rb];
         ctx.pre_chan[ra] = ctx.pre_chan[rb];
      }
      if (ctx.fixed_chan[ra] < 0)
         ctx.fixed_chan[ra] = ctx.fixed_chan[rb];
      if (ctx.vec_group[ra] < 0)
         ctx.vec_group[ra] = ctx.vec_group[rb];
      return true;
   }
};

bool pin_group(RaContext &ctx, Classes &cl, int g, const std::vector<const RaCopy *> &cs)
{
   if (cs.size() != ctx.vec_groups[g].size())
      return false;
   int pre = ctx.pre_gpr[ctx.find(cs[0]->src)];
   bool ok = pre >= 0;
   cl.allow_pin = true;
   for (const RaCopy *c : cs)
      ok = ok && ctx.pre_gpr[ctx.find(c->src)] == pre && cl.merge(c->dst, c->src, true);
   if (ok)
      for (const RaCopy *c : cs)
         if (cl.merge(c->dst, c->src))
            ctx.coalesced++;
   cl.allow_pin = false;
   return ok;
}

bool join_group(RaContext &ctx, Classes &cl, int g, const std::vector<const RaCopy *> &cs)
{
   if (cs.size() != ctx.vec_groups[g].size())
      return false;
   int other = -1;
   for (const RaCopy *c : cs) {
      int sg = ctx.vec_group[ctx.find(c->src)];
      if (sg == g || (sg >= 0 && other >= 0 && sg != other))
         return false;
      if (sg >= 0)
         other = sg;
   }
   if (other < 0 || !cl.can_join(other, cs))
      return false;
   bool ok = true;
   for (const RaCopy *c : cs) {
      unsigned rd = ctx.find(c->dst), rs = ctx.find(c->src);
      int gd = ctx.vec_group[rd], gs = ctx.vec_group[rs];
      /* dry check as if the two operands were one */
      ctx.vec_group[rd] = -1;
      ctx.vec_group[rs] = -1;
      ok = ok && cl.merge(c->dst, c->src, true);
      ctx.vec_group[rd] = gd;
      ctx.vec_group[rs] = gs;
   }
   if (!ok)
      return false;
   cl.join_groups(other, g);
   cl.allow_same_group = true;
   for (const RaCopy *c : cs)
      if (cl.merge(c->dst, c->src))
         ctx.coalesced++;
   cl.allow_same_group = false;
   return true;
}

} // namespace

bool ra_coalesce(RegionShader &sh, RaContext &ctx, Diagnostics &diags)
{
   (void)sh;
   if (ctx.parent.size() != ctx.num_values || ctx.adj.size() != ctx.num_values) {
      diags.error("ra", SourceLoc{0, 0}, "ra_coalesce: run ra_split first");
      return false;
   }
   /* Class attributes live at the root; seed them from the values. */
   for (unsigned v = 0; v < ctx.num_values; v++) {
      int c = ctx.fixed_chan[v];
      if (c >= 0 && ctx.pre_chan[v] >= 0 && c != ctx.pre_chan[v]) {
         diags.error("ra", SourceLoc{0, 0},
                     "ra_coalesce: a precoloured value defined on a fixed channel");
         return false;
      }
   }
   /* Every table here kept with the thread: a dozen allocations and
    * frees per shader were a tenth of the pass on a typical one.  Lent
    * to a local rather than used in place: the compiler recomputed the
    * thread_local's address (and its guard test) at each use. */
   struct Feed {
      const RaCopy *copy;
      int next;
   };
   struct Tables {
      std::vector<RaCopy> sorted;
      std::vector<uint32_t> start;
      std::vector<Feed> feeds;
      std::vector<int> first_feed;
      std::vector<const RaCopy *> cs;
   };
   Tables kept;
   ThreadLend<Tables> lend{kept};
   Classes cl(ctx);
   for (const auto &f : ctx.forced) {
      for (size_t i = 1; i < f.size(); i++)
         if (!cl.merge(f[0], f[i])) {
            diags.error("ra", SourceLoc{0, 0},
                        "ra_coalesce: the values of a phi or psi cannot share a register");
            return false;
         }
   }
   /* The copies feeding vector operands (`vec`), then the others
    * (`rest`), each part most expensive first and otherwise in the order
    * of ctx.copies.  A stable counting sort: a cost is 1 + 10 * loop
    * depth, so there are few keys, and std::stable_sort (its merges and
    * its buffer, allocated per call) cost more on a small shader. */
   unsigned max_cost = 0;
   for (const RaCopy &c : ctx.copies)
      max_cost = std::max(max_cost, c.cost);
   const size_t keys = size_t(max_cost) + 1;
   auto key = [&](const RaCopy &c) {
      return (ctx.vec_group[c.dst] >= 0 ? 0 : keys) + (max_cost - c.cost);
   };
   std::vector<uint32_t> &start = kept.start;
   start.assign(2 * keys + 1, 0);
   for (const RaCopy &c : ctx.copies)
      start[key(c) + 1]++;
   for (size_t k = 0; k < 2 * keys; k++)
      start[k + 1] += start[k];
   const size_t nvec = start[keys];
   std::vector<RaCopy> &sorted = kept.sorted;
   sorted.resize(ctx.copies.size());
   for (const RaCopy &c : ctx.copies)
      sorted[start[key(c)]++] = c;
   const std::span<const RaCopy> vec(sorted.data(), nvec);
   const std::span<const RaCopy> rest(sorted.data() + nvec, sorted.size() - nvec);
   /* Vector operands in tree order, each whole: into the precoloured GPR
    * all its copies read (an export of an input register), else into the
    * operand its sources already form (a fetch or export of a fetch
    * result, fetches sharing coordinates), else copy by copy. */
   /* Copies by the vector operand they feed, found once (a scan of all
    * copies per operand is quadratic on shaders with thousands of fetches);
    * a join moves an operand's copies to the operand it joins.  The lists
    * are threaded through one array instead of one vector each: their
    * order does not matter, each operand's copies are sorted below. */
   std::vector<Feed> &feeds = kept.feeds;
   feeds.clear();
   feeds.reserve(vec.size());
   std::vector<int> &first_feed = kept.first_feed;
   first_feed.assign(ctx.vec_groups.size(), -1);
   auto feed = [&](size_t g, const RaCopy *c) {
      feeds.push_back({c, first_feed[g]});
      first_feed[g] = int(feeds.size() - 1);
   };
   for (const RaCopy &c : vec) {
      int g = ctx.vec_group[ctx.find(c.dst)];
      if (g >= 0 && size_t(g) < first_feed.size())
         feed(size_t(g), &c);
   }
   std::vector<const RaCopy *> &cs = kept.cs;
   for (size_t g = 0; g < ctx.vec_groups.size(); g++) {
      cs.clear();
      for (int f = first_feed[g]; f >= 0; f = feeds[size_t(f)].next)
         if (ctx.vec_group[ctx.find(feeds[size_t(f)].copy->dst)] == int(g))
            cs.push_back(feeds[size_t(f)].copy);
      /* In cost order, as in `vec` (joined copies arrive out of order). */
      std::sort(cs.begin(), cs.end());
      cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
      if (cs.empty())
         continue;
      if (pin_group(ctx, cl, int(g), cs))
         continue;
      if (join_group(ctx, cl, int(g), cs)) {
         int o = ctx.vec_group[ctx.find(cs[0]->dst)];
         if (o > int(g) && size_t(o) < first_feed.size())
            for (const RaCopy *c : cs)
               feed(size_t(o), c);
         continue;
      }
      for (const RaCopy *c : cs)
         if (cl.merge(c->dst, c->src))
            ctx.coalesced++;
   }
   for (const RaCopy &c : rest)
      if (cl.merge(c.dst, c.src))
         ctx.coalesced++;
   return true;
}

} // namespace sbcc::r600::sb::region
