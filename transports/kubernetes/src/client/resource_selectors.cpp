#include "client/resource_selectors.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <re2/re2.h>

#include "client/object_names.hpp"
#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/path/json_eval.hpp"

namespace ganglion::kubernetes::detail {

namespace {

bool alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/// apimachinery's qualified-name part: `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
bool qualified_name_part(std::string_view s) {
  if (s.empty() || !alnum(s.front()) || !alnum(s.back()))
    return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

std::optional<std::string> key_error(const std::string& key) {
  std::string_view name = key;
  if (auto slash = key.find('/'); slash != std::string::npos) {
    auto prefix = name.substr(0, slash);
    name = name.substr(slash + 1);
    if (!dns_subdomain(prefix))
      return fmt::format("label key \"{}\": the prefix must be a DNS subdomain (lower case "
                         "alphanumerics, '-' and '.')",
                         key);
  }
  if (name.empty() || name.size() > 63 || !qualified_name_part(name))
    return fmt::format("label key \"{}\" is not a qualified name (at most 63 alphanumerics, "
                       "'-', '_' or '.', starting and ending with an alphanumeric, with an "
                       "optional DNS prefix and '/')",
                       key);
  return std::nullopt;
}

std::optional<std::string> value_error(const std::string& key, const std::string& value) {
  if (value.empty())
    return std::nullopt;
  if (value.size() > 63 || !qualified_name_part(value))
    return fmt::format("label value \"{}\" of \"{}\" is not valid (at most 63 alphanumerics, "
                       "'-', '_' or '.', starting and ending with an alphanumeric)",
                       value, key);
  return std::nullopt;
}

/// The operator Argo passes on (empty: `=`).
std::string operator_of(const resource_selector& s) {
  return s.operation.empty() ? "=" : s.operation;
}

/// Argo's LabelReq: the values of the requirement.
std::vector<std::string> values_of(const resource_selector& s, const std::string& op) {
  if ((op == "exists" || op == "!") && s.value.empty())
    return {};
  if (op == "in" || op == "notin") {
    std::vector<std::string> out;
    for (std::size_t start = 0;;) {
      auto comma = s.value.find(',', start);
      out.push_back(s.value.substr(start, comma == std::string::npos ? comma : comma - start));
      if (comma == std::string::npos)
        return out;
      start = comma + 1;
    }
  }
  return {s.value};
}

bool integer(const std::string& text) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return !text.empty() && ec == std::errc{} && end == text.data() + text.size();
}

} // namespace

std::optional<std::string> label_requirement_error(const resource_selector& selector) {
  auto op = operator_of(selector);
  auto values = values_of(selector, op);
  if (auto e = key_error(selector.key))
    return e;
  if (op == "in" || op == "notin") {
    if (values.empty())
      return fmt::format("\"{}\": for 'in', 'notin' operators, values set can't be empty",
                         selector.key);
  } else if (op == "=" || op == "==" || op == "!=") {
    if (values.size() != 1)
      return fmt::format("\"{}\": exact-match compatibility requires one single value",
                         selector.key);
  } else if (op == "exists" || op == "!") {
    if (!values.empty())
      return fmt::format("\"{}\": values set must be empty for exists and does not exist "
                         "(got \"{}\")",
                         selector.key, selector.value);
  } else if (op == "gt" || op == "lt") {
    if (values.size() != 1 || !integer(values.front()))
      return fmt::format("\"{}\": for 'gt', 'lt' operators, the value must be an integer (got "
                         "\"{}\")",
                         selector.key, selector.value);
  } else {
    return fmt::format("unknown selection operation \"{}\"", selector.operation);
  }
  for (const auto& v : values)
    if (auto e = value_error(selector.key, v))
      return e;
  return std::nullopt;
}

std::string label_selector(const std::vector<resource_selector>& selectors) {
  std::vector<const resource_selector*> sorted;
  for (const auto& s : selectors) {
    if (auto e = label_requirement_error(s))
      throw std::invalid_argument(*e);
    sorted.push_back(&s);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* a, const auto* b) { return a->key < b->key; });
  std::string out;
  for (const auto* s : sorted) {
    auto op = operator_of(*s);
    auto values = values_of(*s, op);
    if (!out.empty())
      out += ',';
    if (op == "!")
      out += '!';
    out += s->key;
    if (op == "exists" || op == "!")
      continue;
    if (op == "in" || op == "notin") {
      std::sort(values.begin(), values.end());
      out += fmt::format(" {} ({})", op, fmt::join(values, ","));
      continue;
    }
    static const std::map<std::string, std::string> spelled{
      {"=", "="}, {"==", "=="}, {"!=", "!="}, {"gt", ">"}, {"lt", "<"}};
    out += spelled.at(op) + values.front();
  }
  return out;
}

bool field_operation_supported(const std::string& operation) {
  return operation.empty() || operation == "=" || operation == "==" || operation == "!=";
}

struct field_matcher::compiled {
  dsl::json_path path;
  std::unique_ptr<RE2> regex;
  bool negate = false;
  bool supported = true;
};

namespace {

std::unique_ptr<RE2> compile_regex(const std::string& pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  return std::make_unique<RE2>(pattern, options);
}

} // namespace

std::optional<std::string> field_matcher::compile_error(const resource_selector& selector) {
  try {
    dsl::json_path::compile(selector.key);
  } catch (const dsl::compile_error& e) {
    return fmt::format("field key \"{}\" is not a gjson path: {}", selector.key, e.what());
  }
  auto regex = compile_regex(selector.value);
  if (!regex->ok())
    return fmt::format("field value \"{}\" is not a regular expression: {}", selector.value,
                       regex->error());
  return std::nullopt;
}

field_matcher::field_matcher(const std::vector<resource_selector>& selectors) {
  for (std::size_t i = 0; i < selectors.size(); ++i) {
    const auto& s = selectors[i];
    if (auto e = compile_error(s))
      throw std::invalid_argument(fmt::format("filter.fields[{}]: {}", i, *e));
    auto c = std::make_unique<compiled>();
    c->path = dsl::json_path::compile(s.key);
    c->regex = compile_regex(s.value);
    c->negate = s.operation == "!=";
    c->supported = field_operation_supported(s.operation);
    selectors_.push_back(std::move(c));
  }
}

field_matcher::~field_matcher() = default;
field_matcher::field_matcher(field_matcher&&) noexcept = default;
field_matcher& field_matcher::operator=(field_matcher&&) noexcept = default;

bool field_matcher::matches(simdjson::dom::element object) const {
  for (const auto& s : selectors_) {
    auto result = dsl::evaluate(s->path, object);
    if (!result.exists() || !s->supported)
      return false;
    // gjson's Result.Str: the contents of a string, empty for any other kind.
    bool match = RE2::PartialMatch(result.string_ref(), *s->regex);
    if (match == s->negate)
      return false;
  }
  return true;
}

} // namespace ganglion::kubernetes::detail
