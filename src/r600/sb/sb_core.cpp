/*
 * sb_optimize: runs the sb passes on one shader under the R600_DEBUG
 * switches, measures them, and decides between the optimized and the
 * source bytecode.  The result is checked by assembling it and by the r600
 * validator before it is handed out, so a pass bug degrades to "no
 * optimization" instead of a wrong binary.
 */
#include <atomic>
#include <chrono>
#include <cstdio>

#include "r600/r600_asm.h"
#include "r600/r600_emu.h"
#include "r600/sb/sb.h"
#include "r600/sb/sb_passes.h"
#include "r600/sb/sb_ra.h"
#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb {

namespace {

std::atomic<uint32_t> g_shader_counter{0};

std::string first_line(const std::string &s)
{
   size_t e = s.find('\n');
   return e == std::string::npos ? s : s.substr(0, e);
}

} // namespace

void sb_reset_shader_counter() { g_shader_counter = 0; }

namespace {

/* What sb_optimize reports of a program, in one walk over it: the GPR
 * count reads every operand anyway, and count_program() walked the
 * groups again (and worked out literal counts nobody reads here). */
struct ProgramShape {
   unsigned groups = 0, instrs = 0, gprs = 0;
};

ProgramShape program_shape(const Program &prog)
{
   ProgramShape sh;
   /* One more than the highest GPR seen: an unsigned compare leaves out a
    * negative export end (a burst of 0 from R0) with the rest. */
   unsigned top = 0;
   auto use = [&](unsigned gpr) {
      /* Clause temporaries (123-127 on R700+) are not allocated GPRs. */
      if (gpr < 123 && gpr >= top)
         top = gpr + 1;
   };
   for (const CfInstr &cf : prog.cf) {
      sh.groups += unsigned(cf.groups.size());
      for (const AluGroup &g : cf.groups) {
         sh.instrs += unsigned(g.instrs.size());
         for (const AluInstr &in : g.instrs) {
            /* OP3 encodings have no write bit: they always write. */
            const unsigned nsrc = alu_op_info(in.op).num_src;
            if (in.dst.write || nsrc == 3)
               use(in.dst.gpr);
            /* The operands the op reads, without a loop: selectors past
             * the GPRs fail use()'s bound as well. */
            switch (nsrc) {
            case 3: use(in.src[2].sel); [[fallthrough]];
            case 2: use(in.src[1].sel); [[fallthrough]];
            case 1: use(in.src[0].sel); break;
            default: break;
            }
         }
      }
      for (const FetchInstr &f : cf.fetches) {
         if (auto *t = std::get_if<TexInstr>(&f)) {
            use(t->src_gpr);
            use(t->dst_gpr);
         } else if (auto *v = std::get_if<VtxInstr>(&f)) {
            use(v->src_gpr);
            use(v->dst_gpr);
         }
      }
      if (cf_op_info(cf.op).enc == CfEncoding::Export || cf_op_info(cf.op).enc == CfEncoding::Mem)
         use(cf.exp.gpr + cf.exp.burst_count - 1u);
   }
   sh.gprs = top;
   return sh;
}

} // namespace

unsigned program_gprs(const Program &prog) { return program_shape(prog).gprs; }

namespace {

/* Times one pass into SbStats::times when `enabled`.  A template call
 * rather than a std::function: each pass is entered a few dozen times per
 * shader, and wrapping every lambda cost an allocation and an indirect call. */
struct PassTimer {
   SbStats &st;
   bool enabled;

   template <typename F> bool operator()(const char *name, F &&fn) const
   {
      if (!enabled)
         return fn();
      auto t0 = std::chrono::steady_clock::now();
      bool ok = fn();
      st.times.push_back(
         {name, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
      return ok;
   }
};

/* Runs one pass under the timer unless an earlier one failed; the first
 * failure is remembered in `failed`. */
struct StepRunner {
   const PassTimer &timed;
   std::string &failed;

   template <typename F> bool operator()(const char *name, F &&fn) const
   {
      if (!failed.empty())
         return false;
      if (!timed(name, std::forward<F>(fn))) {
         failed = name;
         return false;
      }
      return true;
   }
};

/* Global optimization and register allocation on the region tree
 * (sb_region_passes.h); the finalized program still has one instruction
 * per group outside the groups that must stay together. */
std::optional<Program> ssa_stage(const Program &prog, const ShaderInfo &info,
                                 const DebugOptions &opts, const std::string &tag, SbStats &st,
                                 const PassTimer &timed, std::string &failed, Diagnostics &pd)
{
   using namespace region;
   const StepRunner step{timed, failed};
   auto dump = [&](const char *after, const RegionShader &sh) {
      if (opts.sb_dump)
         st.log += tag + " after " + after + "\n" + region_dump(sh);
   };
   RegionParseOptions po;
   po.infer_arrays = true;
   po.fetch_shader_call = info.has_fetch_shader;
   std::unique_ptr<RegionShader> sh;
   if (!step("bc_parser", [&] { return (sh = region_parse(prog, po, pd)) != nullptr; }))
      return std::nullopt;
   step("ssa_prepare", [&] { ssa_prepare(*sh); return true; });
   step("ssa_rename", [&] { ssa_rename(*sh); return true; });
   if (failed.empty())
      dump("ssa_rename", *sh);
   step("gvn", [&] { return gvn(*sh, pd); });
   step("peephole", [&] { return peephole(*sh, pd); });
   step("if_conversion", [&] { return if_conversion(*sh, pd); });
   step("dce_cleanup", [&] { return dce_cleanup(*sh, pd); });
   step("gcm", [&] { return gcm(*sh, pd); });
   if (failed.empty())
      dump("dce_cleanup", *sh);
   RaContext ctx;
   Allocation alloc;
   step("ra_split", [&] { return ra_split(*sh, ctx, pd, &info); });
   step("ra_coalesce", [&] { return ra_coalesce(*sh, ctx, pd); });
   step("ra_init", [&] { return ra_init(*sh, ctx, alloc, pd); });
   step("ra_checker", [&] { return ra_checker(*sh, alloc, pd); });
   if (failed.empty())
      dump("ra_checker", *sh);
   Program out;
   step("bc_finalize", [&] { return bc_finalize(*sh, alloc, info, out, pd); });
   if (!failed.empty())
      return std::nullopt;
   return out;
}

/* The clause-local passes (sb_passes.h): repack the VLIW groups of every
 * ALU clause, build and validate. */
std::optional<Program> local_stage(const Program &prog, const ShaderInfo &info,
                                   const DebugOptions &opts, const std::string &tag,
                                   SbStats &st, const PassTimer &timed, std::string &failed,
                                   Diagnostics &pd)
{
   Shader sh;
   Program out;
   const StepRunner step{timed, failed};
   step("bc_parser", [&] { return bc_parser(prog, sh, pd); });
   if (failed.empty() && opts.sb_dump)
      st.log += tag + " after bc_parser\n" + dump_shader(sh);
   step("copy_propagation", [&] { return copy_propagation(sh, pd); });
   step("local_gvn", [&] { return gvn(sh, pd) && copy_propagation(sh, pd); });
   /* Liveness once, on the IR post_scheduler gets: scheduling does not
    * change it at CF boundaries (sb_passes.h), so the checker and
    * gpr_compaction's entry set use it too instead of each walking the
    * shader again.  local_dce leaves it: it walked the clauses already. */
   ShaderLiveness live;
   step("local_dce", [&] { return dce_cleanup(sh, pd, live); });
   if (failed.empty() && opts.sb_dump)
      st.log += tag + " after local_dce\n" + dump_shader(sh);
   step("post_scheduler", [&] { return post_scheduler(sh, pd, &live.live_out); });
   if (failed.empty() && opts.sb_dump)
      st.log += tag + " after post_scheduler\n" + dump_shader(sh);
   step("sched_checker", [&] { return sched_checker(sh, pd, &live.live_out); });
   step("bc_builder", [&] { return bc_builder(sh, out, pd); });
   step("gpr_compaction", [&] {
      if (!live.known || live.live_in.empty())
         return true; /* unmodelled CF: keep the numbers */
      return gpr_compaction(out, info, live.live_in[0]);
   });
   step("validate", [&] {
      auto words = assemble(out, pd);
      if (!words || !validate_program(out, info, pd))
         return false;
      /* The image is built here anyway: its size is the dw statistic. */
      st.dwords_after = unsigned(words->size());
      return true;
   });
   if (!failed.empty())
      return std::nullopt;
   return out;
}

} // namespace

std::optional<Program> sb_optimize(const Program &prog, const ShaderInfo &info,
                                   const DebugOptions &opts, SbStats *stats, Diagnostics &diags)
{
   (void)diags; /* pass failures are not the caller's errors; see sbstat */
   SbStats local;
   SbStats &st = stats ? *stats : local;
   st = SbStats{};
   const bool enabled = info.stage == tgsi::Processor::Compute ? opts.sb_cl : opts.sb;
   if (!enabled)
      return std::nullopt;
   st.shader_seq = ++g_shader_counter;
   const std::string tag = "sb: shader #" + std::to_string(st.shader_seq);
   if (!opts.sb_should_optimize(st.shader_seq)) {
      if (opts.sb_stat)
         st.log += tag + " skipped (DSKIP)\n";
      return std::nullopt;
   }

   const PassTimer timed{st, opts.sb_pass_times || opts.sb_stat};
   if (timed.enabled)
      st.times.reserve(32); /* both stages' passes: one allocation */

   /* The SSA stage first; its program then goes through the clause-local
    * stage like any other.  If either gives up, the clause-local stage runs
    * on the source, and if that gives up too the source is kept. */
   Diagnostics pd;
   std::optional<Program> out;
   std::string ssa_msg;
   if (opts.sb_ssa) {
      Diagnostics sd;
      std::string failed;
      std::optional<Program> mid = ssa_stage(prog, info, opts, tag, st, timed, failed, sd);
      if (mid) {
         Diagnostics ld;
         out = local_stage(*mid, info, opts, tag, st, timed, failed, ld);
         if (!out)
            sd.error("after the SSA stage: " + first_line(ld.str()));
      }
      st.ssa = out.has_value();
      if (!out) {
         st.ssa_failed_pass = failed.empty() ? "?" : failed;
         ssa_msg = tag + ": SSA stage: " + st.ssa_failed_pass + " failed (" +
                   first_line(sd.str()) + "), clause-local passes only\n";
      }
   }
   if (!out) {
      std::string failed;
      out = local_stage(prog, info, opts, tag, st, timed, failed, pd);
      st.failed_pass = failed;
      /* One line per shader: when the source is kept, that line says why. */
      if (out && opts.sb_stat)
         st.log += ssa_msg;
   }
   const bool ok = out.has_value();

   const ProgramShape before = program_shape(prog);
   st.groups_before = before.groups;
   st.instrs_before = before.instrs;
   /* Counted, not assembled: assembling the source only to measure it
    * was a tenth of the whole call on a median shader. */
   st.dwords_before = program_dwords(prog);
   st.gprs_before = before.gprs;
   if (!ok) {
      if (opts.sb_stat)
         st.log += tag + ": " + st.failed_pass + " failed (" + first_line(pd.str()) +
                   "), using the source bytecode\n";
      return std::nullopt;
   }
   const ProgramShape after = program_shape(*out);
   st.groups_after = after.groups;
   st.instrs_after = after.instrs;
   st.gprs_after = after.gprs;
   st.optimized = !opts.sb_dry;
   if (opts.sb_stat) {
      st.log += tag + (opts.sb_dry ? " (dry)" : "") + ": alu_groups " +
                std::to_string(st.groups_before) + " -> " + std::to_string(st.groups_after) +
                ", alu " + std::to_string(st.instrs_before) + " -> " +
                std::to_string(st.instrs_after) + ", dw " + std::to_string(st.dwords_before) +
                " -> " + std::to_string(st.dwords_after) + ", gprs " +
                std::to_string(st.gprs_before) + " -> " + std::to_string(st.gprs_after) + "\n";
      for (const SbPassTime &t : st.times) {
         char buf[96];
         std::snprintf(buf, sizeof(buf), "%s   %-16s %9.3f ms\n", tag.c_str(), t.pass.c_str(),
                       t.seconds * 1e3);
         st.log += buf;
      }
   }
   if (opts.sb_dry)
      return std::nullopt;
   return out;
}

} // namespace sbcc::r600::sb
