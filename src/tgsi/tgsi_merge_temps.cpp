/*
 * Temporary merging over the live ranges of tgsi_lifetimes.cpp.
 *
 * Ranges are compared in slots (read slot 2i, write slot 2i+1), so a
 * temporary last read by instruction i can hand its register to one first
 * written by instruction i; a range starting at -1 (live on entry) can share
 * with nothing that ends before it, which keeps undefined reads reading the
 * register's initial contents.
 */
#include "tgsi/tgsi_merge_temps.h"

#include <algorithm>
#include <array>
#include <climits>
#include <functional>
#include <queue>
#include <utility>

#include "tgsi/tgsi_lifetimes.h"

namespace sbcc::tgsi {

namespace {

struct Renumbering {
   std::vector<int> map;          /* old TEMP index -> new, -1 = unreferenced */
   /* Temporaries packed into other channels: old channel -> new channel
    * (channels the temporary never uses map to any valid channel). */
   std::vector<std::array<uint8_t, 4>> chan_map;
   std::vector<char> remapped;
   int moved = 0;                 /* temporaries whose channels changed */
   std::vector<int> array_delta;  /* by declaration index: new first - old first */
   int plain_regs = 0;            /* merged temporaries occupy 0..plain_regs-1 */
   int total = 0;
};

/* Greedy colouring of intervals taken in order of their start: a register
 * becomes free once the interval holding it ended before the new start.
 * Reusing the lowest free register keeps the numbering dense and stable. */
int colour_intervals(const TempLifetimes &lt, std::vector<int> &map)
{
   std::vector<int> order;
   order.reserve(lt.temps.size());
   for (size_t t = 0; t < lt.temps.size(); t++)
      if (lt.array_of[t] < 0 && lt.slot_begin[t] <= lt.slot_end[t])
         order.push_back(static_cast<int>(t));
   std::sort(order.begin(), order.end(), [&](int a, int b) {
      if (lt.slot_begin[a] != lt.slot_begin[b])
         return lt.slot_begin[a] < lt.slot_begin[b];
      return a < b;
   });

   using Active = std::pair<int, int>; /* (slot_end, register) */
   std::priority_queue<Active, std::vector<Active>, std::greater<Active>> active;
   std::priority_queue<int, std::vector<int>, std::greater<int>> free_regs;
   int next = 0;
   for (int t : order) {
      while (!active.empty() && active.top().first < lt.slot_begin[t]) {
         free_regs.push(active.top().second);
         active.pop();
      }
      int reg;
      if (free_regs.empty()) {
         reg = next++;
      } else {
         reg = free_regs.top();
         free_regs.pop();
      }
      map[t] = reg;
      active.emplace(lt.slot_end[t], reg);
   }
   return next;
}

template <typename Fn> void for_each_temp_ref(Shader &shader, Fn &&fn)
{
   auto index_ref = [&](RegIndex &idx) {
      if (idx.indirect && idx.indirect->file == File::Temporary)
         fn(idx.indirect->index, false, uint16_t(0));
   };
   for (Instruction &inst : shader.instructions) {
      for (SrcOperand &s : inst.src) {
         index_ref(s.index);
         if (s.dimension)
            index_ref(*s.dimension);
         if (s.file == File::Temporary)
            fn(s.index.value, s.index.indirect.has_value(), s.array_id);
      }
      for (DstOperand &d : inst.dst) {
         index_ref(d.index);
         if (d.dimension)
            index_ref(*d.dimension);
         if (d.file == File::Temporary)
            fn(d.index.value, d.index.indirect.has_value(), d.array_id);
      }
      for (TexOffset &o : inst.tex_offsets)
         if (o.file == File::Temporary)
            fn(o.index, false, uint16_t(0));
   }
}

/* Temporaries that use at most three channels and are only written by
 * instructions whose written channels can be moved (component-wise ones, by
 * moving the sources' swizzles along; replicating ones, for free) may go to
 * any free channels of any register. */
std::vector<char> find_movable(const Shader &shader, const TempLifetimes &lt)
{
   const size_t n = lt.temps.size();
   std::vector<char> movable(n, 0);
   for (size_t t = 0; t < n; t++) {
      if (lt.array_of[t] >= 0)
         continue;
      int used = 0;
      for (int c = 0; c < 4; c++)
         used += lt.chan_slot_begin[t][c] <= lt.chan_slot_end[t][c];
      movable[t] = used >= 1 && used <= 3;
   }
   for (const Instruction &inst : shader.instructions) {
      const OutputMode mode = inst.info().mode;
      const bool can_move = inst.dst.size() == 1 &&
                            (mode == OutputMode::Component || mode == OutputMode::Replicate);
      for (const DstOperand &d : inst.dst)
         if (d.file == File::Temporary && !can_move && d.index.value >= 0 &&
             static_cast<size_t>(d.index.value) < n)
            movable[d.index.value] = 0;
   }
   return movable;
}

/* Channels of register `busy` that can take the used channels of a
 * temporary (ranges b..e per channel): its own channels when they are free,
 * else each used channel in turn takes the lowest free channel not yet
 * taken.  Returns false when they do not fit. */
bool fit_channels(const std::array<int, 4> &busy, const std::array<int, 4> &b,
                  const std::array<int, 4> &e, std::array<uint8_t, 4> &to)
{
   bool identity = true;
   for (int c = 0; c < 4; c++)
      if (b[c] <= e[c] && busy[c] >= b[c])
         identity = false;
   if (identity) {
      to = {0, 1, 2, 3};
      return true;
   }
   unsigned taken = 0;
   int first = -1;
   for (int c = 0; c < 4; c++) {
      if (b[c] > e[c])
         continue;
      int pick = -1;
      for (int c2 = 0; c2 < 4 && pick < 0; c2++)
         if (!(taken & (1u << c2)) && busy[c2] < b[c])
            pick = c2;
      if (pick < 0)
         return false;
      taken |= 1u << pick;
      to[c] = static_cast<uint8_t>(pick);
      if (first < 0)
         first = pick;
   }
   for (int c = 0; c < 4; c++)
      if (b[c] > e[c])
         to[c] = static_cast<uint8_t>(first);
   return true;
}

/* First fit over registers with per-channel occupancy, temporaries taken in
 * order of their start.  A channel can take a new range when everything
 * placed in it so far ended before the range begins.  Movable temporaries
 * keep their own channels when those are free, so most swizzles stay.
 * O(temporaries x registers): registers are bounded by what is live at once. */
int pack_channels(const Shader &shader, const TempLifetimes &lt, Renumbering &r)
{
   const std::vector<char> movable = find_movable(shader, lt);
   std::vector<int> order;
   for (size_t t = 0; t < lt.temps.size(); t++)
      if (lt.array_of[t] < 0 && lt.slot_begin[t] <= lt.slot_end[t])
         order.push_back(static_cast<int>(t));
   std::sort(order.begin(), order.end(), [&](int a, int b) {
      if (lt.slot_begin[a] != lt.slot_begin[b])
         return lt.slot_begin[a] < lt.slot_begin[b];
      return a < b;
   });

   std::vector<std::array<int, 4>> busy_until; /* per register and channel */
   for (int t : order) {
      const auto &b = lt.chan_slot_begin[t];
      const auto &e = lt.chan_slot_end[t];
      std::array<uint8_t, 4> to = {0, 1, 2, 3};
      int reg = -1;
      for (size_t k = 0; k < busy_until.size() && reg < 0; k++) {
         if (movable[t]) {
            if (fit_channels(busy_until[k], b, e, to))
               reg = static_cast<int>(k);
         } else {
            bool fits = true;
            for (int c = 0; c < 4 && fits; c++)
               fits = b[c] > e[c] || busy_until[k][c] < b[c];
            if (fits)
               reg = static_cast<int>(k);
         }
      }
      if (reg < 0) {
         reg = static_cast<int>(busy_until.size());
         busy_until.push_back({INT_MIN, INT_MIN, INT_MIN, INT_MIN});
         to = {0, 1, 2, 3};
      }
      bool changed = false;
      for (int c = 0; c < 4; c++) {
         if (b[c] > e[c])
            continue;
         busy_until[reg][to[c]] = std::max(busy_until[reg][to[c]], e[c]);
         changed |= to[c] != c;
      }
      if (changed) {
         r.chan_map[t] = to;
         r.remapped[t] = 1;
         r.moved++;
      }
      r.map[t] = reg;
   }
   return static_cast<int>(busy_until.size());
}

/* Rewrites one instruction's channels for the packed temporaries.  A
 * component-wise op computes destination channel c from swizzle position c
 * of every source, so moving its written channels moves those swizzle
 * entries along; a replicating op only needs the new write mask.  Reads of
 * a moved temporary select the new channels. */
void move_channels(Instruction &inst, const Renumbering &r)
{
   auto map_of = [&](File f, int32_t index, bool indirect) -> const std::array<uint8_t, 4> * {
      if (f != File::Temporary || indirect || index < 0 ||
          static_cast<size_t>(index) >= r.remapped.size() || !r.remapped[index])
         return nullptr;
      return &r.chan_map[index];
   };
   if (inst.dst.size() == 1) {
      DstOperand &d = inst.dst[0];
      if (const auto *m = map_of(d.file, d.index.value, d.index.indirect.has_value())) {
         uint8_t mask = 0;
         for (int c = 0; c < 4; c++)
            if (d.write_mask & (1u << c))
               mask |= static_cast<uint8_t>(1u << (*m)[c]);
         if (inst.info().mode == OutputMode::Component) {
            for (SrcOperand &s : inst.src) {
               const std::array<uint8_t, 4> old = s.swizzle;
               for (int c = 0; c < 4; c++)
                  if (d.write_mask & (1u << c))
                     s.swizzle[(*m)[c]] = old[c];
            }
         }
         d.write_mask = mask;
      }
   }
   auto move_ref = [&](RegIndex &idx) {
      if (idx.indirect && idx.indirect->file == File::Temporary)
         if (const auto *m = map_of(File::Temporary, idx.indirect->index, false))
            idx.indirect->swizzle = (*m)[idx.indirect->swizzle & 3];
   };
   for (SrcOperand &s : inst.src) {
      move_ref(s.index);
      if (s.dimension)
         move_ref(*s.dimension);
      if (const auto *m = map_of(s.file, s.index.value, s.index.indirect.has_value()))
         for (uint8_t &sw : s.swizzle)
            sw = (*m)[sw & 3];
   }
   for (DstOperand &d : inst.dst) {
      move_ref(d.index);
      if (d.dimension)
         move_ref(*d.dimension);
   }
   for (TexOffset &o : inst.tex_offsets)
      if (const auto *m = map_of(o.file, o.index, false))
         for (uint8_t &sw : o.swizzle)
            sw = (*m)[sw & 3];
}

/* Gives each independent value of a temporary its own index before
 * colouring.  A write at the top level of the program (no IF or loop
 * around it) that covers every channel the temporary ever uses is on every
 * path to everything after it and kills every older value, so from there on
 * the temporary can be renamed to a fresh index: its earlier values and its
 * later ones then get separate, shorter ranges.  The writing instruction's
 * own sources still read the old value.  Temporaries whose registers other
 * lanes read (derivatives, implicit LODs) are not split: a killed lane skips
 * the renaming write and its register would no longer hold the old value
 * its neighbours see.  Returns the number of fresh temporaries. */
int split_webs(Shader &shader, const TempLifetimes &lt)
{
   const size_t n = lt.temps.size();
   std::vector<uint8_t> used(n, 0);
   std::vector<char> no_split(n, 0);
   for (size_t t = 0; t < n; t++) {
      for (int c = 0; c < 4; c++)
         if (!lt.channels[t][c].unused)
            used[t] |= static_cast<uint8_t>(1u << c);
      no_split[t] = lt.array_of[t] >= 0 || used[t] == 0;
   }
   for (const Instruction &inst : shader.instructions)
      if (reads_quad_neighbours(inst.opcode))
         for (const SrcOperand &src : inst.src)
            if (src.file == File::Temporary && !src.index.indirect && src.index.value >= 0 &&
                static_cast<size_t>(src.index.value) < n)
               no_split[src.index.value] = 1;

   std::vector<int> name(n);
   std::vector<char> seen(n, 0);
   for (size_t t = 0; t < n; t++)
      name[t] = static_cast<int>(t);
   int fresh = static_cast<int>(n);
   auto rename = [&](int32_t &index) {
      if (index >= 0 && static_cast<size_t>(index) < n) {
         seen[index] = 1;
         index = name[index];
      }
   };
   int depth = 0;
   for (Instruction &inst : shader.instructions) {
      for (SrcOperand &src : inst.src) {
         if (src.index.indirect && src.index.indirect->file == File::Temporary)
            rename(src.index.indirect->index);
         if (src.dimension && src.dimension->indirect &&
             src.dimension->indirect->file == File::Temporary)
            rename(src.dimension->indirect->index);
         if (src.file == File::Temporary && !src.index.indirect)
            rename(src.index.value);
      }
      for (TexOffset &o : inst.tex_offsets)
         if (o.file == File::Temporary)
            rename(o.index);
      for (DstOperand &d : inst.dst) {
         if (d.index.indirect && d.index.indirect->file == File::Temporary)
            rename(d.index.indirect->index);
         if (d.dimension && d.dimension->indirect &&
             d.dimension->indirect->file == File::Temporary)
            rename(d.dimension->indirect->index);
      }
      if (inst.dst.size() == 1) {
         DstOperand &d = inst.dst[0];
         if (d.file == File::Temporary && !d.index.indirect && d.index.value >= 0 &&
             static_cast<size_t>(d.index.value) < n) {
            const int32_t t = d.index.value;
            if (depth == 0 && !no_split[t] && seen[t] && (d.write_mask & used[t]) == used[t])
               name[t] = fresh++;
            rename(d.index.value);
         }
      } else {
         for (DstOperand &d : inst.dst)
            if (d.file == File::Temporary && !d.index.indirect)
               rename(d.index.value);
      }
      switch (inst.opcode) {
      case Opcode::IF:
      case Opcode::UIF:
      case Opcode::BGNLOOP: depth++; break;
      case Opcode::ENDIF:
      case Opcode::ENDLOOP: depth--; break;
      default: break;
      }
   }
   return fresh - static_cast<int>(n);
}

/* ARRAY declarations must not overlap each other for their blocks to be
 * moved independently. */
bool arrays_disjoint(const Shader &shader)
{
   std::vector<std::pair<int32_t, int32_t>> ranges;
   for (const Declaration &d : shader.declarations)
      if (d.file == File::Temporary && d.array_id != 0)
         ranges.emplace_back(d.first, d.last);
   std::sort(ranges.begin(), ranges.end());
   for (size_t k = 1; k < ranges.size(); k++)
      if (ranges[k].first <= ranges[k - 1].second)
         return false;
   return true;
}

Renumbering plan(const Shader &shader, const TempLifetimes &lt, bool pack)
{
   Renumbering r;
   r.map.assign(lt.temps.size(), -1);
   r.chan_map.assign(lt.temps.size(), {0, 1, 2, 3});
   r.remapped.assign(lt.temps.size(), 0);
   r.plain_regs = pack ? pack_channels(shader, lt, r) : colour_intervals(lt, r.map);

   r.total = r.plain_regs;
   r.array_delta.assign(shader.declarations.size(), 0);
   for (size_t k = 0; k < shader.declarations.size(); k++) {
      const Declaration &d = shader.declarations[k];
      if (d.file != File::Temporary || d.array_id == 0)
         continue;
      r.array_delta[k] = r.total - d.first;
      r.total += d.last - d.first + 1;
   }
   for (size_t t = 0; t < lt.temps.size(); t++)
      if (lt.array_of[t] >= 0)
         r.map[t] = static_cast<int>(t) + r.array_delta[lt.array_of[t]];
   return r;
}

} // namespace

bool merge_temps(Shader &shader, Diagnostics *diags, MergeStats *stats,
                 const MergeOptions &options)
{
   Diagnostics local;
   std::optional<TempLifetimes> lt = compute_temp_lifetimes(shader, diags ? *diags : local);
   if (!lt)
      return false;

   MergeStats st;
   st.temps_before = static_cast<int>(lt->temps.size());
   st.temps_after = st.temps_before;
   if (lt->unknown_indirect || !arrays_disjoint(shader)) {
      st.skipped = lt->unknown_indirect ? "indirect" : "overlapping arrays";
      if (stats)
         *stats = st;
      return true;
   }

   Renumbering r = plan(shader, *lt, options.pack_channels);
   /* Splitting usually shortens ranges, but first fit is a heuristic and
    * sometimes does better on the unsplit shader: plan both, keep the
    * smaller.  The split is done on a copy, also because its fresh indices
    * may exceed what the analysis accepts. */
   if (options.split_webs) {
      Shader split = shader;
      Diagnostics ignored;
      if (split_webs(split, *lt) > 0) {
         if (auto lt2 = compute_temp_lifetimes(split, ignored); lt2 && !lt2->unknown_indirect) {
            Renumbering r2 = plan(split, *lt2, options.pack_channels);
            if (r2.total < r.total) {
               shader = std::move(split);
               lt = std::move(lt2);
               r = std::move(r2);
               st.webs_split = true;
            }
         }
      }
   }
   if (r.moved > 0)
      for (Instruction &inst : shader.instructions)
         move_channels(inst, r);

   /* Referenced temporaries without a range (empty masks) get one shared
    * register after the merged ones: they neither define nor use a value. */
   bool need_dummy = false;
   for_each_temp_ref(shader, [&](int32_t index, bool indirect, uint16_t) {
      if (!indirect && index >= 0 && static_cast<size_t>(index) < r.map.size() &&
          r.map[index] < 0)
         need_dummy = true;
   });
   if (need_dummy) {
      for (size_t t = 0; t < r.map.size(); t++)
         if (r.map[t] >= r.plain_regs)
            r.map[t]++;
      for (int &delta : r.array_delta)
         delta++;
      const int dummy = r.plain_regs++;
      r.total++;
      for (size_t t = 0; t < r.map.size(); t++)
         if (r.map[t] < 0)
            r.map[t] = dummy;
   }

   /* Arrays are found by their id for indirect access, by index otherwise. */
   auto array_delta_for = [&](uint16_t array_id) {
      for (size_t k = 0; k < shader.declarations.size(); k++) {
         const Declaration &d = shader.declarations[k];
         if (d.file == File::Temporary && d.array_id == array_id)
            return r.array_delta[k];
      }
      return 0;
   };
   for_each_temp_ref(shader, [&](int32_t &index, bool indirect, uint16_t array_id) {
      if (indirect)
         index += array_delta_for(array_id);
      else if (index >= 0 && static_cast<size_t>(index) < r.map.size())
         index = r.map[index];
   });

   /* The merged block replaces the first TEMP declaration; arrays follow in
    * their original order. */
   std::vector<Declaration> decls;
   decls.reserve(shader.declarations.size() + 1);
   bool emitted = false;
   auto emit_temps = [&](SourceLoc loc) {
      emitted = true;
      if (r.plain_regs > 0) {
         Declaration d;
         d.file = File::Temporary;
         d.first = 0;
         d.last = r.plain_regs - 1;
         d.loc = loc;
         decls.push_back(d);
      }
      for (size_t k = 0; k < shader.declarations.size(); k++) {
         Declaration d = shader.declarations[k];
         if (d.file != File::Temporary || d.array_id == 0)
            continue;
         d.first += r.array_delta[k];
         d.last += r.array_delta[k];
         decls.push_back(d);
      }
   };
   for (const Declaration &d : shader.declarations) {
      if (d.file != File::Temporary) {
         decls.push_back(d);
         continue;
      }
      if (!emitted)
         emit_temps(d.loc);
   }
   if (!emitted)
      emit_temps(SourceLoc());
   shader.declarations = std::move(decls);

   st.temps_after = r.total;
   st.channels_moved = r.moved;
   st.changed = r.moved > 0 || st.webs_split;
   for (size_t t = 0; t < r.map.size() && !st.changed; t++)
      if (r.map[t] >= 0 && r.map[t] != static_cast<int>(t))
         st.changed = true;
   st.changed = st.changed || st.temps_after != st.temps_before;
   if (stats)
      *stats = st;
   return true;
}

bool merge_temps(Shader &shader, const DebugOptions &debug, Diagnostics *diags,
                 MergeStats *stats)
{
   if (!debug.merge_temps) {
      if (stats) {
         MergeStats st;
         st.temps_before = st.temps_after = shader.file_size(File::Temporary);
         st.skipped = "disabled";
         *stats = st;
      }
      return true;
   }
   return merge_temps(shader, diags, stats);
}

} // namespace sbcc::tgsi
