/*
 * Test targets for the allocator, each built twice: once through the RegSet
 * API (the way a backend would) and once as an independent model in which a
 * register is a set of hardware "units" (bytes, channels) and two registers
 * conflict exactly when their unit sets intersect.  The validator checks
 * allocations against the model only, so it does not trust RegSet.
 */
#pragma once

#include <bit>
#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ra/ra.h"

namespace ra_test {

using Units = std::bitset<512>;

struct Model {
   std::vector<Units> units;                 /* per register */
   std::vector<std::string> class_names;
   std::vector<std::vector<unsigned>> classes;

   bool conflicts(unsigned a, unsigned b) const { return (units[a] & units[b]).any(); }
   bool in_class(unsigned cls, unsigned reg) const
   {
      for (unsigned r : classes[cls])
         if (r == reg)
            return true;
      return false;
   }
};

struct Target {
   Model model;
   std::unique_ptr<sbcc::ra::RegSet> regs;
};

/* Adds the model's classes to regs (same order, same member order). */
inline void
add_model_classes(const Model &m, sbcc::ra::RegSet &regs)
{
   for (size_t c = 0; c < m.classes.size(); c++) {
      unsigned cls = regs.add_class(m.class_names[c]);
      for (unsigned r : m.classes[c])
         regs.add_reg_to_class(cls, r);
   }
}

/* k independent registers in one class. */
inline Target
make_flat(unsigned k)
{
   Target t;
   t.model.units.resize(k);
   t.model.class_names = {"all"};
   t.model.classes.resize(1);
   for (unsigned r = 0; r < k; r++) {
      t.model.units[r].set(r);
      t.model.classes[0].push_back(r);
   }
   t.regs = std::make_unique<sbcc::ra::RegSet>(k);
   add_model_classes(t.model, *t.regs);
   t.regs->finalize();
   return t;
}

/* vc4: accumulators r0-r4 (0-4), regfile A (5-36), regfile B (37-68); no
 * aliasing.  r4 is only written by special units, so "any" leaves it out. */
enum Vc4Class { kVc4Any, kVc4AOrR4, kVc4AOnly, kVc4AnyThreaded, kVc4AOnlyThreaded };
constexpr unsigned kVc4Acc = 0, kVc4A = 5, kVc4B = 37, kVc4NumRegs = 69;

inline Target
make_vc4(sbcc::Diagnostics *diags = nullptr)
{
   Target t;
   t.model.units.resize(kVc4NumRegs);
   for (unsigned r = 0; r < kVc4NumRegs; r++)
      t.model.units[r].set(r);
   auto range = [](unsigned first, unsigned n) {
      std::vector<unsigned> v;
      for (unsigned i = 0; i < n; i++)
         v.push_back(first + i);
      return v;
   };
   auto cat = [](std::vector<unsigned> a, const std::vector<unsigned> &b) {
      a.insert(a.end(), b.begin(), b.end());
      return a;
   };
   t.model.class_names = {"any", "a_or_r4", "a_only", "any_threaded", "a_only_threaded"};
   t.model.classes = {
      cat(cat(range(kVc4Acc, 4), range(kVc4A, 32)), range(kVc4B, 32)),
      cat(range(kVc4Acc + 4, 1), range(kVc4A, 32)),
      range(kVc4A, 32),
      cat(cat(range(kVc4Acc, 4), range(kVc4A, 16)), range(kVc4B, 16)),
      range(kVc4A, 16),
   };
   t.regs = std::make_unique<sbcc::ra::RegSet>(kVc4NumRegs, diags);
   for (unsigned i = 0; i < 5; i++)
      t.regs->set_reg_name(kVc4Acc + i, "r" + std::to_string(i));
   for (unsigned i = 0; i < 32; i++) {
      t.regs->set_reg_name(kVc4A + i, "ra" + std::to_string(i));
      t.regs->set_reg_name(kVc4B + i, "rb" + std::to_string(i));
   }
   /* Built with the contiguous-range helper, as a backend would. */
   sbcc::ra::RegSet &rs = *t.regs;
   unsigned any = rs.add_class("any");
   rs.add_range_to_class(any, kVc4Acc, 4);
   rs.add_range_to_class(any, kVc4A, 32);
   rs.add_range_to_class(any, kVc4B, 32);
   unsigned a_or_r4 = rs.add_class("a_or_r4");
   rs.add_reg_to_class(a_or_r4, kVc4Acc + 4);
   rs.add_range_to_class(a_or_r4, kVc4A, 32);
   unsigned a_only = rs.add_class("a_only");
   rs.add_range_to_class(a_only, kVc4A, 32);
   unsigned any_t = rs.add_class("any_threaded");
   rs.add_range_to_class(any_t, kVc4Acc, 4);
   rs.add_range_to_class(any_t, kVc4A, 16);
   rs.add_range_to_class(any_t, kVc4B, 16);
   unsigned a_only_t = rs.add_class("a_only_threaded");
   rs.add_range_to_class(a_only_t, kVc4A, 16);
   rs.finalize();
   return t;
}

/* r300-like: num_temps vec4 temporaries; register t*15 + (mask - 1) is temp
 * t written with channel mask 1..15 (x = 1, y = 2, z = 4, w = 8). */
enum R300Class { kR300Single, kR300Vec2, kR300Vec3, kR300Vec4 };

inline unsigned
r300_reg(unsigned temp, unsigned mask)
{
   return temp * 15 + (mask - 1);
}

inline Target
make_r300(unsigned num_temps, sbcc::Diagnostics *diags = nullptr)
{
   Target t;
   const unsigned n = num_temps * 15;
   t.model.units.resize(n);
   t.model.class_names = {"single", "vec2", "vec3", "vec4"};
   t.model.classes.resize(4);
   for (unsigned tmp = 0; tmp < num_temps; tmp++) {
      for (unsigned mask = 1; mask < 16; mask++) {
         unsigned r = r300_reg(tmp, mask);
         for (unsigned c = 0; c < 4; c++)
            if (mask & (1u << c))
               t.model.units[r].set(tmp * 4 + c);
         t.model.classes[std::popcount(mask) - 1].push_back(r);
      }
   }
   t.regs = std::make_unique<sbcc::ra::RegSet>(n, diags);
   sbcc::ra::RegSet &rs = *t.regs;
   /* Composites conflict through the single-channel units they cover. */
   for (unsigned tmp = 0; tmp < num_temps; tmp++) {
      for (unsigned mask = 1; mask < 16; mask++) {
         if (std::popcount(mask) < 2)
            continue;
         std::vector<unsigned> units;
         for (unsigned c = 0; c < 4; c++)
            if (mask & (1u << c))
               units.push_back(r300_reg(tmp, 1u << c));
         rs.add_composite(r300_reg(tmp, mask), units);
      }
   }
   add_model_classes(t.model, rs);
   rs.finalize();
   return t;
}

/* x86-like: eax/ax/al/ah for a..d (4 registers each, 0-15), then esi/si and
 * edi/di (16-19).  Units: per a..d low byte, high byte, upper half; per
 * si/di low half, upper half. */
enum X86Class { kX86R32, kX86R16, kX86R8 };
constexpr unsigned kX86NumRegs = 20;

inline unsigned x86_e(unsigned i) { return i < 4 ? i * 4 : 16 + (i - 4) * 2; }
inline unsigned x86_x(unsigned i) { return i < 4 ? i * 4 + 1 : 17 + (i - 4) * 2; }
inline unsigned x86_l(unsigned i) { return i * 4 + 2; }
inline unsigned x86_h(unsigned i) { return i * 4 + 3; }

inline Target
make_x86(sbcc::Diagnostics *diags = nullptr)
{
   Target t;
   t.model.units.resize(kX86NumRegs);
   t.model.class_names = {"r32", "r16", "r8"};
   t.model.classes.resize(3);
   t.regs = std::make_unique<sbcc::ra::RegSet>(kX86NumRegs, diags);
   sbcc::ra::RegSet &rs = *t.regs;
   const char *names[] = {"a", "b", "c", "d", "si", "di"};
   for (unsigned i = 0; i < 6; i++) {
      std::string nm = names[i];
      unsigned u = i * 3;
      if (i < 4) {
         t.model.units[x86_l(i)].set(u);
         t.model.units[x86_h(i)].set(u + 1);
         t.model.units[x86_x(i)].set(u).set(u + 1);
         t.model.units[x86_e(i)].set(u).set(u + 1).set(u + 2);
         rs.set_reg_name(x86_e(i), "e" + nm + "x");
         rs.set_reg_name(x86_x(i), nm + "x");
         rs.set_reg_name(x86_l(i), nm + "l");
         rs.set_reg_name(x86_h(i), nm + "h");
         /* Byte registers touch ax and eax; making their conflicts
          * transitive then makes ax and eax conflict too. */
         for (unsigned byte : {x86_l(i), x86_h(i)}) {
            rs.add_conflict(byte, x86_x(i));
            rs.add_conflict(byte, x86_e(i));
            rs.make_conflicts_transitive(byte);
         }
         t.model.classes[kX86R8].push_back(x86_l(i));
         t.model.classes[kX86R8].push_back(x86_h(i));
      } else {
         t.model.units[x86_x(i)].set(u);
         t.model.units[x86_e(i)].set(u).set(u + 1);
         rs.set_reg_name(x86_e(i), "e" + nm);
         rs.set_reg_name(x86_x(i), nm);
         rs.add_conflict(x86_x(i), x86_e(i));
      }
      t.model.classes[kX86R32].push_back(x86_e(i));
      t.model.classes[kX86R16].push_back(x86_x(i));
   }
   add_model_classes(t.model, rs);
   rs.finalize();
   return t;
}

/* A graph as the tests know it, independent of InterferenceGraph. */
struct GraphSpec {
   std::vector<unsigned> cls;
   std::vector<std::pair<unsigned, unsigned>> edges;
   std::vector<unsigned> precolour; /* kNoReg = free */
   std::vector<float> cost;
};

inline std::unique_ptr<sbcc::ra::InterferenceGraph>
make_graph(const sbcc::ra::RegSet &regs, const GraphSpec &g)
{
   auto ig = std::make_unique<sbcc::ra::InterferenceGraph>(regs, unsigned(g.cls.size()));
   for (unsigned n = 0; n < g.cls.size(); n++) {
      ig->set_node_class(n, g.cls[n]);
      if (n < g.precolour.size() && g.precolour[n] != sbcc::ra::kNoReg)
         ig->set_node_reg(n, g.precolour[n]);
      if (n < g.cost.size())
         ig->set_spill_cost(n, g.cost[n]);
   }
   for (auto [a, b] : g.edges)
      ig->add_interference(a, b);
   return ig;
}

/* Empty string when regs (one per node) is a valid colouring of g under
 * model; otherwise what is wrong. */
inline std::string
validate(const Model &model, const GraphSpec &g, const std::vector<unsigned> &regs)
{
   for (unsigned n = 0; n < g.cls.size(); n++) {
      bool pre = n < g.precolour.size() && g.precolour[n] != sbcc::ra::kNoReg;
      if (pre) {
         if (regs[n] != g.precolour[n])
            return "node " + std::to_string(n) + " lost its precolour";
         continue;
      }
      if (regs[n] >= model.units.size())
         return "node " + std::to_string(n) + " has no register";
      if (!model.in_class(g.cls[n], regs[n]))
         return "node " + std::to_string(n) + " got register " + std::to_string(regs[n]) +
                " outside its class";
   }
   for (auto [a, b] : g.edges) {
      if (a != b && model.conflicts(regs[a], regs[b]))
         return "interfering nodes " + std::to_string(a) + " and " + std::to_string(b) +
                " got conflicting registers " + std::to_string(regs[a]) + " and " +
                std::to_string(regs[b]);
   }
   return {};
}

/* Exhaustive search for any valid colouring (tiny graphs only). */
inline bool
brute_force_colourable(const Model &model, const GraphSpec &g)
{
   const unsigned n = unsigned(g.cls.size());
   std::vector<unsigned> regs(n, sbcc::ra::kNoReg);
   std::vector<std::vector<unsigned>> nbrs(n);
   for (auto [a, b] : g.edges) {
      if (a == b)
         continue;
      nbrs[a].push_back(b);
      nbrs[b].push_back(a);
   }
   for (unsigned i = 0; i < n; i++)
      if (i < g.precolour.size() && g.precolour[i] != sbcc::ra::kNoReg)
         regs[i] = g.precolour[i];
   auto rec = [&](auto &self, unsigned i) -> bool {
      if (i == n)
         return validate(model, g, regs).empty();
      if (i < g.precolour.size() && g.precolour[i] != sbcc::ra::kNoReg)
         return self(self, i + 1);
      for (unsigned r : model.classes[g.cls[i]]) {
         bool ok = true;
         for (unsigned m : nbrs[i])
            if (regs[m] != sbcc::ra::kNoReg && model.conflicts(r, regs[m]))
               ok = false;
         if (!ok)
            continue;
         regs[i] = r;
         if (self(self, i + 1))
            return true;
         regs[i] = sbcc::ra::kNoReg;
      }
      return false;
   };
   return rec(rec, 0);
}

} // namespace ra_test
