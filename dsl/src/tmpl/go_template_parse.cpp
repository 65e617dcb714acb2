// The parser of Go text/template: actions, control structures, pipelines and operands.

#include <algorithm>

#include <fmt/format.h>

#include "ganglion/dsl/compile_error.hpp"
#include "go/strconv.hpp"
#include "tmpl/go_template_ast.hpp"

namespace ganglion::dsl::tmpl {

namespace {

// The source length of a token that can be followed by a field chain.
std::size_t chain_end(const token& t) {
  switch (t.kind) {
    case tok::variable: return t.offset + t.text.size();
    case tok::field: return t.offset + t.text.size() + 1;
    case tok::dot:
    case tok::right_paren: return t.offset + 1;
    default: return std::string::npos;
  }
}

// A number literal as Go's template parser reads it (parse.newNumber): an integer through
// strconv.ParseInt with base 0 (`0x1F`, `0o17` and `017` octal, `0b101`, `1_000`), else a float
// through strconv.ParseFloat (`0x1p3` is 8, `1e3`); a float without `.`, an exponent or `p`
// is an integer too large for int64.
value number_literal(const std::string& text, std::size_t offset) {
  if (auto n = go::parse_int(text))
    return *n;
  if (auto parsed = go::parse_float(text); parsed.ok) {
    if (text.find_first_of(".eEpP") == std::string::npos)
      throw compile_error(
        fmt::format("template: integer overflow: \"{}\" at offset {}", text, offset), offset);
    return parsed.value;
  }
  throw compile_error(fmt::format("template: bad number syntax: \"{}\" at offset {}", text, offset),
                      offset);
}

class parser {
public:
  explicit parser(std::string_view source) : tokens_(lex(source)) {}

  std::vector<node> run() {
    vars_.push_back("$");
    std::vector<node> list;
    auto stop = parse_list(list);
    if (stop != nullptr)
      fail(fmt::format("unexpected {{{{{}}}}}", stop->text), stop->offset);
    return list;
  }

private:
  [[noreturn]] void fail(const std::string& what, std::size_t at) {
    throw compile_error(fmt::format("template: {} at offset {}", what, at), at);
  }

  const token& peek(std::size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const token& next() {
    const token& t = peek();
    if (pos_ < tokens_.size() - 1)
      ++pos_;
    return t;
  }
  void expect_right(std::string_view context) {
    const token& t = next();
    if (t.kind != tok::right)
      fail(fmt::format("unexpected \"{}\" in {}", t.text, context), t.offset);
  }

  // Parses nodes until `{{end}}`, `{{else…` or the end; returns the stopping keyword token
  // (its `{{` and keyword consumed) or nullptr at the end of input.
  const token* parse_list(std::vector<node>& out) {
    for (;;) {
      const token& t = next();
      if (t.kind == tok::eof)
        return nullptr;
      if (t.kind == tok::text) {
        out.push_back(node{node::kind::text, t.text, {}, {}, {}, t.offset});
        continue;
      }
      const token& head = peek();
      if (head.kind == tok::keyword) {
        if (head.text == "end" || head.text == "else")
          return &next();
        if (head.text == "if" || head.text == "range" || head.text == "with") {
          next();
          out.push_back(control(head));
          continue;
        }
        fail(fmt::format("{{{{{}}}}} is not supported", head.text), head.offset);
      }
      node action;
      action.what = node::kind::action;
      action.offset = t.offset;
      action.pipe = parse_pipeline("command", 1);
      expect_right("command");
      out.push_back(std::move(action));
    }
  }

  node control(const token& keyword) {
    if (++depth_ > max_depth)
      fail("control structures nested too deeply", keyword.offset);
    node n;
    n.what = keyword.text == "if" ? node::kind::if_
             : keyword.text == "range" ? node::kind::range
                                       : node::kind::with;
    n.offset = keyword.offset;
    std::size_t scope = vars_.size();
    n.pipe = parse_pipeline(keyword.text, n.what == node::kind::range ? 2 : 1);
    if (n.pipe.commands.empty())
      fail(fmt::format("missing pipeline in {}", keyword.text), keyword.offset);
    expect_right(keyword.text);
    const token* stop = parse_list(n.list);
    if (stop == nullptr)
      fail(fmt::format("unexpected EOF: {{{{{}}}}} has no {{{{end}}}}", keyword.text), keyword.offset);
    if (stop->text == "else") {
      if (peek().kind == tok::keyword && (peek().text == "if" || peek().text == "with") &&
          n.what != node::kind::range) {
        const token& chained = next();
        vars_.resize(scope);
        n.else_list.push_back(control(chained));
        --depth_;
        return n;
      }
      expect_right("else");
      vars_.resize(scope);
      stop = parse_list(n.else_list);
      if (stop == nullptr || stop->text != "end")
        fail(fmt::format("expected {{{{end}}}} after {{{{else}}}} of {}", keyword.text),
             keyword.offset);
    }
    expect_right("end");
    vars_.resize(scope);
    --depth_;
    return n;
  }

  // `max_vars` > 0 allows a declaration of up to that many variables.
  pipeline parse_pipeline(std::string_view context, int max_vars) {
    pipeline p;
    p.offset = peek().offset;
    if (max_vars > 0 && peek().kind == tok::variable) {
      std::size_t save = pos_;
      std::vector<std::string> names{next().text};
      while (peek().kind == tok::comma && names.size() < static_cast<std::size_t>(max_vars) &&
             peek(1).kind == tok::variable) {
        next();
        names.push_back(next().text);
      }
      if (peek().kind == tok::declare || (peek().kind == tok::assign && names.size() == 1)) {
        p.assign = next().kind == tok::assign;
        for (const auto& name : names) {
          if (p.assign && std::find(vars_.begin(), vars_.end(), name) == vars_.end())
            fail(fmt::format("undefined variable \"{}\"", name), p.offset);
          p.variables.push_back(name);
        }
      } else {
        pos_ = save;
      }
    }
    for (;;) {
      command c = parse_command();
      if (c.args.empty())
        fail(fmt::format("missing value for {}", context), peek().offset);
      if (!p.commands.empty() && c.args.front().what != operand::kind::function)
        fail(fmt::format("non executable command in pipeline stage {}", p.commands.size() + 1),
             c.offset);
      if (c.args.front().what == operand::kind::literal && c.args.front().literal.is_null())
        fail("nil is not a command", c.offset);
      p.commands.push_back(std::move(c));
      if (peek().kind != tok::pipe)
        break;
      next();
    }
    if (!p.assign)
      for (const auto& name : p.variables)
        vars_.push_back(name);
    return p;
  }

  command parse_command() {
    command c;
    c.offset = peek().offset;
    for (;;) {
      auto k = peek().kind;
      if (k == tok::pipe || k == tok::right || k == tok::right_paren || k == tok::eof)
        break;
      c.args.push_back(parse_operand());
    }
    if (c.args.empty())
      return c;
    const auto& head = c.args.front();
    if (head.what == operand::kind::function && takes_pattern(head.name) && c.args.size() >= 2 &&
        c.args[1].what == operand::kind::literal && c.args[1].literal.is_string()) {
      RE2::Options options;
      options.set_log_errors(false);
      auto re = std::make_shared<RE2>(c.args[1].literal.get_ref<const std::string&>(), options);
      if (re->ok())
        c.regex = std::move(re);
    }
    return c;
  }

  operand parse_operand() {
    const token& t = next();
    operand o;
    o.offset = t.offset;
    switch (t.kind) {
      case tok::dot:
        o.what = operand::kind::dot;
        break;
      case tok::field:
        o.what = operand::kind::dot;
        o.fields.push_back(t.text);
        break;
      case tok::variable:
        if (std::find(vars_.begin(), vars_.end(), t.text) == vars_.end())
          fail(fmt::format("undefined variable \"{}\"", t.text), t.offset);
        o.what = operand::kind::variable;
        o.name = t.text;
        break;
      case tok::identifier:
        o.what = operand::kind::function;
        o.name = t.text;
        o.fn = find_function(t.text);
        if (o.fn == nullptr)
          fail(fmt::format("function \"{}\" not defined", t.text), t.offset);
        return o;
      case tok::string:
        o.literal = t.text;
        return o;
      case tok::number:
        o.literal = number_literal(t.text, t.offset);
        return o;
      case tok::boolean:
        o.literal = t.text == "true";
        return o;
      case tok::nil:
        o.literal = nullptr;
        return o;
      case tok::left_paren: {
        if (++depth_ > max_depth)
          fail("parentheses nested too deeply", t.offset);
        o.what = operand::kind::pipeline;
        o.pipe = std::make_unique<pipeline>(parse_pipeline("parenthesized pipeline", 0));
        if (peek().kind != tok::right_paren)
          fail("unclosed left paren", t.offset);
        next();
        --depth_;
        break;
      }
      default:
        fail(fmt::format("unexpected \"{}\" in operand", t.text.empty() ? "EOF" : t.text),
             t.offset);
    }
    while (peek().kind == tok::field && peek().offset == chain_end(tokens_[pos_ - 1]))
      o.fields.push_back(next().text);
    return o;
  }

  static constexpr int max_depth = 100;

  std::vector<token> tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::vector<std::string> vars_;
};

} // namespace

std::shared_ptr<const tree> parse(std::string_view source) {
  auto t = std::make_shared<tree>();
  t->source = std::string(source);
  t->root = parser(source).run();
  return t;
}

} // namespace ganglion::dsl::tmpl
