#include "arb/arb_lex.h"

#include <charconv>
#include <cstdio>
#include <string>

namespace sbcc::arb {

namespace {

bool is_ident_start(char c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

std::string describe_char(char c)
{
   unsigned char u = static_cast<unsigned char>(c);
   if (u >= 0x21 && u < 0x7f)
      return std::string("'") + c + "'";
   char buf[16];
   std::snprintf(buf, sizeof(buf), "0x%02x", u);
   return buf;
}

class Lexer {
 public:
   Lexer(std::string_view text, size_t start, SourceLoc loc, std::string_view file,
         Diagnostics &diags)
      : text_(text), pos_(start), line_(loc.line), col_(loc.column), file_(file), diags_(diags)
   {
   }

   std::vector<Token> run();

 private:
   char peek(size_t ahead = 0) const
   {
      return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
   }
   bool at_end() const { return pos_ >= text_.size(); }
   void advance()
   {
      if (text_[pos_] == '\n') {
         line_++;
         col_ = 1;
      } else {
         col_++;
      }
      pos_++;
   }
   SourceLoc loc() const { return SourceLoc{line_, col_}; }
   void lex_number(Token &tok);

   std::string_view text_;
   size_t pos_;
   uint32_t line_, col_;
   std::string_view file_;
   Diagnostics &diags_;
};

void Lexer::lex_number(Token &tok)
{
   size_t begin = pos_;
   bool is_float = false;
   while (is_digit(peek()))
      advance();
   /* "0..3" is an index range, so a '.' followed by another '.' ends the
    * number instead of starting a fraction. */
   if (peek() == '.' && peek(1) != '.') {
      is_float = true;
      advance();
      while (is_digit(peek()))
         advance();
   }
   if ((peek() == 'e' || peek() == 'E') &&
       (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
      is_float = true;
      advance();
      if (peek() == '+' || peek() == '-')
         advance();
      while (is_digit(peek()))
         advance();
   }
   tok.text = text_.substr(begin, pos_ - begin);
   tok.kind = is_float ? TokKind::Float : TokKind::Int;

   /* from_chars does not accept "1." or ".5" forms uniformly; normalise. */
   std::string s(tok.text);
   if (!s.empty() && s[0] == '.')
      s.insert(s.begin(), '0');
   float f = 0;
   auto res = std::from_chars(s.data(), s.data() + s.size(), f);
   if (res.ec == std::errc::result_out_of_range) {
      diags_.error(file_, tok.loc, "number '" + std::string(tok.text) + "' is out of range");
      f = 0;
   }
   tok.float_value = f;
   if (!is_float) {
      int64_t v = 0;
      for (char c : tok.text) {
         v = v * 10 + (c - '0');
         if (v > kIntMax)
            v = kIntMax;
      }
      tok.int_value = v;
   }
}

std::vector<Token> Lexer::run()
{
   std::vector<Token> out;
   while (true) {
      /* Whitespace and comments. */
      while (!at_end()) {
         char c = peek();
         if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            advance();
         } else if (c == '#') {
            while (!at_end() && peek() != '\n')
               advance();
         } else if (c == '/' && peek(1) == '*') {
            /* Not in the ARB specs, but common in hand-written programs. */
            SourceLoc start = loc();
            advance();
            advance();
            while (!at_end() && !(peek() == '*' && peek(1) == '/'))
               advance();
            if (at_end()) {
               diags_.error(file_, start, "unterminated comment");
               break;
            }
            advance();
            advance();
         } else {
            break;
         }
      }

      Token tok;
      tok.loc = loc();
      if (at_end()) {
         tok.kind = TokKind::Eof;
         out.push_back(tok);
         return out;
      }

      char c = peek();
      size_t begin = pos_;
      if (is_ident_start(c)) {
         while (is_ident_char(peek()))
            advance();
         tok.kind = TokKind::Ident;
         tok.text = text_.substr(begin, pos_ - begin);
         out.push_back(tok);
         if (tok.text == "END") {
            /* Text after END is ignored by definition. */
            Token eof;
            eof.kind = TokKind::Eof;
            eof.loc = loc();
            out.push_back(eof);
            return out;
         }
      } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
         lex_number(tok);
         out.push_back(tok);
      } else if (c == '.' && peek(1) == '.') {
         advance();
         advance();
         tok.kind = TokKind::DotDot;
         tok.text = text_.substr(begin, 2);
         out.push_back(tok);
      } else if (c == ';' || c == ',' || c == '.' || c == '[' || c == ']' || c == '{' ||
                 c == '}' || c == '=' || c == '+' || c == '-') {
         advance();
         tok.kind = TokKind::Punct;
         tok.text = text_.substr(begin, 1);
         out.push_back(tok);
      } else {
         diags_.error(file_, tok.loc, "unexpected character " + describe_char(c));
         advance();
         /* Bound the work on binary garbage: diagnostics are capped anyway. */
         if (diags_.num_errors() > 50) {
            Token eof;
            eof.kind = TokKind::Eof;
            eof.loc = loc();
            out.push_back(eof);
            return out;
         }
      }
   }
}

} // namespace

std::vector<Token> tokenize(std::string_view text, size_t start, SourceLoc start_loc,
                            std::string_view file_name, Diagnostics &diags)
{
   Lexer lx(text, start, start_loc, file_name, diags);
   return lx.run();
}

} // namespace sbcc::arb
