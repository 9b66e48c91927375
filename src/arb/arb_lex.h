/*
 * Tokenizer for ARB program text.  Internal to src/arb.
 *
 * The whole program is tokenized up front; tokenizing stops after the END
 * keyword because the specs say anything after END is ignored.
 */
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/diag.h"

namespace sbcc::arb {

enum class TokKind : uint8_t {
   Ident,
   Int,     /* digits only: usable as an index or a float */
   Float,   /* has a '.' or an exponent */
   Punct,   /* one of ; , . [ ] { } = + - */
   DotDot,  /* .. in ranges */
   Eof,
};

struct Token {
   TokKind kind = TokKind::Eof;
   std::string_view text;
   SourceLoc loc;
   int64_t int_value = 0; /* Int: value, saturated at kIntMax */
   float float_value = 0; /* Int and Float */

   bool is(char c) const { return kind == TokKind::Punct && text.size() == 1 && text[0] == c; }
   bool is_ident(std::string_view s) const { return kind == TokKind::Ident && text == s; }
};

inline constexpr int64_t kIntMax = int64_t(1) << 40;

/* Tokenize text starting at byte `start` (after the header), whose line and
 * column are `start_loc`.  Lexical errors go to diags.  The result always ends
 * with an Eof token. */
std::vector<Token> tokenize(std::string_view text, size_t start, SourceLoc start_loc,
                            std::string_view file_name, Diagnostics &diags);

} // namespace sbcc::arb
