/*
 * sb's "done when" matrix, the in-process half (the other half is the
 * shader suite under R600_DEBUG=sb, sb+sbdry and the DSKIP modes, see
 * tests/shaders/meson.build):
 *
 *  - SbRandom.*: programs from the seeded TGSI generator shared with the
 *    plain backend's random test (r600_backend/random_tgsi_gen.h) go through
 *    the r600 target from the registry, which hands sb to the plain backend
 *    exactly as R600_DEBUG=sb does.  Plain and sb executables both run in
 *    the emulator against the reference interpreter on random inputs.  Under
 *    sbdry the binary must equal the plain one bit for bit; under the DSKIP
 *    modes each shader's binary must be the plain or the sb one as the
 *    sequence number and range say.
 *  - SbShaderSuite.*: every bundled .shader_test stage compiled plain, with
 *    sb and with sb+sbdry (sbdry must emit the plain binary), and the DSKIP
 *    range the meson matrix uses must split each two-stage test.
 *
 * A failure names the seed (or file and stage).  SBCC_RANDOM_SEED=N makes
 * every SbRandom test run only program N; SBCC_SB_RANDOM_PROGRAMS overrides
 * the number of programs of the main sb tests (1000 per chip).
 */
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "driver/target.h"
#include "interp/interp.h"
#include "r600/sb/sb.h"
#include "r600_backend/random_tgsi_gen.h"
#include "runner/shader_run.h"
#include "runner/shader_test.h"
#include "runner/verify.h"
#include "tgsi/tgsi_ir.h"

#include <unistd.h>

#ifndef SBCC_SOURCE_ROOT
#define SBCC_SOURCE_ROOT "."
#endif

namespace {

using namespace sbcc;

/* A crash in sb kills the whole test binary before gtest can print which
 * program caused it, so the program being compiled is noted here and a
 * signal handler prints the note (write(2) only: async-signal-safe). */
char g_crash_note[512];

extern "C" void crash_handler(int sig)
{
   ssize_t r = write(2, g_crash_note, std::strlen(g_crash_note));
   (void)r;
   std::signal(sig, SIG_DFL);
   std::raise(sig);
}

const bool g_handlers_installed = [] {
   for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL})
      std::signal(sig, crash_handler);
   return true;
}();

void note_current(const std::string &what)
{
   std::snprintf(g_crash_note, sizeof(g_crash_note), "\n*** crashed while compiling %s\n",
                 what.c_str());
}

std::optional<uint32_t> env_uint(const char *name)
{
   const char *e = std::getenv(name);
   if (!e || !*e)
      return std::nullopt;
   char *end = nullptr;
   unsigned long v = std::strtoul(e, &end, 10);
   if (*end)
      return std::nullopt;
   return uint32_t(v);
}

DebugOptions sb_options(int dskip_mode = 0, uint32_t start = 0, uint32_t end = 0, bool dry = false)
{
   DebugOptions d;
   d.sb = true;
   d.sb_dry = dry;
   d.sb_dskip_mode = dskip_mode;
   d.sb_dskip_start = start;
   d.sb_dskip_end = end;
   return d;
}

struct Built {
   std::unique_ptr<Executable> exe;
   std::vector<uint8_t> bin;
};

std::optional<Built> build(Target &target, const tgsi::Shader &shader, const DebugOptions &debug,
                           Diagnostics &diags)
{
   CompileOptions opts;
   opts.target = std::string(target.name());
   opts.debug = debug;
   Built b;
   b.exe = target.compile(shader, opts, diags, nullptr);
   if (!b.exe)
      return std::nullopt;
   b.bin = target.binary(*b.exe);
   return b;
}

/* ---------------------------------------------------------------------- */
/* Random programs                                                          */
/* ---------------------------------------------------------------------- */

struct RandomProgram {
   uint32_t seed = 0;
   std::string text;
   std::optional<tgsi::Shader> shader;
   std::unique_ptr<Executable> ref;
};

/* Seeds of one test: [base, base + n), or only SBCC_RANDOM_SEED. */
std::vector<uint32_t> seeds(uint32_t base, uint32_t n)
{
   if (auto one = env_uint("SBCC_RANDOM_SEED"))
      return {*one};
   std::vector<uint32_t> v;
   for (uint32_t i = 0; i < n; i++)
      v.push_back(base + i);
   return v;
}

std::string replay(uint32_t seed)
{
   const ::testing::TestInfo *t = ::testing::UnitTest::GetInstance()->current_test_info();
   return "replay: SBCC_RANDOM_SEED=" + std::to_string(seed) +
          " test_sb_differential --gtest_filter=" + t->test_suite_name() + "." + t->name();
}

std::string replay(const RandomProgram &p) { return replay(p.seed); }

bool make_program(uint32_t seed, RandomProgram &p)
{
   note_current("seed " + std::to_string(seed) + "; " + replay(seed));
   p.seed = seed;
   p.text = test::random_tgsi_program(seed);
   Diagnostics diags;
   p.shader = tgsi::parse_tgsi(p.text, "random.tgsi", diags);
   EXPECT_TRUE(p.shader) << "seed " << seed << ": generator wrote bad TGSI\n"
                         << diags.str() << p.text;
   if (!p.shader)
      return false;
   p.ref = interp::make_reference_executable(*p.shader, diags);
   EXPECT_TRUE(p.ref) << "seed " << seed << "\n" << diags.str() << p.text;
   return bool(p.ref);
}

/* Emulator against reference; false (and a failure naming the seed) on a
 * mismatch.  Loops are counted (at most 3 trips), so a budget is a failure. */
bool verify(const RandomProgram &p, const Executable &exe, const char *what)
{
   runner::VerifyOptions vo;
   vo.seed = p.seed;
   vo.invocations = 16;
   vo.limits.max_loop_iterations = 64;
   auto res = runner::verify_shader(*p.shader, *p.ref, exe, vo);
   EXPECT_EQ(res.status, runner::VerifyStatus::Pass)
      << "seed " << p.seed << " (" << what << "): " << res.message << "\n"
      << replay(p) << "\n"
      << p.text << "\n"
      << exe.listing();
   return res.status == runner::VerifyStatus::Pass;
}

std::unique_ptr<Target> target_or_fail(const char *name)
{
   Diagnostics diags;
   auto t = make_target(name, diags);
   EXPECT_TRUE(t) << diags.str();
   return t;
}

/* Plain and sb through the emulator.  Counts the programs sb changed, so the
 * test can insist that sb actually optimized something. */
void run_sb(const char *chip, uint32_t base, const std::vector<uint32_t> *fixed = nullptr)
{
   auto target = target_or_fail(chip);
   ASSERT_TRUE(target);
   unsigned n = env_uint("SBCC_SB_RANDOM_PROGRAMS").value_or(1000);
   unsigned changed = 0, total = 0, failures = 0;
   for (uint32_t seed : fixed ? *fixed : seeds(base, n)) {
      RandomProgram p;
      if (!make_program(seed, p))
         return;
      Diagnostics diags;
      auto plain = build(*target, *p.shader, DebugOptions{}, diags);
      ASSERT_TRUE(plain) << "seed " << seed << ": compile failed\n" << diags.str() << p.text;
      auto sb = build(*target, *p.shader, sb_options(), diags);
      ASSERT_TRUE(sb) << "seed " << seed << ": compile with sb failed\n"
                      << diags.str() << p.text;
      total++;
      if (sb->bin != plain->bin)
         changed++;
      bool ok = verify(p, *plain->exe, (std::string(chip) + ", plain").c_str());
      ok = verify(p, *sb->exe, (std::string(chip) + ", sb").c_str()) && ok;
      /* One broken pass tends to break hundreds of programs: stop early. */
      if (!ok && ++failures >= 5) {
         FAIL() << "stopping after 5 failing programs";
      }
   }
   std::printf("%s: sb changed %u of %u programs\n", chip, changed, total);
   if (total >= 100) {
      EXPECT_GT(changed, total / 2) << "sb gave up on most programs: the differential test "
                                       "would not be testing sb";
   }
}

/* sbdry: sb runs, the plain binary is emitted. */
void run_dry(const char *chip, uint32_t base)
{
   auto target = target_or_fail(chip);
   ASSERT_TRUE(target);
   for (uint32_t seed : seeds(base, 300)) {
      RandomProgram p;
      if (!make_program(seed, p))
         return;
      Diagnostics diags;
      auto plain = build(*target, *p.shader, DebugOptions{}, diags);
      auto dry = build(*target, *p.shader, sb_options(0, 0, 0, true), diags);
      ASSERT_TRUE(plain && dry) << "seed " << seed << "\n" << diags.str() << p.text;
      EXPECT_TRUE(dry->bin == plain->bin)
         << "seed " << seed << " (" << chip << "): sbdry emitted a binary that differs from "
         << "the plain backend's\n" << replay(p) << "\n" << p.text << "\n"
         << dry->exe->listing();
      verify(p, *dry->exe, (std::string(chip) + ", sbdry").c_str());
   }
}

/* DSKIP: n programs compiled in one sequence (shader numbers 1..n) with the
 * range [n/4 + 1, 3n/4]; each binary must be the sb one where the mode says
 * optimize and the plain one elsewhere, and every one must run correctly. */
void run_dskip(const char *chip, int mode, uint32_t base)
{
   auto target = target_or_fail(chip);
   ASSERT_TRUE(target);
   std::vector<RandomProgram> progs;
   std::vector<std::vector<uint8_t>> plain_bins, sb_bins;
   for (uint32_t seed : seeds(base, 200)) {
      RandomProgram p;
      if (!make_program(seed, p))
         return;
      Diagnostics diags;
      auto plain = build(*target, *p.shader, DebugOptions{}, diags);
      auto sb = build(*target, *p.shader, sb_options(), diags);
      ASSERT_TRUE(plain && sb) << "seed " << seed << "\n" << diags.str() << p.text;
      plain_bins.push_back(plain->bin);
      sb_bins.push_back(sb->bin);
      progs.push_back(std::move(p));
   }
   const uint32_t n = uint32_t(progs.size());
   const uint32_t start = n / 4 + 1, end = 3 * n / 4;
   const DebugOptions dbg = sb_options(mode, start, end);
   unsigned optimized = 0;
   /* The numbers count sb runs in the process: restart them here. */
   r600::sb::sb_reset_shader_counter();
   for (uint32_t i = 0; i < n; i++) {
      const RandomProgram &p = progs[i];
      const uint32_t seq = i + 1;
      note_current("seed " + std::to_string(p.seed) + " as shader #" + std::to_string(seq) +
                   " under DSKIP mode " + std::to_string(mode) + "; " + replay(p));
      const bool in_range = seq >= start && seq <= end;
      const bool expect_sb = mode == 1 ? !in_range : in_range;
      Diagnostics diags;
      auto got = build(*target, *p.shader, dbg, diags);
      ASSERT_TRUE(got) << "seed " << p.seed << "\n" << diags.str() << p.text;
      const auto &want = expect_sb ? sb_bins[i] : plain_bins[i];
      optimized += expect_sb;
      EXPECT_TRUE(got->bin == want)
         << "seed " << p.seed << " (" << chip << ", DSKIP mode " << mode << ", range " << start
         << ".." << end << ", shader #" << seq << "): expected the "
         << (expect_sb ? "sb" : "plain") << " binary\n" << replay(p);
      verify(p, *got->exe,
             (std::string(chip) + ", DSKIP mode " + std::to_string(mode) + ", shader #" +
              std::to_string(seq))
                .c_str());
   }
   if (n >= 4) {
      /* Both halves of the split were exercised. */
      EXPECT_GT(optimized, 0u);
      EXPECT_LT(optimized, n);
   }
}

/* Seed bases differ per test (and from the plain backend's random test,
 * which uses 1000, 500000, 900000 and 1300000), so every test draws its own
 * programs. */
TEST(SbRandom, EvergreenSb) { run_sb("evergreen", 2000000); }
TEST(SbRandom, R700Sb) { run_sb("r700", 2500000); }
/* Seeds that once gave wrong code (found with SBCC_SB_RANDOM_PROGRAMS=10000):
 * copies at the end of an ELSE side (ALU_POP_AFTER) were propagated into
 * the export after the branch by the clause-local copy_propagation. */
TEST(SbRandom, R700SbFoundSeeds)
{
   const std::vector<uint32_t> found = {2500673, 2506050, 2507660, 2508112, 2509483};
   run_sb("r700", 0, &found);
}
TEST(SbRandom, EvergreenSbDry) { run_dry("evergreen", 3000000); }
TEST(SbRandom, R700SbDry) { run_dry("r700", 3500000); }
TEST(SbRandom, EvergreenDskipMode1) { run_dskip("evergreen", 1, 4000000); }
TEST(SbRandom, EvergreenDskipMode2) { run_dskip("evergreen", 2, 4500000); }
TEST(SbRandom, R700DskipMode1) { run_dskip("r700", 1, 5000000); }
TEST(SbRandom, R700DskipMode2) { run_dskip("r700", 2, 5500000); }

/* ---------------------------------------------------------------------- */
/* Bundled shader tests                                                     */
/* ---------------------------------------------------------------------- */

const std::string kShaderDir = std::string(SBCC_SOURCE_ROOT) + "/tests/shaders/";

std::vector<std::string> read_words_file(const std::string &path, bool first_word_only)
{
   std::ifstream in(path);
   std::vector<std::string> out;
   std::string line;
   while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string w;
      if (!(ls >> w) || w[0] == '#')
         continue;
      out.push_back(first_word_only ? w : line);
   }
   return out;
}

/* target -> files it is known not to compile (tests/shaders/known-gaps.txt). */
std::map<std::string, std::set<std::string>> known_gaps()
{
   std::map<std::string, std::set<std::string>> gaps;
   for (const std::string &line : read_words_file(kShaderDir + "known-gaps.txt", false)) {
      std::istringstream ls(line);
      std::string target, file;
      if (ls >> target >> file)
         gaps[target].insert(file);
   }
   return gaps;
}

struct SuiteStage {
   std::string name; /* "file (vertex)" */
   std::vector<uint8_t> plain, sb, dry;
};

struct SuiteTest {
   std::string file;
   std::vector<runner::LoadedStage> stages;
};

std::vector<SuiteTest> load_suite(const std::string &target_name)
{
   std::vector<SuiteTest> tests;
   const auto gaps = known_gaps();
   auto it = gaps.find(target_name);
   Diagnostics tdiags;
   auto target = make_target(target_name, tdiags);
   const std::vector<std::string> missing =
      target ? target->missing_extensions(CompileOptions{}) : std::vector<std::string>{};
   for (const std::string &file : read_words_file(kShaderDir + "list.txt", true)) {
      if (it != gaps.end() && it->second.count(file))
         continue;
      Diagnostics diags;
      std::string text;
      if (!runner::read_file(kShaderDir + file, text, diags)) {
         ADD_FAILURE() << file << ": " << diags.str();
         continue;
      }
      auto t = runner::parse_shader_test(text, file, diags);
      /* Tests requiring an extension the target lacks are skipped by the
       * runner; they are not this target's shaders. */
      bool lacks = false;
      for (const auto &r : t ? t->requirements : std::vector<runner::Requirement>{})
         for (const std::string &m : missing)
            lacks |= r.text == m;
      if (lacks)
         continue;
      auto stages = t ? runner::load_stages(*t, diags) : std::nullopt;
      if (!stages) {
         ADD_FAILURE() << file << ": " << diags.str();
         continue;
      }
      tests.push_back({file, std::move(*stages)});
   }
   EXPECT_GT(tests.size(), 100u) << "bundled shader tests not found under " << kShaderDir;
   return tests;
}

std::string stage_label(const SuiteTest &t, size_t i)
{
   return t.file + " (" + (t.stages[i].vertex ? "vertex" : "fragment") + ")";
}

/* sbdry must emit the plain binary for every stage; sb itself must change
 * some, or the comparison could not tell optimized code from source. */
void suite_dry(const char *chip)
{
   auto target = target_or_fail(chip);
   ASSERT_TRUE(target);
   unsigned stages = 0, changed = 0;
   for (const SuiteTest &t : load_suite(chip)) {
      for (size_t i = 0; i < t.stages.size(); i++) {
         note_current(stage_label(t, i) + " on " + chip);
         Diagnostics diags;
         const tgsi::Shader &sh = t.stages[i].shader;
         auto plain = build(*target, sh, DebugOptions{}, diags);
         auto sb = build(*target, sh, sb_options(), diags);
         auto dry = build(*target, sh, sb_options(0, 0, 0, true), diags);
         if (!plain || !sb || !dry) {
            ADD_FAILURE() << stage_label(t, i) << " on " << chip << ": compile failed\n"
                          << diags.str();
            continue;
         }
         stages++;
         changed += sb->bin != plain->bin;
         EXPECT_TRUE(dry->bin == plain->bin)
            << stage_label(t, i) << " on " << chip
            << ": sbdry emitted a binary that differs from the plain backend's";
      }
   }
   std::printf("%s: %u bundled stages, sb changes %u, sbdry none\n", chip, stages, changed);
   EXPECT_GT(changed, stages / 2);
}

TEST(SbShaderSuite, EvergreenSbDryIsBitIdentical) { suite_dry("evergreen"); }
TEST(SbShaderSuite, R700SbDryIsBitIdentical) { suite_dry("r700"); }

/* The meson matrix runs each test as one process with DSKIP start = end = 1:
 * mode 1 must optimize only the fragment stage and mode 2 only the vertex
 * stage (run-test compiles the vertex stage first).  Replays that order
 * here and checks which binary each stage gets. */
void suite_dskip_split(const char *chip)
{
   auto target = target_or_fail(chip);
   ASSERT_TRUE(target);
   unsigned split = 0;
   for (const SuiteTest &t : load_suite(chip)) {
      std::vector<std::vector<uint8_t>> plain, sb;
      Diagnostics diags;
      note_current(t.file + " on " + std::string(chip));
      for (const auto &st : t.stages) {
         auto p = build(*target, st.shader, DebugOptions{}, diags);
         auto s = build(*target, st.shader, sb_options(), diags);
         ASSERT_TRUE(p && s) << t.file << ": " << diags.str();
         plain.push_back(p->bin);
         sb.push_back(s->bin);
      }
      for (int mode = 1; mode <= 2; mode++) {
         r600::sb::sb_reset_shader_counter();
         for (size_t i = 0; i < t.stages.size(); i++) {
            auto got = build(*target, t.stages[i].shader, sb_options(mode, 1, 1), diags);
            ASSERT_TRUE(got) << t.file << ": " << diags.str();
            const bool first = i == 0;
            const bool expect_sb = mode == 1 ? !first : first;
            EXPECT_TRUE(got->bin == (expect_sb ? sb[i] : plain[i]))
               << stage_label(t, i) << " on " << chip << ", DSKIP mode " << mode
               << " range 1..1: expected the " << (expect_sb ? "sb" : "plain") << " binary";
         }
      }
      /* A real split: two stages and sb changes both. */
      if (t.stages.size() == 2 && sb[0] != plain[0] && sb[1] != plain[1])
         split++;
   }
   std::printf("%s: DSKIP 1..1 splits %u tests into an optimized and a plain stage\n", chip,
               split);
   EXPECT_GT(split, 50u);
}

TEST(SbShaderSuite, EvergreenDskipSplitsStages) { suite_dskip_split("evergreen"); }
TEST(SbShaderSuite, R700DskipSplitsStages) { suite_dskip_split("r700"); }

} // namespace
