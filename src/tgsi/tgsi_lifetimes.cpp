/*
 * Live ranges of TGSI temporaries: a single forward pass with a stack of the
 * active scopes.  See docs/tgsi-lifetimes.md for the rules and why they are
 * safe; the comments here say how the state machine implements them.
 *
 * State per (temporary, channel) is a fixed-size record.  Dominance ("every
 * path to this point has written the channel since scope X was entered") is
 * a bit mask indexed by scope depth, so closing a scope only has to clear one
 * bit in the records written inside it; those records are found on a trail
 * (an undo log) instead of by scanning every record, which keeps the pass
 * linear in the number of accesses however many temporaries are declared.
 */
#include "tgsi/tgsi_lifetimes.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <string>

namespace sbcc::tgsi {

namespace {

/* More temporaries than any real shader declares; guards the per-temporary
 * vectors against absurd indices in hostile input. */
constexpr int32_t kMaxTemps = 1 << 16;
/* Scope depths are bits of a uint64_t; deeper nesting falls back to
 * whole-program ranges (still correct, just no merging). */
constexpr int kMaxDepth = 63;

enum class ScopeKind : uint8_t { Outer, If, Else, Loop };

struct Scope {
   ScopeKind kind = ScopeKind::Outer;
   int depth = 0;
   int opener = -1;         /* instruction index of IF/ELSE/BGNLOOP */
   int begin_slot = -1;
   int end_slot = -1;       /* set when closed */
   size_t trail_mark = 0;   /* trail size when entered */
   size_t if_mark = 0;      /* ELSE only: trail mark of its IF part */
};

struct ChannelState {
   int lo = INT_MAX;
   int hi = -1;
   /* Outermost loop whose whole range this channel needs; its end is only
    * known when it closes, so it is folded into hi lazily. */
   int pending_loop = -1;
   /* Bit d: a write at the top level of the active scope at depth d
    * dominates the current point. */
   uint64_t written = 0;
   /* Bit d: the IF part of the IF/ELSE at depth d wrote the channel at its
    * top level (so a top-level write in the ELSE part dominates the ENDIF). */
   uint64_t if_written = 0;
};

uint8_t texture_coord_mask(TextureTarget t)
{
   switch (t) {
   case TextureTarget::Buffer:
   case TextureTarget::Tex1D: return 0x1;
   case TextureTarget::Tex2D:
   case TextureTarget::Rect:
   case TextureTarget::Array1D: return 0x3;
   case TextureTarget::Tex3D:
   case TextureTarget::Cube:
   case TextureTarget::Array2D: return 0x7;
   case TextureTarget::Shadow1D: return 0x5; /* x, reference in z */
   case TextureTarget::Shadow2D:
   case TextureTarget::ShadowRect:
   case TextureTarget::ShadowArray1D: return 0x7;
   default: return 0xf;
   }
}

uint8_t texture_usage_mask(const Instruction &inst, unsigned src_index)
{
   const uint8_t coords = texture_coord_mask(inst.tex_target);
   switch (inst.opcode) {
   case Opcode::TEX:
   case Opcode::TEX_LZ:
   case Opcode::TXD:
      return src_index == 0 ? coords : 0xf;
   case Opcode::TXP:
   case Opcode::TXB:
   case Opcode::TXL:
      return src_index == 0 ? coords | 0x8 : 0xf;
   /* Texel fetches pass x, y and z on whatever the target, and the texture
    * model range-checks all three (a 2D texture has depth 1). */
   case Opcode::TXF:
   case Opcode::TXF_LZ:
      return 0xf;
   case Opcode::TXQ:
      return src_index == 0 ? 0x1 : 0xf;
   case Opcode::TEX2:
   case Opcode::TXB2:
   case Opcode::TXL2:
      return src_index == 1 ? 0x1 : 0xf;
   default:
      return 0xf;
   }
}

class Estimator {
 public:
   Estimator(const Shader &shader, Diagnostics &diags) : shader_(shader), diags_(diags) {}
   std::optional<TempLifetimes> run();

 private:
   bool setup();
   bool process(int i, const Instruction &inst);
   bool check_index(int32_t index, SourceLoc loc);
   void note_indirect(uint16_t array_id, SourceLoc loc);
   bool read_temp(int32_t index, uint8_t chan_mask, int slot, SourceLoc loc);
   bool write_temp(int32_t index, uint8_t chan_mask, int slot, SourceLoc loc);
   bool read_indirect_ref(const std::optional<IndirectRef> &ref, int slot, SourceLoc loc);
   void read_channel(int rec, int slot);
   void write_channel(int rec, int slot);
   void need_loop(ChannelState &st, int loop);
   bool is_active(int scope) const;
   void push_scope(ScopeKind kind, int i);
   void clear_written_bits(size_t from, int depth);
   bool error(SourceLoc loc, const std::string &msg);
   void finish(TempLifetimes &out);

   const Shader &shader_;
   Diagnostics &diags_;
   std::vector<ChannelState> chans_;
   std::vector<int> array_of_;
   std::vector<char> pinned_;       /* by TEMP: keeps a register of its own */
   std::vector<char> array_used_;   /* by declaration index */
   std::vector<Scope> scopes_;
   std::vector<int> stack_;         /* active scope ids, index = depth */
   std::vector<int> loops_;         /* active loop scope ids, outermost first */
   std::vector<int> trail_;         /* channel records whose written bit was set */
   std::vector<int> promoted_;      /* scratch for ENDIF */
   int32_t num_temps_ = 0;
   int32_t num_declared_ = 0;
   int32_t max_ref_ = -1;
   bool overflow_ = false;
   bool some_lanes_stopped_ = false; /* a KILL, KILL_IF or RET was seen */
   bool reading_neighbours_ = false; /* the current instruction does */
   bool unknown_indirect_ = false;
};

bool Estimator::error(SourceLoc loc, const std::string &msg)
{
   diags_.error(shader_.source_name, loc, msg);
   return false;
}

bool Estimator::setup()
{
   num_temps_ = num_declared_ = shader_.file_size(File::Temporary);
   for (const Declaration &d : shader_.declarations) {
      if (d.file != File::Temporary)
         continue;
      if (d.first < 0 || d.last < d.first || d.last >= kMaxTemps)
         return error(d.loc, "bad TEMP declaration range " + std::to_string(d.first) + ".." +
                                std::to_string(d.last));
   }
   array_of_.assign(num_temps_, -1);
   pinned_.assign(num_temps_, 0);
   array_used_.assign(shader_.declarations.size(), 0);
   for (size_t k = 0; k < shader_.declarations.size(); k++) {
      const Declaration &d = shader_.declarations[k];
      if (d.file != File::Temporary || d.array_id == 0)
         continue;
      for (int32_t t = d.first; t <= d.last; t++)
         if (array_of_[t] < 0)
            array_of_[t] = static_cast<int>(k);
   }
   chans_.assign(static_cast<size_t>(num_temps_) * 4, ChannelState());

   const size_t n = shader_.instructions.size();
   scopes_.reserve(n / 8 + 8);
   stack_.reserve(kMaxDepth + 2);
   loops_.reserve(16);
   trail_.reserve(n + 16);
   promoted_.reserve(64);
   push_scope(ScopeKind::Outer, -1);
   return true;
}

/* Grows the per-temporary tables for a TEMP used beyond the declarations
 * (the parser may accept that); amortized, so not a per-instruction cost. */
bool Estimator::check_index(int32_t index, SourceLoc loc)
{
   if (index < 0 || index >= kMaxTemps)
      return error(loc, "TEMP index " + std::to_string(index) + " out of range");
   max_ref_ = std::max(max_ref_, index);
   if (index >= num_temps_) {
      int32_t size = std::max(index + 1, std::min(kMaxTemps, num_temps_ * 2));
      array_of_.resize(size, -1);
      pinned_.resize(size, 0);
      chans_.resize(static_cast<size_t>(size) * 4);
      num_temps_ = size;
   }
   return true;
}

void Estimator::note_indirect(uint16_t array_id, SourceLoc)
{
   /* Without an ARRAY id the access may reach any temporary. */
   if (array_id == 0) {
      unknown_indirect_ = true;
      return;
   }
   for (size_t k = 0; k < shader_.declarations.size(); k++) {
      const Declaration &d = shader_.declarations[k];
      if (d.file == File::Temporary && d.array_id == array_id) {
         array_used_[k] = 1;
         return;
      }
   }
   unknown_indirect_ = true;
}

bool Estimator::is_active(int scope) const
{
   const int d = scopes_[scope].depth;
   return d < static_cast<int>(stack_.size()) && stack_[d] == scope;
}

void Estimator::need_loop(ChannelState &st, int loop)
{
   const Scope &l = scopes_[loop];
   st.lo = std::min(st.lo, l.begin_slot);
   if (st.pending_loop < 0) {
      st.pending_loop = loop;
   } else if (is_active(st.pending_loop)) {
      /* Both are on the stack, so one contains the other: keep the outer. */
      if (l.depth < scopes_[st.pending_loop].depth)
         st.pending_loop = loop;
   } else {
      st.hi = std::max(st.hi, scopes_[st.pending_loop].end_slot);
      st.pending_loop = loop;
   }
}

void Estimator::read_channel(int rec, int slot)
{
   ChannelState &st = chans_[rec];
   st.lo = std::min(st.lo, slot);
   st.hi = std::max(st.hi, slot);
   if (overflow_)
      return;
   if (st.written == 0) {
      /* Some path reaches this read without a write: it may see the initial
       * register contents (or, in a loop, a value from an earlier
       * iteration), so the register is reserved from shader entry and
       * across every enclosing loop. */
      st.lo = -1;
      if (!loops_.empty())
         need_loop(st, loops_.front());
      return;
   }
   /* The value comes from a write at depth <= h; any loop entered after that
    * (depth > h) repeats this read with the same value, so the register must
    * survive the whole outermost such loop. */
   const int h = 63 - std::countl_zero(st.written);
   for (int loop : loops_) {
      if (scopes_[loop].depth > h) {
         need_loop(st, loop);
         break;
      }
   }
}

void Estimator::write_channel(int rec, int slot)
{
   ChannelState &st = chans_[rec];
   st.lo = std::min(st.lo, slot);
   st.hi = std::max(st.hi, slot);
   if (overflow_)
      return;
   const uint64_t bit = uint64_t(1) << (stack_.size() - 1);
   if (!(st.written & bit)) {
      st.written |= bit;
      trail_.push_back(rec);
   }
}

bool Estimator::read_temp(int32_t index, uint8_t chan_mask, int slot, SourceLoc loc)
{
   if (!check_index(index, loc))
      return false;
   if (array_of_[index] >= 0) {
      array_used_[array_of_[index]] = 1;
      return true;
   }
   /* A lane that is inactive here (other side of a branch, left the loop,
    * killed) still has its register read by its quad neighbours, and it
    * holds whatever was last written to it: only a register of its own
    * makes that the same value as before merging. */
   if (reading_neighbours_ && (stack_.size() > 1 || some_lanes_stopped_))
      pinned_[index] = 1;
   for (int c = 0; c < 4; c++)
      if (chan_mask & (1u << c))
         read_channel(index * 4 + c, slot);
   return true;
}

bool Estimator::write_temp(int32_t index, uint8_t chan_mask, int slot, SourceLoc loc)
{
   if (!check_index(index, loc))
      return false;
   if (array_of_[index] >= 0) {
      array_used_[array_of_[index]] = 1;
      return true;
   }
   for (int c = 0; c < 4; c++)
      if (chan_mask & (1u << c))
         write_channel(index * 4 + c, slot);
   return true;
}

/* TEMP[1].y used as an index is an ordinary one-channel read. */
bool Estimator::read_indirect_ref(const std::optional<IndirectRef> &ref, int slot, SourceLoc loc)
{
   if (!ref || ref->file != File::Temporary)
      return true;
   return read_temp(ref->index, uint8_t(1u << (ref->swizzle & 3)), slot, loc);
}

void Estimator::push_scope(ScopeKind kind, int i)
{
   Scope s;
   s.kind = kind;
   s.depth = static_cast<int>(stack_.size());
   s.opener = i;
   s.begin_slot = i < 0 ? -1 : 2 * i;
   s.trail_mark = trail_.size();
   if (s.depth > kMaxDepth)
      overflow_ = true;
   scopes_.push_back(s);
   stack_.push_back(static_cast<int>(scopes_.size()) - 1);
   if (kind == ScopeKind::Loop)
      loops_.push_back(stack_.back());
}

void Estimator::clear_written_bits(size_t from, int depth)
{
   if (overflow_)
      return;
   const uint64_t mask = ~(uint64_t(1) << depth);
   for (size_t k = from; k < trail_.size(); k++)
      chans_[trail_[k]].written &= mask;
}

bool Estimator::process(int i, const Instruction &inst)
{
   const int read_slot = 2 * i, write_slot = 2 * i + 1;
   reading_neighbours_ = reads_quad_neighbours(inst.opcode);

   /* Sources are read before the destination is written. */
   for (unsigned k = 0; k < inst.src.size(); k++) {
      const SrcOperand &s = inst.src[k];
      if (!read_indirect_ref(s.index.indirect, read_slot, s.loc))
         return false;
      if (s.dimension && !read_indirect_ref(s.dimension->indirect, read_slot, s.loc))
         return false;
      if (s.file != File::Temporary)
         continue;
      if (s.index.indirect) {
         note_indirect(s.array_id, s.loc);
         continue;
      }
      const uint8_t used = source_usage_mask(inst, k);
      uint8_t chans = 0;
      for (int c = 0; c < 4; c++)
         if (used & (1u << c))
            chans |= uint8_t(1u << (s.swizzle[c] & 3));
      if (!read_temp(s.index.value, chans, read_slot, s.loc))
         return false;
   }
   for (const TexOffset &o : inst.tex_offsets) {
      if (o.file != File::Temporary)
         continue;
      uint8_t chans = 0;
      for (uint8_t sw : o.swizzle)
         chans |= uint8_t(1u << (sw & 3));
      if (!read_temp(o.index, chans, read_slot, inst.loc))
         return false;
   }
   for (const DstOperand &d : inst.dst) {
      if (!read_indirect_ref(d.index.indirect, read_slot, d.loc))
         return false;
      if (d.dimension && !read_indirect_ref(d.dimension->indirect, read_slot, d.loc))
         return false;
   }
   for (const DstOperand &d : inst.dst) {
      if (d.file != File::Temporary)
         continue;
      if (d.index.indirect) {
         note_indirect(d.array_id, d.loc);
         continue;
      }
      if (!write_temp(d.index.value, d.write_mask & 0xf, write_slot, d.loc))
         return false;
   }

   switch (inst.opcode) {
   case Opcode::IF:
   case Opcode::UIF:
      push_scope(ScopeKind::If, i);
      break;
   case Opcode::BGNLOOP:
      push_scope(ScopeKind::Loop, i);
      break;
   case Opcode::ELSE: {
      Scope &top = scopes_[stack_.back()];
      if (top.kind == ScopeKind::Else)
         return error(inst.loc, "second ELSE for the same IF");
      if (top.kind != ScopeKind::If)
         return error(inst.loc, "ELSE without matching IF");
      top.end_slot = write_slot;
      const int d = top.depth;
      if (!overflow_) {
         /* What the IF part wrote at its top level no longer dominates in
          * the ELSE part; remember it for the ENDIF. */
         const uint64_t bit = uint64_t(1) << d;
         for (size_t k = top.trail_mark; k < trail_.size(); k++) {
            ChannelState &st = chans_[trail_[k]];
            st.if_written |= bit;
            st.written &= ~bit;
         }
      }
      Scope e;
      e.kind = ScopeKind::Else;
      e.depth = d;
      e.opener = top.opener; /* unclosed ELSE is reported at its IF */
      e.begin_slot = read_slot;
      e.if_mark = top.trail_mark;
      e.trail_mark = trail_.size();
      scopes_.push_back(e);
      stack_.back() = static_cast<int>(scopes_.size()) - 1;
      break;
   }
   case Opcode::ENDIF: {
      Scope &top = scopes_[stack_.back()];
      if (top.kind != ScopeKind::If && top.kind != ScopeKind::Else)
         return error(inst.loc, "ENDIF without matching IF");
      top.end_slot = write_slot;
      const int d = top.depth;
      if (top.kind == ScopeKind::If) {
         clear_written_bits(top.trail_mark, d);
         if (!overflow_)
            trail_.resize(top.trail_mark);
      } else if (!overflow_) {
         /* Written at the top level of both parts: the write dominates
          * after ENDIF, i.e. at the parent's level. */
         const uint64_t bit = uint64_t(1) << d, parent_bit = bit >> 1;
         promoted_.clear();
         for (size_t k = top.trail_mark; k < trail_.size(); k++) {
            ChannelState &st = chans_[trail_[k]];
            if ((st.if_written & bit) && !(st.written & parent_bit)) {
               st.written |= parent_bit;
               promoted_.push_back(trail_[k]);
            }
            st.written &= ~bit;
         }
         for (size_t k = top.if_mark; k < top.trail_mark; k++)
            chans_[trail_[k]].if_written &= ~bit;
         trail_.resize(top.if_mark);
         trail_.insert(trail_.end(), promoted_.begin(), promoted_.end());
      }
      stack_.pop_back();
      break;
   }
   case Opcode::ENDLOOP: {
      Scope &top = scopes_[stack_.back()];
      if (top.kind != ScopeKind::Loop)
         return error(inst.loc, "ENDLOOP without matching BGNLOOP");
      top.end_slot = write_slot;
      clear_written_bits(top.trail_mark, top.depth);
      if (!overflow_)
         trail_.resize(top.trail_mark);
      stack_.pop_back();
      loops_.pop_back();
      break;
   }
   case Opcode::KILL:
   case Opcode::KILL_IF:
   case Opcode::RET:
      some_lanes_stopped_ = true;
      break;
   case Opcode::BRK:
   case Opcode::CONT:
      /* Leaving early only removes paths: dominance and the loop rules
       * stay valid (see the documentation), so nothing to track. */
      if (loops_.empty())
         return error(inst.loc, std::string(inst.info().name) + " outside of a loop");
      break;
   default:
      break;
   }
   return true;
}

void Estimator::finish(TempLifetimes &out)
{
   const int n = static_cast<int>(shader_.instructions.size());
   const int last_slot = 2 * n - 1;
   /* check_index grows the tables geometrically; report only what exists. */
   num_temps_ = std::max(num_declared_, max_ref_ + 1);
   array_of_.resize(num_temps_);
   pinned_.resize(num_temps_);
   chans_.resize(static_cast<size_t>(num_temps_) * 4);
   for (ChannelState &st : chans_) {
      if (st.pending_loop >= 0)
         st.hi = std::max(st.hi, scopes_[st.pending_loop].end_slot);
      if (st.lo == INT_MAX)
         continue;
      /* Too deep to track dominance, or any TEMP may be reached indirectly:
       * every used temporary keeps the whole program. */
      if (overflow_ || unknown_indirect_) {
         st.lo = -1;
         st.hi = last_slot;
      }
   }

   out.temps.assign(num_temps_, Lifetime());
   out.channels.assign(num_temps_, {});
   out.slot_begin.assign(num_temps_, INT_MAX);
   out.slot_end.assign(num_temps_, -1);
   out.chan_slot_begin.assign(num_temps_, {INT_MAX, INT_MAX, INT_MAX, INT_MAX});
   out.chan_slot_end.assign(num_temps_, {-1, -1, -1, -1});
   out.array_of = array_of_;
   out.unknown_indirect = unknown_indirect_;

   auto to_lifetime = [](int lo, int hi) {
      Lifetime l;
      if (lo > hi)
         return l;
      l.begin = lo < 0 ? -1 : lo / 2;
      l.end = hi / 2;
      l.unused = false;
      return l;
   };

   for (int32_t t = 0; t < num_temps_; t++) {
      int lo = INT_MAX, hi = -1;
      if (array_of_[t] >= 0) {
         /* Arrays keep their registers for the whole program. */
         if (array_used_[array_of_[t]]) {
            lo = -1;
            hi = last_slot;
            for (int c = 0; c < 4; c++) {
               out.channels[t][c] = to_lifetime(lo, hi);
               out.chan_slot_begin[t][c] = lo;
               out.chan_slot_end[t][c] = hi;
            }
         }
      } else {
         for (int c = 0; c < 4; c++) {
            ChannelState &st = chans_[t * 4 + c];
            if (pinned_[t] && st.lo <= st.hi) {
               st.lo = -1;
               st.hi = last_slot;
            }
            out.channels[t][c] = to_lifetime(st.lo, st.hi);
            out.chan_slot_begin[t][c] = st.lo;
            out.chan_slot_end[t][c] = st.hi;
            if (st.lo <= st.hi) {
               lo = std::min(lo, st.lo);
               hi = std::max(hi, st.hi);
            }
         }
      }
      out.slot_begin[t] = lo;
      out.slot_end[t] = hi;
      out.temps[t] = to_lifetime(lo, hi);
   }
}

std::optional<TempLifetimes> Estimator::run()
{
   if (!setup())
      return std::nullopt;
   const int n = static_cast<int>(shader_.instructions.size());
   for (int i = 0; i < n; i++)
      if (!process(i, shader_.instructions[i]))
         return std::nullopt;
   if (stack_.size() > 1) {
      const Scope &top = scopes_[stack_.back()];
      const Instruction &opener = shader_.instructions[top.opener];
      error(opener.loc, std::string(opener.info().name) + " is not closed by " +
                           (top.kind == ScopeKind::Loop ? "ENDLOOP" : "ENDIF"));
      return std::nullopt;
   }
   TempLifetimes out;
   finish(out);
   return out;
}

} // namespace

uint8_t source_usage_mask(const Instruction &inst, unsigned src_index)
{
   const OpcodeInfo &info = inst.info();
   const uint8_t write_mask = inst.dst.empty() ? 0xf : (inst.dst[0].write_mask & 0xf);
   switch (info.mode) {
   case OutputMode::Component:
      return write_mask;
   case OutputMode::Replicate:
      switch (inst.opcode) {
      case Opcode::DP2: return 0x3;
      case Opcode::DP3: return 0x7;
      case Opcode::DP4: return 0xf;
      case Opcode::DPH: return src_index == 0 ? 0x7 : 0xf;
      default: return 0x1; /* scalar functions of .x */
      }
   case OutputMode::Channel:
      if (info.flags & OPF_TEX)
         return texture_usage_mask(inst, src_index);
      switch (inst.opcode) {
      case Opcode::LIT: return 0xb;
      case Opcode::EXP:
      case Opcode::LOG: return 0x1;
      case Opcode::DST: return src_index == 0 ? 0x6 : 0xa;
      default: return 0xf;
      }
   case OutputMode::None:
      switch (inst.opcode) {
      case Opcode::IF:
      case Opcode::UIF: return 0x1;
      default: return 0xf;
      }
   }
   return 0xf;
}

std::optional<TempLifetimes> compute_temp_lifetimes(const Shader &shader, Diagnostics &diags)
{
   Estimator e(shader, diags);
   return e.run();
}

} // namespace sbcc::tgsi
