// The lexer of Go text/template: text, `{{ }}` actions with trim markers, comments.

#include <cctype>

#include <fmt/format.h>

#include "ganglion/dsl/compile_error.hpp"
#include "tmpl/go_template_ast.hpp"

namespace ganglion::dsl::tmpl {

namespace {

constexpr std::string_view left_delim = "{{";
constexpr std::string_view right_delim = "}}";

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class lexer {
public:
  explicit lexer(std::string_view src) : src_(src) {}

  std::vector<token> run() {
    bool trim_next = false;
    while (pos_ < src_.size()) {
      auto open = src_.find(left_delim, pos_);
      std::size_t end = open == std::string_view::npos ? src_.size() : open;
      std::string_view text = src_.substr(pos_, end - pos_);
      bool trim_before = open != std::string_view::npos && open + 3 < src_.size() &&
                         src_[open + 2] == '-' && is_space(src_[open + 3]);
      if (trim_next)
        while (!text.empty() && is_space(text.front()))
          text.remove_prefix(1);
      if (trim_before)
        while (!text.empty() && is_space(text.back()))
          text.remove_suffix(1);
      if (!text.empty())
        out_.push_back({tok::text, std::string(text), pos_});
      if (open == std::string_view::npos)
        break;
      pos_ = open + 2 + (trim_before ? 2 : 0);
      trim_next = action(open);
    }
    out_.push_back({tok::eof, "", src_.size()});
    return std::move(out_);
  }

private:
  [[noreturn]] void fail(const std::string& what, std::size_t at) {
    throw compile_error(fmt::format("template: {} at offset {}", what, at), at);
  }

  // At a right delimiter, possibly with a trim marker; returns its length (0 if none).
  std::size_t at_right(bool& trim) const {
    if (pos_ < src_.size() && is_space(src_[pos_]) && src_.substr(pos_ + 1, 3) == "-}}") {
      trim = true;
      return 4;
    }
    if (src_.substr(pos_, 2) == right_delim) {
      trim = false;
      return 2;
    }
    return 0;
  }

  // Lexes one action starting after its left delimiter; returns whether it trims after.
  bool action(std::size_t open) {
    std::size_t p = pos_;
    if (src_.substr(p, 2) == "/*") {
      auto close = src_.find("*/", p + 2);
      if (close == std::string_view::npos)
        fail("unclosed comment", open);
      pos_ = close + 2;
      bool trim = false;
      std::size_t n = at_right(trim);
      if (n == 0)
        fail("comment ends before closing delimiter", pos_);
      pos_ += n;
      return trim;
    }
    out_.push_back({tok::left, "{{", open});
    for (;;) {
      bool trim = false;
      if (std::size_t n = at_right(trim)) {
        out_.push_back({tok::right, "}}", pos_});
        pos_ += n;
        return trim;
      }
      if (pos_ >= src_.size())
        fail("unclosed action", open);
      char c = src_[pos_];
      std::size_t start = pos_;
      if (is_space(c)) {
        ++pos_;
      } else if (c == '|' || c == '(' || c == ')' || c == ',' || c == '=') {
        static constexpr tok kinds[] = {tok::pipe, tok::left_paren, tok::right_paren, tok::comma,
                                        tok::assign};
        out_.push_back({kinds[std::string_view("|(),=").find(c)], std::string(1, c), start});
        ++pos_;
      } else if (c == ':') {
        if (src_.substr(pos_, 2) != ":=")
          fail("expected :=", start);
        out_.push_back({tok::declare, ":=", start});
        pos_ += 2;
      } else if (c == '"') {
        quoted(start);
      } else if (c == '`') {
        auto close = src_.find('`', pos_ + 1);
        if (close == std::string_view::npos)
          fail("unterminated raw quoted string", start);
        out_.push_back({tok::string, std::string(src_.substr(pos_ + 1, close - pos_ - 1)), start});
        pos_ = close + 1;
      } else if (c == '\'') {
        fail("character constants are not supported", start);
      } else if (c == '$') {
        ++pos_;
        while (pos_ < src_.size() && is_word(src_[pos_]))
          ++pos_;
        out_.push_back({tok::variable, std::string(src_.substr(start, pos_ - start)), start});
      } else if (c == '.') {
        if (pos_ + 1 < src_.size() && std::isdigit(static_cast<unsigned char>(src_[pos_ + 1]))) {
          number(start);
          continue;
        }
        ++pos_;
        while (pos_ < src_.size() && is_word(src_[pos_]))
          ++pos_;
        if (pos_ == start + 1)
          out_.push_back({tok::dot, ".", start});
        else
          out_.push_back({tok::field, std::string(src_.substr(start + 1, pos_ - start - 1)), start});
      } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+') {
        number(start);
      } else if (is_word(c)) {
        while (pos_ < src_.size() && is_word(src_[pos_]))
          ++pos_;
        std::string word(src_.substr(start, pos_ - start));
        tok kind = tok::identifier;
        if (word == "true" || word == "false")
          kind = tok::boolean;
        else if (word == "nil")
          kind = tok::nil;
        else if (word == "if" || word == "else" || word == "end" || word == "range" ||
                 word == "with" || word == "define" || word == "template" || word == "block" ||
                 word == "break" || word == "continue")
          kind = tok::keyword;
        out_.push_back({kind, std::move(word), start});
      } else {
        fail(fmt::format("unexpected '{}' in action", c), start);
      }
    }
  }

  void number(std::size_t start) {
    if (src_[pos_] == '-' || src_[pos_] == '+')
      ++pos_;
    while (pos_ < src_.size() &&
           (std::isalnum(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '.' ||
            src_[pos_] == '_' ||
            ((src_[pos_] == '-' || src_[pos_] == '+') &&
             std::string_view("eEpP").find(src_[pos_ - 1]) != std::string_view::npos)))
      ++pos_;
    std::string text(src_.substr(start, pos_ - start));
    if (text == "-" || text == "+")
      fail(fmt::format("bad number syntax: \"{}\"", text), start);
    out_.push_back({tok::number, std::move(text), start});
  }

  void quoted(std::size_t start) {
    std::string out;
    ++pos_;
    for (;;) {
      if (pos_ >= src_.size() || src_[pos_] == '\n')
        fail("unterminated quoted string", start);
      char c = src_[pos_++];
      if (c == '"')
        break;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= src_.size())
        fail("unterminated quoted string", start);
      char e = src_[pos_++];
      switch (e) {
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'v': out += '\v'; break;
        case '\\': out += '\\'; break;
        case '"': out += '"'; break;
        case 'x': case 'u': case 'U': {
          std::size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          if (pos_ + n > src_.size())
            fail("invalid escape in quoted string", pos_ - 2);
          std::uint32_t cp = 0;
          for (std::size_t i = 0; i < n; ++i) {
            char h = src_[pos_ + i];
            if (!std::isxdigit(static_cast<unsigned char>(h)))
              fail("invalid escape in quoted string", pos_ - 2);
            cp = cp * 16 + static_cast<std::uint32_t>(std::isdigit(static_cast<unsigned char>(h))
                                                        ? h - '0'
                                                        : (std::tolower(h) - 'a' + 10));
          }
          pos_ += n;
          if (e == 'x')
            out += static_cast<char>(cp);
          else
            append_utf8(out, cp);
          break;
        }
        default:
          if (e >= '0' && e <= '7' && pos_ + 1 < src_.size()) {
            std::uint32_t v = static_cast<std::uint32_t>(e - '0');
            for (int i = 0; i < 2; ++i) {
              char d = src_[pos_++];
              if (d < '0' || d > '7')
                fail("invalid escape in quoted string", pos_ - 1);
              v = v * 8 + static_cast<std::uint32_t>(d - '0');
            }
            if (v > 255)
              fail("invalid escape in quoted string", pos_ - 4);
            out += static_cast<char>(v);
            break;
          }
          fail("invalid escape in quoted string", pos_ - 2);
      }
    }
    out_.push_back({tok::string, std::move(out), start});
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  std::vector<token> out_;
};

} // namespace

std::vector<token> lex(std::string_view source) {
  return lexer(source).run();
}

} // namespace ganglion::dsl::tmpl
