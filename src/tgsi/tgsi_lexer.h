/*
 * Character-level scanning for the TGSI text parser.
 *
 * tgsi_dump output is line oriented, so the parser works one line at a time
 * through a LineCursor: a position inside a string_view of the line, with
 * helpers for the few token shapes TGSI has (words, unsigned integers,
 * single punctuation characters).  Nothing here allocates: every token is a
 * string_view into the caller's text, which keeps parsing fast on the
 * multi-megabyte corpus shaders.
 *
 * May use: the C++ standard library only.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sbcc::tgsi {

inline bool is_word_char(char c)
{
   return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
          c == '_';
}

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Blanks inside a line; '\n' ends the line and is never seen here. */
inline bool is_blank(char c)
{
   return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

inline char to_upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c; }

/* Case-insensitive comparison against an upper-case keyword; tgsi_text
 * accepts keywords in any case, so sbcc does too. */
inline bool keyword_equals(std::string_view word, std::string_view upper)
{
   if (word.size() != upper.size())
      return false;
   for (size_t i = 0; i < word.size(); i++)
      if (to_upper(word[i]) != upper[i])
         return false;
   return true;
}

/* Printable form of a token for diagnostics: control and non-ASCII bytes
 * become \xNN so a message never carries raw garbage, and long tokens are
 * cut so a 1 MB line cannot produce a 1 MB message. */
inline std::string quote_token(std::string_view tok)
{
   constexpr size_t kMaxShown = 40;
   static constexpr char kHex[] = "0123456789abcdef";
   std::string out;
   size_t n = tok.size() < kMaxShown ? tok.size() : kMaxShown;
   for (size_t i = 0; i < n; i++) {
      unsigned char c = static_cast<unsigned char>(tok[i]);
      if (c < 0x20 || c >= 0x7f) {
         out += "\\x";
         out += kHex[c >> 4];
         out += kHex[c & 15];
      } else {
         out += static_cast<char>(c);
      }
   }
   if (tok.size() > kMaxShown)
      out += "...";
   return out;
}

class LineCursor {
 public:
   static constexpr int kEnd = -1;

   LineCursor(std::string_view line, uint32_t line_no) : text_(line), line_no_(line_no) {}

   uint32_t line() const { return line_no_; }
   /* 1-based byte column of the current position. */
   uint32_t column() const { return static_cast<uint32_t>(pos_ + 1); }
   uint32_t column_at(size_t pos) const { return static_cast<uint32_t>(pos + 1); }
   size_t pos() const { return pos_; }
   void set_pos(size_t p) { pos_ = p; }
   std::string_view text() const { return text_; }

   bool at_end() const { return pos_ >= text_.size(); }
   /* Next byte, or kEnd; NUL bytes are real characters here, not ends. */
   int peek() const { return at_end() ? kEnd : static_cast<unsigned char>(text_[pos_]); }
   int peek_at(size_t off) const
   {
      return pos_ + off < text_.size() ? static_cast<unsigned char>(text_[pos_ + off]) : kEnd;
   }
   void advance(size_t n = 1) { pos_ = pos_ + n < text_.size() ? pos_ + n : text_.size(); }

   void skip_ws()
   {
      while (pos_ < text_.size() && is_blank(text_[pos_]))
         pos_++;
   }

   /* Skip blanks, then consume c if it is next. */
   bool accept(char c)
   {
      skip_ws();
      if (pos_ < text_.size() && text_[pos_] == c) {
         pos_++;
         return true;
      }
      return false;
   }

   /* [A-Za-z0-9_]* at the current position (may be empty). */
   std::string_view word()
   {
      size_t start = pos_;
      while (pos_ < text_.size() && is_word_char(text_[pos_]))
         pos_++;
      return text_.substr(start, pos_ - start);
   }

   /* Word at the current position without consuming it. */
   std::string_view peek_word() const
   {
      size_t end = pos_;
      while (end < text_.size() && is_word_char(text_[end]))
         end++;
      return text_.substr(pos_, end - pos_);
   }

   /* The token starting here, for "unexpected 'x'" messages: a word, or a
    * single other character. */
   std::string_view token_here() const
   {
      if (at_end())
         return {};
      std::string_view w = peek_word();
      return w.empty() ? text_.substr(pos_, 1) : w;
   }

   /* Decimal digits.  Returns false when there are none.  Values above
    * `limit` set *overflow and saturate instead of wrapping. */
   bool uint(uint64_t limit, uint64_t *value, bool *overflow)
   {
      if (pos_ >= text_.size() || !is_digit(text_[pos_]))
         return false;
      uint64_t v = 0;
      *overflow = false;
      while (pos_ < text_.size() && is_digit(text_[pos_])) {
         if (!*overflow) {
            v = v * 10 + static_cast<uint64_t>(text_[pos_] - '0');
            if (v > limit)
               *overflow = true;
         }
         pos_++;
      }
      *value = *overflow ? limit : v;
      return true;
   }

 private:
   std::string_view text_;
   size_t pos_ = 0;
   uint32_t line_no_;
};

} // namespace sbcc::tgsi
