// Execution of a parsed Go text/template, and the go_template facade.

#include <stdexcept>

#include <fmt/format.h>

#include "ganglion/dsl/tmpl/go_template.hpp"
#include "tmpl/go_template_ast.hpp"

namespace ganglion::dsl {

namespace tmpl {

namespace {

/// Bounds the work one execution may do, so hostile templates cannot run away.
constexpr std::size_t max_output = 16 * 1024 * 1024;
/// Nodes executed and range iterations made; real templates take hundreds.
constexpr std::size_t max_steps = 1'000'000;

class executor {
public:
  explicit executor(const value& dot) { vars_.emplace_back("$", dot); }

  void run(const std::vector<node>& list, const value& dot) {
    for (const auto& n : list)
      run(n, dot);
  }

  std::string take() { return std::move(out_); }

private:
  [[noreturn]] static void fail(const std::string& what) {
    throw std::runtime_error("template: " + what);
  }

  void write(std::string_view text) {
    if (out_.size() + text.size() > max_output)
      fail("output too large");
    out_ += text;
  }

  // A value built up in a variable (`{{ $x = cat $x $x }}` in a range) is held to the output's
  // limit: only the output is written, but every intermediate value is in memory.
  static void bounded(const value& v) {
    if (v.is_string() ? v.get_ref<const std::string&>().size() > max_output
                      : v.is_array() && v.size() > max_steps)
      fail(fmt::format("a value exceeded the size limit ({} MiB, {} elements)", max_output >> 20,
                       max_steps));
  }

  void step() {
    if (++steps_ > max_steps)
      fail(fmt::format("execution exceeded its step limit ({} steps)", max_steps));
  }

  void run(const node& n, const value& dot) {
    step();
    switch (n.what) {
      case node::kind::text:
        write(n.text);
        return;
      case node::kind::action: {
        value v = eval_pipeline(n.pipe, dot);
        if (n.pipe.variables.empty())
          write(is_missing(v) ? std::string("<no value>") : print_value(v));
        return;
      }
      case node::kind::if_:
      case node::kind::with: {
        std::size_t scope = vars_.size();
        value v = eval_pipeline(n.pipe, dot);
        if (truth(v))
          run(n.list, n.what == node::kind::with ? v : dot);
        else
          run(n.else_list, dot);
        vars_.resize(scope);
        return;
      }
      case node::kind::range:
        range(n, dot);
        return;
    }
  }

  void range(const node& n, const value& dot) {
    std::size_t scope = vars_.size();
    value v = eval_pipeline_no_declare(n.pipe, dot);
    const auto& names = n.pipe.variables;
    auto body = [&](const value& key, const value& element) {
      step();
      if (names.size() == 1) {
        vars_.emplace_back(names[0], element);
      } else if (names.size() == 2) {
        vars_.emplace_back(names[0], key);
        vars_.emplace_back(names[1], element);
      }
      run(n.list, element);
      vars_.resize(scope);
    };
    bool any = false;
    if (v.is_array()) {
      std::int64_t i = 0;
      for (const auto& element : v) {
        any = true;
        body(value(i++), element);
      }
    } else if (v.is_object()) {
      for (auto it = v.begin(); it != v.end(); ++it) {
        any = true;
        body(value(it.key()), it.value());
      }
    } else if (!is_missing(v) && !v.is_null()) {
      fail(fmt::format("range can't iterate over {}", print_value(v)));
    }
    if (!any)
      run(n.else_list, dot);
    vars_.resize(scope);
  }

  value eval_pipeline_no_declare(const pipeline& p, const value& dot) {
    value v;
    for (std::size_t i = 0; i < p.commands.size(); ++i) {
      v = eval_command(p.commands[i], dot, i == 0 ? nullptr : &v);
      bounded(v);
      if (v.is_null())
        v = no_value();
    }
    return v;
  }

  value eval_pipeline(const pipeline& p, const value& dot) {
    value v = eval_pipeline_no_declare(p, dot);
    for (const auto& name : p.variables) {
      if (p.assign) {
        for (auto it = vars_.rbegin(); it != vars_.rend(); ++it)
          if (it->first == name) {
            it->second = v;
            break;
          }
      } else {
        vars_.emplace_back(name, v);
      }
    }
    return v;
  }

  value eval_command(const command& c, const value& dot, value* final) {
    const operand& head = c.args.front();
    if (head.what != operand::kind::function) {
      if (c.args.size() > 1 || final)
        fail(fmt::format("can't give argument to non-function {}",
                         head.what == operand::kind::literal ? print_value(head.literal)
                                                             : std::string("value")));
      return eval_operand(head, dot);
    }
    std::size_t count = c.args.size() - 1 + (final ? 1 : 0);
    const function& fn = *head.fn;
    if (count < static_cast<std::size_t>(fn.min_args) ||
        (fn.max_args >= 0 && count > static_cast<std::size_t>(fn.max_args))) {
      std::string want = fn.max_args < 0 ? fmt::format("at least {}", fn.min_args)
                                         : std::to_string(fn.min_args);
      fail(fmt::format("wrong number of args for {}: want {} got {}", fn.name, want, count));
    }
    if (fn.name == "and" || fn.name == "or") {
      bool is_and = fn.name == "and";
      value v;
      for (std::size_t i = 1; i <= count; ++i) {
        v = i < c.args.size() ? eval_operand(c.args[i], dot) : *final;
        if (truth(v) != is_and)
          return v;
      }
      return v;
    }
    std::vector<value> args;
    args.reserve(count);
    for (std::size_t i = 1; i < c.args.size(); ++i)
      args.push_back(eval_operand(c.args[i], dot));
    if (final)
      args.push_back(*final);
    call_context ctx;
    ctx.regex = c.regex.get();
    try {
      return fn.body(ctx, args);
    } catch (const std::runtime_error& e) {
      std::string_view what = e.what();
      if (what.substr(0, 10) == "template: ")
        throw;
      fail(fmt::format("error calling {}: {}", fn.name, what));
    }
  }

  value eval_operand(const operand& o, const value& dot) {
    static const value missing = no_value();
    const value* v = &missing;
    value owned;
    switch (o.what) {
      case operand::kind::literal: return o.literal;
      case operand::kind::dot: v = &dot; break;
      case operand::kind::variable:
        for (auto it = vars_.rbegin(); it != vars_.rend(); ++it)
          if (it->first == o.name) {
            v = &it->second;
            break;
          }
        break;
      case operand::kind::pipeline:
        owned = eval_pipeline(*o.pipe, dot);
        v = &owned;
        break;
      case operand::kind::function: {
        std::vector<value> none;
        if (o.fn->min_args > 0)
          fail(fmt::format("wrong number of args for {}: want {} got 0", o.name, o.fn->min_args));
        return o.fn->body(call_context{}, none);
      }
    }
    for (const auto& name : o.fields) {
      if (is_missing(*v))
        return no_value();
      if (v->is_null())
        fail(fmt::format("nil pointer evaluating interface {{}}.{}", name));
      if (!v->is_object())
        fail(fmt::format("can't evaluate field {} in type {}", name, type_name(*v)));
      auto it = v->find(name);
      if (it == v->end())
        return no_value();
      v = &*it;
    }
    return *v;
  }

  std::vector<std::pair<std::string, value>> vars_;
  std::string out_;
  std::size_t steps_ = 0;
};

} // namespace

std::string execute(const tree& t, const value& dot) {
  executor e(dot);
  e.run(t.root, dot);
  return e.take();
}

} // namespace tmpl

go_template::go_template(std::shared_ptr<const tmpl::tree> tree) : tree_(std::move(tree)) {}

go_template go_template::parse(std::string_view text) {
  return go_template(tmpl::parse(text));
}

std::string go_template::execute(const nlohmann::json& dot) const {
  return tmpl::execute(*tree_, dot);
}

std::string go_template::execute_input_string(std::string_view input) const {
  return tmpl::execute(*tree_, tmpl::value{{"Input", std::string(input)}});
}

const std::string& go_template::text() const noexcept {
  return tree_->source;
}

} // namespace ganglion::dsl
