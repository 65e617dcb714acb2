// Trigger conditions (Argo's getDependencyExpression): `!` over `&&` over `||`, parentheses,
// names of [A-Za-z0-9_.-]+, compiled to postfix code over variable indexes.

#include "ganglion/dsl/expr/condition.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include <fmt/format.h>

#include "ganglion/dsl/compile_error.hpp"

namespace ganglion::dsl {

namespace {

/// One postfix instruction: push a variable, or combine the top two values.
struct op {
  enum kind_t : std::uint8_t { push, and_, or_, not_ } kind;
  std::uint32_t variable = 0;
};

/// The evaluation stack is fixed so evaluate() never allocates.
constexpr std::size_t max_depth = 256;

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
         || c == '.' || c == '-';
}

/// The compiled condition.
struct program {
  std::string text;
  std::vector<std::string> variables;
  std::vector<op> code;
  bool needs_state = false;

  std::uint32_t variable(std::string_view name) {
    for (std::size_t i = 0; i < variables.size(); ++i)
      if (variables[i] == name)
        return static_cast<std::uint32_t>(i);
    variables.emplace_back(name);
    return static_cast<std::uint32_t>(variables.size() - 1);
  }
};

/// Recursive descent: or := and ('||' and)*; and := unary ('&&' unary)*;
/// unary := '!' unary | primary; primary := name | '(' or ')'.
class condition_parser {
public:
  condition_parser(std::string_view src, program& out) : src_(src), out_(out) {}

  void run() {
    skip_ws();
    if (pos_ == src_.size())
      fail("empty condition", 0);
    parse_or();
    skip_ws();
    if (pos_ < src_.size()) {
      if (src_[pos_] == ')')
        fail("unbalanced ')'", pos_);
      fail(fmt::format("unexpected '{}'", src_[pos_]), pos_);
    }
    check_depth();
  }

private:
  [[noreturn]] void fail(std::string_view what, std::size_t at) const {
    throw compile_error(fmt::format("condition '{}': {} at offset {}", src_, what, at), at);
  }

  void skip_ws() {
    while (pos_ < src_.size() && (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\n'
                                  || src_[pos_] == '\r'))
      ++pos_;
  }

  // Consumes `&&` or `||`; a single `&` or `|` is an error.
  bool take_operator(char c) {
    skip_ws();
    if (pos_ >= src_.size() || src_[pos_] != c)
      return false;
    if (pos_ + 1 >= src_.size() || src_[pos_ + 1] != c)
      fail(fmt::format("single '{}' (use '{}{}')", c, c, c), pos_);
    pos_ += 2;
    return true;
  }

  void parse_or() {
    parse_and();
    while (take_operator('|')) {
      parse_and();
      out_.code.push_back({op::or_});
    }
  }

  void parse_and() {
    parse_unary();
    while (take_operator('&')) {
      out_.needs_state = true;
      parse_unary();
      out_.code.push_back({op::and_});
    }
  }

  void parse_unary() {
    skip_ws();
    if (pos_ < src_.size() && src_[pos_] == '!') {
      std::size_t at = pos_++;
      if (++nesting_ > max_depth)
        fail("expression is nested too deeply", at);
      parse_unary();
      --nesting_;
      out_.code.push_back({op::not_});
      return;
    }
    parse_primary();
  }

  void parse_primary() {
    skip_ws();
    if (pos_ == src_.size())
      fail("expression ends after an operator", pos_);
    char c = src_[pos_];
    if (c == '(') {
      std::size_t open = pos_++;
      if (++nesting_ > max_depth)
        fail("expression is nested too deeply", open);
      parse_or();
      --nesting_;
      skip_ws();
      if (pos_ == src_.size() || src_[pos_] != ')')
        fail("unbalanced '('", open);
      ++pos_;
      return;
    }
    if (!is_name_char(c)) {
      if (c == '&' || c == '|' || c == ')')
        fail(fmt::format("expected a dependency name before '{}'", c), pos_);
      fail(fmt::format("unexpected '{}'", c), pos_);
    }
    std::size_t start = pos_;
    while (pos_ < src_.size() && is_name_char(src_[pos_]))
      ++pos_;
    out_.code.push_back({op::push, out_.variable(src_.substr(start, pos_ - start))});
  }

  void check_depth() const {
    std::size_t depth = 0, deepest = 0;
    for (const auto& o : out_.code) {
      if (o.kind == op::not_)
        continue;
      depth = o.kind == op::push ? depth + 1 : depth - 1;
      deepest = std::max(deepest, depth);
    }
    if (deepest > max_depth)
      fail("expression is nested too deeply", 0);
  }

  std::string_view src_;
  program& out_;
  std::size_t pos_ = 0;
  std::size_t nesting_ = 0;
};

// Renders the postfix code back to infix with minimal parentheses.
std::string render(const program& c) {
  struct item {
    std::string text;
    int precedence; // 3 name, 2 not, 1 and, 0 or
  };
  std::vector<item> stack;
  for (const auto& o : c.code) {
    if (o.kind == op::push) {
      stack.push_back({c.variables[o.variable], 3});
      continue;
    }
    if (o.kind == op::not_) {
      auto& x = stack.back();
      x.text = x.precedence < 2 ? "!(" + x.text + ")" : "!" + x.text;
      x.precedence = 2;
      continue;
    }
    auto rhs = std::move(stack.back());
    stack.pop_back();
    auto lhs = std::move(stack.back());
    stack.pop_back();
    int prec = o.kind == op::and_ ? 1 : 0;
    auto wrap = [&](const item& x, bool right) {
      return x.precedence < prec || (right && x.precedence == prec) ? "(" + x.text + ")"
                                                                   : x.text;
    };
    stack.push_back({wrap(lhs, false) + (prec ? " && " : " || ") + wrap(rhs, true), prec});
  }
  return stack.empty() ? std::string() : stack.back().text;
}

} // namespace

struct condition::impl : program {};

condition condition::parse(std::string_view text) {
  condition out;
  condition_parser(text, *out.impl_).run();
  out.impl_->text = render(*out.impl_);
  return out;
}

condition condition::all_of(const std::vector<std::string>& names) {
  condition out;
  auto& c = *out.impl_;
  for (std::size_t i = 0; i < names.size(); ++i) {
    c.code.push_back({op::push, c.variable(names[i])});
    if (i > 0)
      c.code.push_back({op::and_});
  }
  c.needs_state = names.size() > 1;
  c.text = render(c);
  return out;
}

const std::vector<std::string>& condition::variables() const noexcept {
  return impl_->variables;
}

bool condition::needs_state() const noexcept {
  return impl_->needs_state;
}

bool condition::evaluate(std::span<const std::uint8_t> present) const noexcept {
  std::array<std::uint8_t, max_depth + 1> stack;
  std::size_t top = 0;
  for (const auto& o : impl_->code) {
    switch (o.kind) {
      case op::push:
        stack[top++] = o.variable < present.size() && present[o.variable] != 0;
        break;
      case op::and_:
        --top;
        stack[top - 1] = stack[top - 1] & stack[top];
        break;
      case op::or_:
        --top;
        stack[top - 1] = stack[top - 1] | stack[top];
        break;
      case op::not_:
        stack[top - 1] = !stack[top - 1];
        break;
    }
  }
  return top > 0 && stack[top - 1] != 0;
}

const std::string& condition::text() const noexcept {
  return impl_->text;
}

condition::condition() : impl_(std::make_unique<impl>()) {}
condition::~condition() = default;
condition::condition(const condition& other) : impl_(std::make_unique<impl>(*other.impl_)) {}
condition& condition::operator=(const condition& other) {
  if (this != &other)
    impl_ = std::make_unique<impl>(*other.impl_);
  return *this;
}
condition::condition(condition&&) noexcept = default;
condition& condition::operator=(condition&&) noexcept = default;

} // namespace ganglion::dsl
