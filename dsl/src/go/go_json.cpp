// json.Marshal's output for the Go types Argo's event data structs hold: string, []byte,
// json.RawMessage (compacted by encoding/json's appendCompact) and string maps.

#include "ganglion/dsl/go/go_json.hpp"

#include <simdjson.h>

#include "ganglion/dsl/go/codec.hpp"
#include "go/strconv.hpp"

namespace ganglion::dsl {

namespace {

constexpr char hex_digits[] = "0123456789abcdef";

// Go's maxNestingDepth in encoding/json's scanner.
constexpr std::size_t max_depth = 10000;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// A walk over one JSON text with encoding/json's scanner grammar, copying all but the white
// space outside strings to `out`.
class compactor {
public:
  compactor(std::string_view in, std::string& out) : in_(in), out_(out) {}

  // True when the whole input is one JSON value.
  bool run() {
    std::vector<char> open;
    bool expect_value = true;
    for (;;) {
      skip_space();
      if (expect_value) {
        if (at_end())
          return false;
        char c = in_[i_];
        if (c == '{' || c == '[') {
          if (open.size() == max_depth)
            return false;
          copy(1);
          skip_space();
          if (!at_end() && in_[i_] == (c == '{' ? '}' : ']')) {
            copy(1);
            expect_value = false;
          } else {
            open.push_back(c);
            if (c == '{' && !member_key())
              return false;
          }
          continue;
        }
        if (!scalar())
          return false;
        expect_value = false;
        continue;
      }
      if (open.empty())
        return at_end();
      if (at_end())
        return false;
      char c = in_[i_];
      if (c == (open.back() == '{' ? '}' : ']')) {
        copy(1);
        open.pop_back();
        continue;
      }
      if (c != ',')
        return false;
      copy(1);
      if (open.back() == '{' && !member_key())
        return false;
      expect_value = true;
    }
  }

private:
  bool at_end() const { return i_ == in_.size(); }

  void skip_space() {
    while (!at_end() && is_space(in_[i_]))
      ++i_;
  }

  void copy(std::size_t n) {
    out_.append(in_.substr(i_, n));
    i_ += n;
  }

  bool accept(char c) {
    if (at_end() || in_[i_] != c)
      return false;
    copy(1);
    return true;
  }

  std::size_t digits() {
    std::size_t n = 0;
    while (!at_end() && is_digit(in_[i_])) {
      copy(1);
      ++n;
    }
    return n;
  }

  bool member_key() {
    skip_space();
    if (at_end() || in_[i_] != '"' || !string())
      return false;
    skip_space();
    return accept(':');
  }

  bool scalar() {
    char c = in_[i_];
    if (c == '"')
      return string();
    if (c == '-' || is_digit(c))
      return number();
    for (std::string_view word : {"true", "false", "null"})
      if (in_.substr(i_, word.size()) == word) {
        copy(word.size());
        return true;
      }
    return false;
  }

  // Any byte but `"`, `\` and control bytes stands for itself (UTF-8 is not checked).
  bool string() {
    copy(1);
    while (!at_end()) {
      auto c = static_cast<unsigned char>(in_[i_]);
      if (c == '"') {
        copy(1);
        return true;
      }
      if (c < 0x20)
        return false;
      if (c != '\\') {
        copy(1);
        continue;
      }
      if (i_ + 1 == in_.size())
        return false;
      char e = in_[i_ + 1];
      if (e == 'u') {
        if (i_ + 6 > in_.size())
          return false;
        for (std::size_t k = 2; k < 6; ++k)
          if (!is_hex(in_[i_ + k]))
            return false;
        copy(6);
      } else if (std::string_view("\"\\/bfnrt").find(e) != std::string_view::npos) {
        copy(2);
      } else {
        return false;
      }
    }
    return false;
  }

  bool number() {
    accept('-');
    if (accept('0')) {
      // a leading zero stands alone
    } else if (digits() == 0) {
      return false;
    }
    if (accept('.') && digits() == 0)
      return false;
    if (accept('e') || accept('E')) {
      if (!accept('+'))
        accept('-');
      if (digits() == 0)
        return false;
    }
    return true;
  }

  std::string_view in_;
  std::string& out_;
  std::size_t i_ = 0;
};

// appendCompact's HTML escaping of the compacted text from `from` on.
void escape_html(std::string& out, std::size_t from) {
  auto needs = [](char c) { return c == '<' || c == '>' || c == '&' || c == '\xE2'; };
  std::size_t first = from;
  while (first < out.size() && !needs(out[first]))
    ++first;
  if (first == out.size())
    return;
  std::string tail;
  tail.reserve((out.size() - first) + 16);
  for (std::size_t i = first; i < out.size(); ++i) {
    char c = out[i];
    if (c == '<' || c == '>' || c == '&') {
      tail += "\\u00";
      tail += hex_digits[static_cast<unsigned char>(c) >> 4];
      tail += hex_digits[c & 0xF];
    } else if (c == '\xE2' && i + 2 < out.size() && out[i + 1] == '\x80' &&
               (out[i + 2] == '\xA8' || out[i + 2] == '\xA9')) {
      tail += "\\u202";
      tail += hex_digits[out[i + 2] & 0xF];
      i += 2;
    } else {
      tail += c;
    }
  }
  out.resize(first);
  out += tail;
}

} // namespace

void append_go_json_string(std::string& out, std::string_view text) {
  go::append_json_string(out, text);
}

void append_go_json_bytes(std::string& out, std::string_view bytes) {
  out += '"';
  out += base64_encode(bytes);
  out += '"';
}

bool append_go_json_raw(std::string& out, std::string_view document, std::string& error) {
  const auto start = out.size();
  thread_local simdjson::dom::parser parser;
  auto parsed = parser.parse(document.data(), document.size());
  if (!parsed.error()) {
    out.resize(start + document.size());
    std::size_t length = 0;
    if (simdjson::minify(document.data(), document.size(), out.data() + start, length) ==
        simdjson::SUCCESS) {
      out.resize(start + length);
      escape_html(out, start);
      return true;
    }
    out.resize(start);
  }
  // simdjson also refuses what Go's grammar allows (invalid UTF-8, numbers out of range, lone
  // surrogate escapes): Go's scanner decides.
  if (compactor(document, out).run()) {
    escape_html(out, start);
    return true;
  }
  out.resize(start);
  error = parsed.error() ? simdjson::error_message(parsed.error()) : "cannot compact the JSON";
  return false;
}

bool append_go_json_body(std::string& out, std::string_view body, std::string_view what,
                         std::string& error) {
  if (body.empty()) {
    error = std::string(what) + " is empty, not JSON";
    return false;
  }
  if (!append_go_json_raw(out, body, error)) {
    error = std::string(what) + " is not valid JSON: " + error;
    return false;
  }
  return true;
}

void append_go_json_value(std::string& out, const std::vector<std::string>& values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0)
      out += ',';
    append_go_json_string(out, values[i]);
  }
  out += ']';
}

} // namespace ganglion::dsl
