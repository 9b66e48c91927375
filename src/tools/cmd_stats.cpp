/* sbcc stats: shader-db style statistics, one line per shader stage. */
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "tools/tools_common.h"

namespace sbcc::tools {

namespace {

struct Job {
   std::string path;
   std::string out; /* stdout lines */
   std::string err; /* stderr lines */
   bool failed = false;
   bool done = false;
};

void run_job(Job &job, const CompileOptions &opts)
{
   Diagnostics d;
   auto target = make_target(opts.target, d);
   auto stages = target ? load_shader_file(job.path, d) : std::nullopt;
   if (stages) {
      for (const auto &st : *stages) {
         ShaderStats stats;
         if (!target->compile(st.shader, opts, d, &stats)) {
            job.failed = true;
            continue;
         }
         job.out += job.path + " - " + st.stage + " shader: " + stats.str() + "\n";
      }
   } else {
      job.failed = true;
   }
   for (const auto &diag : d.all())
      job.err += diag.str() + "\n";
}

} // namespace

int cmd_stats(int argc, char **argv)
{
   std::vector<OptionSpec> specs = kTargetOptions;
   specs.push_back({"-j", true, "parallel jobs (default 1)"});
   ParsedArgs args;
   if (!parse_args("stats", argc, argv, specs, args))
      return 2;
   if (args.help) {
      printf("usage: sbcc stats [options] PATH...\n"
             "Compiles every shader file (.tgsi, .shader_test, .vp, .fp, .arb) named or found\n"
             "recursively under the directories, in sorted order, and prints one line per stage:\n"
             "  <file> - <stage> shader: <n> <stat>, <n> <stat>, ...\n"
             "Output order does not depend on -j.  Exit status 1 when any file failed.\n"
             "options:\n");
      print_options(specs);
      return 0;
   }
   if (args.positional.empty()) {
      std::cerr << "sbcc stats: no input paths\n";
      return 2;
   }
   uint64_t jobs_n = 1;
   if (args.has("-j") && !parse_uint_option("stats", "-j", args.get("-j"), jobs_n))
      return 2;
   jobs_n = std::clamp<uint64_t>(jobs_n, 1, 256);
   CompileOptions opts = compile_options(args);
   {
      Diagnostics d;
      if (!make_target(opts.target, d)) {
         print_diags(d);
         return 2;
      }
   }

   std::vector<Job> jobs;
   int rc = 0;
   for (const auto &p : args.positional) {
      std::error_code ec;
      if (std::filesystem::is_directory(p, ec)) {
         std::vector<std::string> found;
         for (auto it = std::filesystem::recursive_directory_iterator(p, ec);
              !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec) && is_shader_file(it->path().string()))
               found.push_back(it->path().string());
         std::sort(found.begin(), found.end());
         for (auto &f : found)
            jobs.push_back({f, {}, {}, false, false});
      } else if (std::filesystem::exists(p, ec)) {
         jobs.push_back({p, {}, {}, false, false});
      } else {
         std::cerr << p << ": no such file or directory\n";
         rc = 1;
      }
   }

   std::mutex m;
   std::condition_variable cv;
   std::atomic<size_t> next{0};
   size_t finished = 0;
   auto worker = [&] {
      for (size_t i; (i = next.fetch_add(1)) < jobs.size();) {
         run_job(jobs[i], opts);
         std::lock_guard<std::mutex> lock(m);
         jobs[i].done = true;
         finished++;
         cv.notify_one();
      }
   };
   std::vector<std::thread> pool;
   for (uint64_t t = 0; t < std::min<uint64_t>(jobs_n, jobs.size()); t++)
      pool.emplace_back(worker);

   /* Print finished jobs in input order as soon as their turn comes. */
   bool progress = isatty(STDERR_FILENO);
   size_t printed = 0;
   while (printed < jobs.size()) {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [&] { return jobs[printed].done; });
      size_t done_now = finished;
      lock.unlock();
      while (printed < jobs.size()) {
         {
            std::lock_guard<std::mutex> l2(m);
            if (!jobs[printed].done)
               break;
         }
         Job &j = jobs[printed++];
         if (progress)
            fputs("\r\033[K", stderr);
         fputs(j.err.c_str(), stderr);
         fputs(j.out.c_str(), stdout);
         fflush(stdout);
         if (j.failed)
            rc = 1;
      }
      if (progress)
         fprintf(stderr, "\r[%zu/%zu] %s", done_now, jobs.size(),
                 printed < jobs.size() ? jobs[printed].path.c_str() : "");
   }
   for (auto &t : pool)
      t.join();
   if (progress)
      fputs("\r\033[K", stderr);
   return rc;
}

} // namespace sbcc::tools
