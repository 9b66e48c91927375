/*
 * RegSet: the target description and its precomputed p/q tables.
 */
#include "ra/ra.h"

#include <bit>

namespace sbcc::ra {

unsigned
BitSet::count() const
{
   unsigned n = 0;
   for (uint64_t w : words_)
      n += unsigned(std::popcount(w));
   return n;
}

RegSet::RegSet(unsigned num_regs, Diagnostics *diags)
   : num_regs_(num_regs), diags_(diags)
{
   if (num_regs_ > kMaxRegs) {
      error("register set of " + std::to_string(num_regs) + " registers exceeds the limit of " +
            std::to_string(kMaxRegs));
      num_regs_ = 0;
   }
   row_words_ = (num_regs_ + 63) / 64;
   conflicts_.assign(size_t(num_regs_) * row_words_, 0);
   names_.resize(num_regs_);
   for (unsigned r = 0; r < num_regs_; r++)
      row(r)[r / 64] |= uint64_t(1) << (r % 64);
}

void
RegSet::error(std::string msg) const
{
   if (diags_)
      diags_->error("ra", {}, std::move(msg));
}

bool
RegSet::check_reg(unsigned reg, const char *what) const
{
   if (reg < num_regs_)
      return true;
   error(std::string(what) + ": register " + std::to_string(reg) + " out of range (" +
         std::to_string(num_regs_) + " registers)");
   return false;
}

bool
RegSet::check_class(unsigned cls, const char *what) const
{
   if (cls < classes_.size())
      return true;
   error(std::string(what) + ": class " + std::to_string(cls) + " out of range (" +
         std::to_string(classes_.size()) + " classes)");
   return false;
}

bool
RegSet::check_mutable(const char *what) const
{
   if (!finalized_)
      return true;
   error(std::string(what) + ": register set is already finalized");
   return false;
}

bool
RegSet::set_reg_name(unsigned reg, std::string_view name)
{
   if (!check_reg(reg, "set_reg_name"))
      return false;
   names_[reg] = std::string(name);
   return true;
}

std::string
RegSet::reg_name(unsigned reg) const
{
   if (reg >= num_regs_)
      return "<invalid reg " + std::to_string(reg) + ">";
   if (!names_[reg].empty())
      return names_[reg];
   return "r" + std::to_string(reg);
}

bool
RegSet::add_conflict(unsigned a, unsigned b)
{
   if (!check_mutable("add_conflict") || !check_reg(a, "add_conflict") ||
       !check_reg(b, "add_conflict"))
      return false;
   row(a)[b / 64] |= uint64_t(1) << (b % 64);
   row(b)[a / 64] |= uint64_t(1) << (a % 64);
   return true;
}

bool
RegSet::conflicts(unsigned a, unsigned b) const
{
   if (a >= num_regs_ || b >= num_regs_)
      return false;
   return (conflict_row(a)[b / 64] >> (b % 64)) & 1;
}

bool
RegSet::add_transitive_conflict(unsigned base, unsigned reg)
{
   if (!check_mutable("add_transitive_conflict") ||
       !check_reg(base, "add_transitive_conflict") || !check_reg(reg, "add_transitive_conflict"))
      return false;
   /* Snapshot base's row first: adding reg to its own conflicts below must
    * not be confused with base's previous ones. */
   std::vector<uint64_t> base_row(row(base), row(base) + row_words_);
   for (size_t w = 0; w < row_words_; w++) {
      uint64_t bits = base_row[w];
      while (bits) {
         unsigned c = unsigned(w * 64 + std::countr_zero(bits));
         bits &= bits - 1;
         add_conflict(reg, c);
      }
   }
   return true;
}

bool
RegSet::add_composite(unsigned composite, std::span<const unsigned> units)
{
   bool ok = true;
   for (unsigned u : units)
      ok &= add_transitive_conflict(u, composite);
   return ok;
}

bool
RegSet::make_conflicts_transitive(unsigned reg)
{
   if (!check_mutable("make_conflicts_transitive") ||
       !check_reg(reg, "make_conflicts_transitive"))
      return false;
   std::vector<uint64_t> reg_row(row(reg), row(reg) + row_words_);
   for (size_t w = 0; w < row_words_; w++) {
      uint64_t bits = reg_row[w];
      while (bits) {
         unsigned c = unsigned(w * 64 + std::countr_zero(bits));
         bits &= bits - 1;
         /* c gains all of reg's conflicts; keep the matrix symmetric by
          * doing it bit by bit through add_conflict's mirror. */
         for (size_t v = 0; v < row_words_; v++) {
            uint64_t add = reg_row[v] & ~row(c)[v];
            while (add) {
               unsigned d = unsigned(v * 64 + std::countr_zero(add));
               add &= add - 1;
               add_conflict(c, d);
            }
         }
      }
   }
   return true;
}

unsigned
RegSet::add_class(std::string_view name)
{
   if (!check_mutable("add_class"))
      return kNoReg;
   if (classes_.size() >= kMaxClasses) {
      error("add_class: more than " + std::to_string(kMaxClasses) + " classes");
      return kNoReg;
   }
   RegClass c;
   c.name = name.empty() ? "class" + std::to_string(classes_.size()) : std::string(name);
   c.members = BitSet(num_regs_);
   classes_.push_back(std::move(c));
   return unsigned(classes_.size() - 1);
}

bool
RegSet::add_reg_to_class(unsigned cls, unsigned reg)
{
   if (!check_mutable("add_reg_to_class") || !check_class(cls, "add_reg_to_class") ||
       !check_reg(reg, "add_reg_to_class"))
      return false;
   RegClass &c = classes_[cls];
   if (!c.members.test(reg)) {
      c.members.set(reg);
      c.regs.push_back(reg);
   }
   return true;
}

bool
RegSet::add_range_to_class(unsigned cls, unsigned first, unsigned count, unsigned stride)
{
   if (!check_mutable("add_range_to_class") || !check_class(cls, "add_range_to_class"))
      return false;
   if (count == 0)
      return true;
   uint64_t last = uint64_t(first) + uint64_t(count - 1) * stride;
   if (stride == 0 || last >= num_regs_) {
      error("add_range_to_class: range " + std::to_string(first) + " + " +
            std::to_string(count) + " x " + std::to_string(stride) + " does not fit in " +
            std::to_string(num_regs_) + " registers");
      return false;
   }
   for (unsigned i = 0; i < count; i++)
      add_reg_to_class(cls, first + i * stride);
   return true;
}

bool
RegSet::class_contains(unsigned cls, unsigned reg) const
{
   return cls < classes_.size() && reg < num_regs_ && classes_[cls].members.test(reg);
}

bool
RegSet::finalize()
{
   if (finalized_)
      return true;
   bool ok = true;
   for (const RegClass &c : classes_) {
      if (c.regs.empty()) {
         error("finalize: class '" + c.name + "' has no registers");
         ok = false;
      }
   }
   if (!ok)
      return false;

   const size_t nc = classes_.size();
   /* The exact per-register counts are kept: the allocator uses them for
    * precoloured neighbours, whose register is known, instead of the
    * worst case q. */
   reg_class_conflicts_.assign(size_t(num_regs_) * nc, 0);
   for (unsigned r = 0; r < num_regs_; r++) {
      const uint64_t *rw = conflict_row(r).data();
      for (size_t b = 0; b < nc; b++) {
         std::span<const uint64_t> mw = classes_[b].members.words();
         unsigned n = 0;
         for (size_t w = 0; w < row_words_; w++)
            n += unsigned(std::popcount(rw[w] & mw[w]));
         reg_class_conflicts_[size_t(r) * nc + b] = n;
      }
   }
   q_.assign(nc * nc, 0);
   for (size_t b = 0; b < nc; b++) {
      for (size_t c = 0; c < nc; c++) {
         unsigned max = 0;
         for (unsigned r : classes_[c].regs)
            max = std::max(max, reg_class_conflicts_[size_t(r) * nc + b]);
         q_[b * nc + c] = max;
      }
   }
   finalized_ = true;
   return true;
}

} // namespace sbcc::ra
