#include "source/event_filter.hpp"

#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"

namespace ganglion::core {

namespace {

/// Argo's key rewrite before evaluation: `-` is not valid in an expr identifier.
bool same_key(std::string_view data_key, std::string_view variable) {
  if (data_key.size() != variable.size())
    return false;
  for (std::size_t i = 0; i < data_key.size(); ++i) {
    char c = data_key[i] == '-' ? '_' : data_key[i];
    if (c != variable[i])
      return false;
  }
  return true;
}

} // namespace

event_filter::event_filter(const std::string& expression) {
  try {
    expression_ = dsl::expression::compile(expression);
  } catch (const dsl::compile_error& e) {
    throw std::runtime_error(
      fmt::format("filter.expression '{}' does not compile at offset {}: {}", expression,
                  e.offset(), e.what()));
  }
}

bool event_filter::passes(std::string_view data_json, std::string& error) const {
  thread_local simdjson::dom::parser parser;
  auto parsed = parser.parse(data_json.data(), data_json.size());
  simdjson::dom::object data;
  if (parsed.error() || parsed.value_unsafe().get_object().get(data)) {
    error = "the event data is not a JSON object";
    return false;
  }
  const auto& variables = expression_.variables();
  std::vector<dsl::expr_value> values(variables.size());
  std::vector<const dsl::expr_value*> bound(variables.size(), nullptr);
  for (auto field : data) {
    for (std::size_t i = 0; i < variables.size(); ++i)
      if (same_key(field.key, variables[i])) {
        values[i] = dsl::expr_value::from_json(field.value);
        bound[i] = &values[i];
      }
  }
  try {
    auto result = expression_.evaluate(bound);
    if (!result.is_bool()) {
      error = fmt::format("filter.expression returned {}, not a bool", dsl::to_display(result));
      return false;
    }
    return std::get<bool>(result.v);
  } catch (const dsl::expr_error& e) {
    error = e.what();
    return false;
  }
}

} // namespace ganglion::core
