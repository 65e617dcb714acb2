// Lexing and precedence-climbing parsing of govaluate expressions into expr_ast nodes.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>

#include <fmt/format.h>

#include "expr/expr_ast.hpp"
#include "ganglion/dsl/compile_error.hpp"

namespace ganglion::dsl {

namespace {

using expr_ast::op;

/// Nesting deeper than this is rejected so evaluation recursion stays bounded.
constexpr std::size_t max_depth = 256;

enum class tok : std::uint8_t { number, string, boolean, name, oper, lparen, rparen, comma, end };

struct token {
  tok kind = tok::end;
  std::size_t offset = 0;
  std::string text;
  double number = 0;
  bool boolean = false;
  /// name: the root and member parts (`a.b` → a, b).
  std::vector<std::string> parts;
  /// The source text of the token, for messages.
  std::string_view spelling;
};

bool is_letter(char c) {
  auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || u >= 0x80;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

/// Binary operators: spelling, node kind and precedence (higher binds tighter).
struct binary_op {
  std::string_view spelling;
  op kind;
  int precedence;
};

constexpr binary_op binary_ops[] = {
  {"??", op::coalesce, 1},   {"?", op::ternary_true, 1}, {":", op::ternary_false, 1},
  {"||", op::or_, 2},        {"&&", op::and_, 3},        {"==", op::eq, 4},
  {"!=", op::ne, 4},         {">=", op::ge, 4},          {"<=", op::le, 4},
  {"=~", op::req, 4},        {"!~", op::nreq, 4},        {">", op::gt, 4},
  {"<", op::lt, 4},          {"in", op::in, 4},          {"&", op::bit_and, 5},
  {"|", op::bit_or, 5},      {"^", op::bit_xor, 5},      {"<<", op::shl, 6},
  {">>", op::shr, 6},        {"+", op::add, 7},          {"-", op::sub, 7},
  {"*", op::mul, 8},         {"/", op::div, 8},          {"%", op::mod, 8},
  {"**", op::pow, 9},
};

/// Every operator spelling, longest first so `**` wins over `*`.
constexpr std::string_view operator_spellings[] = {
  "??", "||", "&&", "==", "!=", ">=", "<=", "=~", "!~", "<<", ">>", "**", "?", ":", ">",
  "<",  "&",  "|",  "^",  "+",  "-",  "*",  "/",  "%",  "!",  "~",
};

class lexer {
public:
  explicit lexer(std::string_view src) : src_(src) {}

  [[noreturn]] void fail(std::string_view what, std::size_t at) const {
    throw compile_error(fmt::format("expression '{}': {} at offset {}", src_, what, at), at);
  }

  std::vector<token> run() {
    std::vector<token> out;
    for (;;) {
      while (pos_ < src_.size() && (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\n'
                                    || src_[pos_] == '\r'))
        ++pos_;
      token t;
      t.offset = pos_;
      if (pos_ == src_.size()) {
        out.push_back(std::move(t));
        return out;
      }
      char c = src_[pos_];
      if (is_digit(c) || c == '.')
        read_number(t);
      else if (c == '"' || c == '\'')
        read_string(t, c);
      else if (c == '[')
        read_bracket_name(t);
      else if (is_letter(c))
        read_name(t);
      else if (c == '(' || c == ')' || c == ',') {
        t.kind = c == '(' ? tok::lparen : c == ')' ? tok::rparen : tok::comma;
        t.text = std::string(1, c);
        ++pos_;
      } else
        read_operator(t);
      t.spelling = src_.substr(t.offset, pos_ - t.offset);
      out.push_back(std::move(t));
    }
  }

private:
  void read_number(token& t) {
    t.kind = tok::number;
    std::size_t start = pos_;
    if (src_.substr(pos_, 2) == "0x") {
      pos_ += 2;
      while (pos_ < src_.size() && std::isxdigit(static_cast<unsigned char>(src_[pos_])))
        ++pos_;
      std::uint64_t v = 0;
      auto digits = src_.substr(start + 2, pos_ - start - 2);
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, 16);
      if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
        fail(fmt::format("unable to parse hex value '{}' to uint64", src_.substr(start, pos_ - start)),
             start);
      t.number = static_cast<double>(v);
      return;
    }
    while (pos_ < src_.size() && (is_digit(src_[pos_]) || src_[pos_] == '.'))
      ++pos_;
    auto text = src_.substr(start, pos_ - start);
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), t.number);
    if (ec != std::errc() || end != text.data() + text.size())
      fail(fmt::format("unable to parse numeric value '{}' to float64", text), start);
  }

  void read_string(token& t, char quote) {
    t.kind = tok::string;
    std::size_t start = pos_++;
    while (pos_ < src_.size() && src_[pos_] != quote) {
      if (src_[pos_] == '\\' && pos_ + 1 < src_.size())
        ++pos_;
      t.text += src_[pos_++];
    }
    if (pos_ == src_.size())
      fail("unclosed string literal", start);
    ++pos_;
  }

  void read_bracket_name(token& t) {
    t.kind = tok::name;
    std::size_t start = pos_++;
    while (pos_ < src_.size() && src_[pos_] != ']') {
      if (src_[pos_] == '\\' && pos_ + 1 < src_.size())
        ++pos_;
      t.text += src_[pos_++];
    }
    if (pos_ == src_.size())
      fail("unclosed parameter bracket", start);
    ++pos_;
    t.parts.push_back(t.text);
  }

  void read_name(token& t) {
    std::size_t start = pos_;
    std::string part;
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '\\' && pos_ + 1 < src_.size()) {
        part += src_[pos_ + 1];
        t.text += src_[pos_ + 1];
        pos_ += 2;
        continue;
      }
      if (!is_letter(c) && !is_digit(c) && c != '_' && c != '.')
        break;
      if (c == '.') {
        if (part.empty())
          fail(fmt::format("empty accessor in '{}'", src_.substr(start, pos_ + 1 - start)), pos_);
        t.parts.push_back(std::move(part));
        part.clear();
      } else
        part += c;
      t.text += c;
      ++pos_;
    }
    if (part.empty())
      fail(fmt::format("hanging accessor on token '{}'", t.text), start);
    t.parts.push_back(std::move(part));
    if (t.text == "true" || t.text == "false") {
      t.kind = tok::boolean;
      t.boolean = t.text == "true";
    } else if (t.text == "in" || t.text == "IN") {
      t.kind = tok::oper;
      t.text = "in";
    } else
      t.kind = tok::name;
  }

  void read_operator(token& t) {
    for (auto s : operator_spellings) {
      if (src_.substr(pos_, s.size()) == s) {
        t.kind = tok::oper;
        t.text = std::string(s);
        pos_ += s.size();
        return;
      }
    }
    fail(fmt::format("invalid token '{}'", src_[pos_]), pos_);
  }

  std::string_view src_;
  std::size_t pos_ = 0;
};

class parser {
public:
  parser(std::string_view src, std::vector<token> tokens, expression::impl& out)
    : src_(src), tokens_(std::move(tokens)), out_(out) {}

  void run() {
    if (tokens_.front().kind == tok::end)
      fail("empty expression", 0);
    out_.root = parse_list();
    if (peek().kind != tok::end) {
      if (peek().kind == tok::rparen)
        fail("unbalanced parenthesis", peek().offset);
      fail(fmt::format("unexpected '{}'", peek().spelling), peek().offset);
    }
  }

private:
  [[noreturn]] void fail(std::string_view what, std::size_t at) const {
    throw compile_error(fmt::format("expression '{}': {} at offset {}", src_, what, at), at);
  }

  const token& peek() const { return tokens_[pos_]; }
  const token& next() { return tokens_[pos_++]; }

  std::int32_t add(expr_ast::node n, std::size_t at) {
    std::size_t depth = 1;
    auto child_depth = [&](std::int32_t i) {
      if (i >= 0)
        depth = std::max(depth, depths_[static_cast<std::size_t>(i)] + 1);
    };
    child_depth(n.lhs);
    child_depth(n.rhs);
    for (auto i : n.items)
      child_depth(i);
    if (depth > max_depth)
      fail("expression is nested too deeply", at);
    out_.nodes.push_back(std::move(n));
    depths_.push_back(depth);
    return static_cast<std::int32_t>(out_.nodes.size() - 1);
  }

  std::int32_t literal(expr_value v, std::size_t at) {
    out_.literals.push_back(std::move(v));
    expr_ast::node n;
    n.kind = op::literal;
    n.index = static_cast<std::uint32_t>(out_.literals.size() - 1);
    return add(std::move(n), at);
  }

  struct guard {
    explicit guard(parser& p) : p_(p) {
      if (++p_.nesting_ > max_depth)
        p_.fail("expression is nested too deeply", p_.peek().offset);
    }
    ~guard() { --p_.nesting_; }
    parser& p_;
  };

  // list := binary(0) (',' binary(0))*
  std::int32_t parse_list() {
    guard g(*this);
    std::size_t at = peek().offset;
    auto first = parse_binary(1);
    if (peek().kind != tok::comma)
      return first;
    expr_ast::node n;
    n.kind = op::list;
    n.items.push_back(first);
    while (peek().kind == tok::comma) {
      next();
      n.items.push_back(parse_binary(1));
    }
    return add(std::move(n), at);
  }

  std::optional<binary_op> peek_binary() const {
    const auto& t = peek();
    if (t.kind != tok::oper)
      return std::nullopt;
    for (const auto& b : binary_ops)
      if (b.spelling == t.text)
        return b;
    return std::nullopt;
  }

  std::int32_t parse_binary(int min_precedence) {
    guard g(*this);
    auto lhs = parse_prefix();
    for (;;) {
      auto b = peek_binary();
      if (!b || b->precedence < min_precedence)
        return lhs;
      std::size_t at = next().offset;
      auto rhs = parse_binary(b->precedence + 1);
      expr_ast::node n;
      n.kind = b->kind;
      n.lhs = lhs;
      n.rhs = rhs;
      if (b->kind == op::req || b->kind == op::nreq)
        precompile_regex(n);
      lhs = add(std::move(n), at);
    }
  }

  void precompile_regex(expr_ast::node& n) {
    const auto& r = out_.nodes[static_cast<std::size_t>(n.rhs)];
    if (r.kind != op::literal || !out_.literals[r.index].is_string())
      return;
    const auto& pattern = std::get<std::string>(out_.literals[r.index].v);
    RE2::Options options;
    options.set_log_errors(false);
    auto re = std::make_shared<RE2>(pattern, options);
    if (!re->ok())
      fail(fmt::format("unable to compile regexp pattern '{}': {}", pattern, re->error()),
           tokens_[pos_ - 1].offset);
    n.regex = std::move(re);
  }

  std::int32_t parse_prefix() {
    guard g(*this);
    const auto& t = peek();
    if (t.kind == tok::oper && (t.text == "!" || t.text == "-" || t.text == "~")) {
      std::size_t at = next().offset;
      expr_ast::node n;
      n.kind = t.text == "!" ? op::invert : t.text == "-" ? op::negate : op::bit_not;
      n.rhs = parse_prefix();
      return add(std::move(n), at);
    }
    return parse_primary();
  }

  std::int32_t parse_primary() {
    const auto& t = next();
    switch (t.kind) {
      case tok::number: return literal(t.number, t.offset);
      case tok::string: return literal(t.text, t.offset);
      case tok::boolean: return literal(t.boolean, t.offset);
      case tok::name: return variable(t);
      case tok::lparen: {
        if (peek().kind == tok::rparen)
          fail("empty parentheses", t.offset);
        auto inner = parse_list();
        if (peek().kind != tok::rparen)
          fail("unbalanced parenthesis", t.offset);
        next();
        return inner;
      }
      case tok::end: fail("expression ends after an operator", t.offset);
      default: fail(fmt::format("unexpected '{}'", t.spelling), t.offset);
    }
  }

  std::int32_t variable(const token& t) {
    expr_ast::node n;
    n.kind = op::variable;
    const auto& root = t.parts.front();
    std::size_t i = 0;
    while (i < out_.variables.size() && out_.variables[i] != root)
      ++i;
    if (i == out_.variables.size())
      out_.variables.push_back(root);
    n.index = static_cast<std::uint32_t>(i);
    n.members.assign(t.parts.begin() + 1, t.parts.end());
    return add(std::move(n), t.offset);
  }

  std::string_view src_;
  std::vector<token> tokens_;
  expression::impl& out_;
  std::size_t pos_ = 0;
  std::size_t nesting_ = 0;
  std::vector<std::size_t> depths_;
};

} // namespace

expression expression::compile(std::string_view text) {
  auto program = std::make_shared<impl>();
  program->text = std::string(text);
  parser(text, lexer(text).run(), *program).run();
  expression out;
  out.impl_ = std::move(program);
  return out;
}

} // namespace ganglion::dsl
