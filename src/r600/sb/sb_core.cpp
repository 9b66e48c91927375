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

unsigned program_gprs(const Program &prog)
{
   int top = -1;
   auto use = [&](int gpr) {
      /* Clause temporaries (123-127 on R700+) are not allocated GPRs. */
      if (gpr < 123 && gpr > top)
         top = gpr;
   };
   for (const CfInstr &cf : prog.cf) {
      for (const AluGroup &g : cf.groups)
         for (const AluInstr &in : g.instrs) {
            if (in.dst.write || alu_is_op3(in.op))
               use(in.dst.gpr);
            for (unsigned s = 0; s < alu_op_info(in.op).num_src; s++)
               if (in.src[s].sel <= kSrcGPRLast)
                  use(in.src[s].sel);
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
         use(cf.exp.gpr + cf.exp.burst_count - 1);
   }
   return unsigned(top + 1);
}

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

   Diagnostics pd;
   Shader sh;
   Program out;
   auto timed = [&](const char *name, auto &&fn) {
      auto t0 = std::chrono::steady_clock::now();
      bool ok = fn();
      st.times.push_back(
         {name, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
      if (!ok && st.failed_pass.empty())
         st.failed_pass = name;
      return ok;
   };
   bool ok = timed("bc_parser", [&] { return bc_parser(prog, sh, pd); });
   if (ok && opts.sb_dump)
      st.log += tag + " after bc_parser\n" + dump_shader(sh);
   ok = ok && timed("copy_propagation", [&] { return copy_propagation(sh, pd); });
   ok = ok && timed("gvn", [&] { return gvn(sh, pd) && copy_propagation(sh, pd); });
   ok = ok && timed("dce_cleanup", [&] { return dce_cleanup(sh, pd); });
   if (ok && opts.sb_dump)
      st.log += tag + " after dce_cleanup\n" + dump_shader(sh);
   ok = ok && timed("post_scheduler", [&] { return post_scheduler(sh, pd); });
   if (ok && opts.sb_dump)
      st.log += tag + " after post_scheduler\n" + dump_shader(sh);
   ok = ok && timed("sched_checker", [&] { return sched_checker(sh, pd); });
   ok = ok && timed("bc_builder", [&] { return bc_builder(sh, out, pd); });
   ok = ok && timed("gpr_compaction", [&] {
      std::vector<LiveSet> live_out, live_in;
      if (!liveness(sh, live_out, &live_in) || live_in.empty())
         return true; /* unmodelled CF: keep the numbers */
      return gpr_compaction(out, info, live_in[0]);
   });
   std::optional<std::vector<uint32_t>> words_after;
   ok = ok && timed("validate", [&] {
      words_after = assemble(out, pd);
      return words_after && validate_program(out, info, pd);
   });

   const ShaderCounts before = count_program(prog);
   st.groups_before = before.alu_groups;
   st.instrs_before = before.alu_instrs;
   Diagnostics ad;
   if (auto w = assemble(prog, ad))
      st.dwords_before = unsigned(w->size());
   st.gprs_before = program_gprs(prog);
   if (!ok) {
      if (opts.sb_stat)
         st.log += tag + ": " + st.failed_pass + " failed (" + first_line(pd.str()) +
                   "), using the source bytecode\n";
      return std::nullopt;
   }
   const ShaderCounts after = count_program(out);
   st.groups_after = after.alu_groups;
   st.instrs_after = after.alu_instrs;
   st.dwords_after = unsigned(words_after->size());
   st.gprs_after = program_gprs(out);
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
