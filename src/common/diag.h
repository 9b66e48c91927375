/*
 * Diagnostics shared by every component: a source location, a message and a
 * list to collect them in.  Parsers and backends report through this instead
 * of throwing or printing, so the library never aborts on bad input.
 *
 * May use: the C++ standard library only.
 */
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sbcc {

struct SourceLoc {
   uint32_t line = 0;   /* 1-based; 0 = unknown */
   uint32_t column = 0; /* 1-based; 0 = unknown */
};

enum class Severity : uint8_t { Note, Warning, Error };

struct Diagnostic {
   Severity severity = Severity::Error;
   std::string file;
   SourceLoc loc;
   std::string message;

   /* "file:line:column: error: message", omitting unknown parts. */
   std::string str() const;
};

class Diagnostics {
 public:
   void report(Severity sev, std::string_view file, SourceLoc loc, std::string message);
   void error(std::string_view file, SourceLoc loc, std::string message)
   {
      report(Severity::Error, file, loc, std::move(message));
   }
   void warning(std::string_view file, SourceLoc loc, std::string message)
   {
      report(Severity::Warning, file, loc, std::move(message));
   }
   /* Errors without a source position (limits, internal failures). */
   void error(std::string message) { report(Severity::Error, {}, {}, std::move(message)); }

   bool has_errors() const { return num_errors_ > 0; }
   unsigned num_errors() const { return num_errors_; }
   const std::vector<Diagnostic> &all() const { return list_; }
   void clear();
   /* All diagnostics, one per line. */
   std::string str() const;

 private:
   std::vector<Diagnostic> list_;
   unsigned num_errors_ = 0;
};

} // namespace sbcc
