// Data filters with the semantics of Argo's filterData (pkg/sensors/dependencies/filter.go).

#include <algorithm>
#include <stdexcept>

#include <re2/re2.h>

#include <fmt/format.h>

#include "ganglion/dsl/budget_exceeded.hpp"
#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/filter/filter_eval.hpp"
#include "ganglion/dsl/path/json_eval.hpp"
#include "ganglion/dsl/path/json_path.hpp"
#include "ganglion/dsl/tmpl/go_template.hpp"
#include "go/strconv.hpp"

namespace ganglion::dsl {

namespace {

enum class value_type { boolean, number, string };
enum class comparator { eq, ne, gt, ge, lt, le };

comparator parse_comparator(const data_filter& spec) {
  const auto& c = spec.comparator;
  if (c.empty() || c == "=")
    return comparator::eq;
  if (c == "!=")
    return comparator::ne;
  if (c == ">")
    return comparator::gt;
  if (c == ">=")
    return comparator::ge;
  if (c == "<")
    return comparator::lt;
  if (c == "<=")
    return comparator::le;
  throw compile_error(fmt::format("data filter on '{}': comparator '{}' not supported", spec.path, c),
                      0);
}

bool compare(comparator op, double event_value, double filter_value) {
  switch (op) {
    case comparator::eq: return event_value == filter_value;
    case comparator::ne: return event_value != filter_value;
    case comparator::gt: return event_value > filter_value;
    case comparator::ge: return event_value >= filter_value;
    case comparator::lt: return event_value < filter_value;
    case comparator::le: return event_value <= filter_value;
  }
  return false;
}

// The alternatives of a pattern made only of literal text and `|` ("opened|synchronize"), for
// which an unanchored regex match is a substring search; nullopt for any other pattern.
std::optional<std::vector<std::string>> literal_alternatives(std::string_view pattern) {
  constexpr std::string_view meta = "\\.+*?()[]{}^$";
  if (pattern.find_first_of(meta) != std::string_view::npos)
    return std::nullopt;
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    auto bar = pattern.find('|', start);
    out.emplace_back(pattern.substr(start, bar - start));
    if (bar == std::string_view::npos)
      return out;
    start = bar + 1;
  }
}

// A data filter's string value: RE2's unanchored match, or a substring search when the
// pattern is literal alternatives (no RE2 object kept then: 10k sensors, 10k fewer programs).
class string_matcher {
public:
  /// Compiles `pattern`; error() says why it is not a valid RE2 pattern.
  explicit string_matcher(const std::string& pattern) : literals_(literal_alternatives(pattern)) {
    if (literals_)
      return;
    RE2::Options options;
    options.set_log_errors(false);
    regex_ = std::make_unique<RE2>(pattern, options);
    if (!regex_->ok())
      error_ = regex_->error();
  }

  const std::string& error() const noexcept { return error_; }

  bool partial_match(std::string_view text) const {
    if (!literals_)
      return RE2::PartialMatch(text, *regex_);
    for (const auto& literal : *literals_)
      if (text.find(literal) != std::string_view::npos)
        return true;
    return false;
  }

private:
  std::optional<std::vector<std::string>> literals_;
  std::unique_ptr<RE2> regex_;
  std::string error_;
};

std::string missing_path(const std::string& path) {
  return fmt::format("path '{}' does not exist", path);
}

} // namespace

std::string data_filter_regex_error(const std::string& pattern) {
  return string_matcher{pattern}.error();
}

struct compiled_data_filter::impl {
  data_filter spec;
  json_path path;
  value_type type = value_type::string;
  comparator op = comparator::eq;
  std::vector<bool> bools;
  std::vector<double> numbers;
  std::vector<string_matcher> regexes;
  std::optional<go_template> tmpl;
};

compiled_data_filter::compiled_data_filter(const data_filter& spec)
  : impl_(std::make_unique<impl>()) {
  auto& f = *impl_;
  f.spec = spec;
  auto fail = [&](const std::string& what) {
    throw compile_error(fmt::format("data filter on '{}': {}", spec.path, what), 0);
  };
  if (spec.path.empty())
    throw compile_error("data filter path is empty", 0);
  f.path = json_path::compile(spec.path);
  if (spec.value.empty())
    fail("no values specified");
  f.op = parse_comparator(spec);
  if (!spec.template_.empty()) {
    try {
      f.tmpl = go_template::parse(spec.template_);
    } catch (const compile_error& e) {
      throw compile_error(fmt::format("data filter on '{}': {}", spec.path, e.what()), e.offset());
    }
  }
  if (spec.type == "bool") {
    f.type = value_type::boolean;
    for (const auto& v : spec.value) {
      auto b = go::parse_bool(v);
      if (!b)
        fail(fmt::format("strconv.ParseBool: parsing \"{}\": invalid syntax", v));
      f.bools.push_back(*b);
    }
  } else if (spec.type == "number") {
    f.type = value_type::number;
    for (const auto& v : spec.value) {
      auto n = go::parse_float(v);
      if (!n.ok)
        fail(fmt::format("strconv.ParseFloat: parsing \"{}\": invalid syntax", v));
      f.numbers.push_back(n.value);
    }
  } else if (spec.type == "string") {
    f.type = value_type::string;
    for (const auto& v : spec.value) {
      string_matcher matcher(v);
      if (!matcher.error().empty())
        fail(fmt::format("invalid regex '{}': {}", v, matcher.error()));
      f.regexes.push_back(std::move(matcher));
    }
  } else {
    fail(fmt::format("unsupported JSON type '{}'", spec.type));
  }
}

compiled_data_filter::~compiled_data_filter() = default;
compiled_data_filter::compiled_data_filter(compiled_data_filter&&) noexcept = default;
compiled_data_filter& compiled_data_filter::operator=(compiled_data_filter&&) noexcept = default;

std::optional<bool> compiled_data_filter::matches(simdjson::dom::element data) const {
  const auto& f = *impl_;
  auto result = dsl::evaluate(f.path, data);
  if (!result.exists())
    return std::nullopt;
  if (f.tmpl) {
    // Argo re-reads the output as a JSON string and compares it with the typed values.
    std::string out = f.tmpl->execute_input_string(result.string_value());
    if (out.empty() || out == "<no value>")
      throw std::runtime_error(
        fmt::format("template '{}' evaluated to empty string or no value", f.spec.template_));
    std::string quoted;
    go::append_json_string(quoted, out);
    result = path_result::synthesized(std::move(quoted));
  }
  switch (f.type) {
    case value_type::boolean: {
      bool actual = result.bool_value();
      for (bool expected : f.bools)
        if (expected == actual)
          return true;
      return false;
    }
    case value_type::number: {
      double actual = result.float_value();
      for (double expected : f.numbers)
        if (compare(f.op, actual, expected))
          return true;
      return false;
    }
    case value_type::string: {
      if (f.op != comparator::eq && f.op != comparator::ne)
        return false;
      std::string copy;
      std::string_view text = result.string_ref();
      if (result.kind() != json_kind::string) {
        copy = result.string_value();
        text = copy;
      }
      for (const auto& re : f.regexes)
        if (re.partial_match(text) == (f.op == comparator::eq))
          return true;
      return false;
    }
  }
  return false;
}

filter_outcome compiled_data_filter::evaluate(const event_view& event) const {
  if (event.data_raw.empty() && !event.data_is_json)
    return {true, {}};
  auto data = parsed_data(event);
  if (!data)
    return {false, "data filter error (event data not valid JSON)"};
  std::optional<bool> m;
  try {
    m = matches(*data);
  } catch (const budget_exceeded& e) {
    return {false, fmt::format("data filter error ({})", e.what()), {}, true};
  } catch (const std::runtime_error& e) {
    return {false, fmt::format("data filter error ({})", e.what())};
  }
  if (!m)
    return {false, fmt::format("data filter error ({})", missing_path(impl_->spec.path))};
  return {*m, {}};
}

const std::string& compiled_data_filter::path() const noexcept {
  return impl_->spec.path;
}

bool compiled_data_filter::builds_json() const noexcept {
  return impl_->path.builds();
}

bool compiled_data_filters::builds_json() const noexcept {
  return std::any_of(filters_.begin(), filters_.end(),
                     [](const compiled_data_filter& f) { return f.builds_json(); });
}

std::string compiled_data_filter::describe() const {
  const auto& spec = impl_->spec;
  std::string values;
  for (std::size_t i = 0; i < spec.value.size(); ++i) {
    if (i > 0)
      values += " or ";
    values += fmt::format("\"{}\"", spec.value[i]);
  }
  bool equality = spec.comparator.empty() || impl_->type == value_type::boolean;
  return fmt::format("{} ({}) {} {}", spec.path, spec.type, equality ? "=" : spec.comparator,
                     values);
}

compiled_data_filters::compiled_data_filters(const std::vector<data_filter>& specs,
                                             const std::string& logical_operator)
  : any_(logical_operator == "or") {
  if (!logical_operator.empty() && logical_operator != "and" && logical_operator != "or")
    throw compile_error(
      fmt::format("dataLogicalOperator '{}' is not supported (and, or)", logical_operator), 0);
  filters_.reserve(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    try {
      filters_.emplace_back(specs[i]);
    } catch (const compile_error& e) {
      throw compile_error(fmt::format("data[{}]: {}", i, e.what()), e.offset());
    }
  }
}

filter_outcome compiled_data_filters::evaluate(const event_view& event) const {
  if (filters_.empty() || (event.data_raw.empty() && !event.data_is_json))
    return {true, {}};
  auto data = parsed_data(event);
  if (!data)
    return {false, "data filter error (event data not valid JSON)"};
  std::vector<std::string> errors;
  bool cut_off = false;
  for (std::size_t index = 0; index < filters_.size(); ++index) {
    const auto& f = filters_[index];
    std::optional<bool> m;
    try {
      m = f.matches(*data);
    } catch (const std::runtime_error& e) {
      bool budget = dynamic_cast<const budget_exceeded*>(&e) != nullptr;
      if (!any_)
        return {false, fmt::format("data filter error ({})", e.what()), {}, budget};
      cut_off |= budget;
      errors.emplace_back(e.what());
      continue;
    }
    if (!m) {
      if (!any_)
        return {false, fmt::format("data filter error ({})", missing_path(f.path()))};
      errors.push_back(missing_path(f.path()));
      continue;
    }
    if (*m && any_)
      return {true, {}};
    if (!*m && !any_)
      return {false, {}, fmt::format("data filter #{} {} did not match", index, f.describe())};
  }
  if (!any_)
    return {true, {}};
  if (errors.empty())
    return {false, {}, "none of the data filters (or) matched"};
  std::string joined;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (i > 0)
      joined += " / ";
    joined += errors[i];
  }
  return {false, fmt::format("data filter errors [{}]", joined), {}, cut_off};
}

} // namespace ganglion::dsl
