#include "common/diag.h"

namespace sbcc {

static std::string_view severity_name(Severity s)
{
   switch (s) {
   case Severity::Note: return "note";
   case Severity::Warning: return "warning";
   case Severity::Error: return "error";
   }
   return "error";
}

std::string Diagnostic::str() const
{
   std::string out;
   if (!file.empty()) {
      out += file;
      out += ':';
   }
   if (loc.line) {
      out += std::to_string(loc.line);
      out += ':';
      if (loc.column) {
         out += std::to_string(loc.column);
         out += ':';
      }
   }
   if (!out.empty())
      out += ' ';
   out += severity_name(severity);
   out += ": ";
   out += message;
   return out;
}

void Diagnostics::report(Severity sev, std::string_view file, SourceLoc loc, std::string message)
{
   /* A corrupt input can produce an error per byte; keep the list bounded. */
   constexpr size_t kMaxDiagnostics = 100;
   if (sev == Severity::Error)
      num_errors_++;
   if (list_.size() < kMaxDiagnostics)
      list_.push_back(Diagnostic{sev, std::string(file), loc, std::move(message)});
}

void Diagnostics::clear()
{
   list_.clear();
   num_errors_ = 0;
}

std::string Diagnostics::str() const
{
   std::string out;
   for (const Diagnostic &d : list_) {
      out += d.str();
      out += '\n';
   }
   if (num_errors_ > list_.size())
      out += "(further errors omitted)\n";
   return out;
}

} // namespace sbcc
