// path_result: gjson Result's String / Float / Bool conversions over a simdjson element.

#include <cctype>
#include <stdexcept>

#include "ganglion/dsl/path/json_eval.hpp"
#include "go/strconv.hpp"

namespace ganglion::dsl {

using simdjson::dom::element_type;

path_result::path_result(simdjson::dom::element element) : exists_(true), element_(element) {}

path_result::path_result(simdjson::dom::element element,
                         std::shared_ptr<simdjson::dom::parser> owner)
  : exists_(true), element_(element), owner_(std::move(owner)) {}

path_result path_result::synthesized(std::string json) {
  auto owner = std::make_shared<simdjson::dom::parser>();
  simdjson::dom::element el;
  if (owner->parse(json).get(el))
    throw std::invalid_argument("not valid JSON: " + json);
  return path_result(el, std::move(owner));
}

json_kind path_result::kind() const noexcept {
  if (!exists_)
    return json_kind::null;
  switch (element_.type()) {
    case element_type::ARRAY: return json_kind::array;
    case element_type::OBJECT: return json_kind::object;
    case element_type::STRING: return json_kind::string;
    case element_type::BOOL: return json_kind::boolean;
    case element_type::NULL_VALUE: return json_kind::null;
    default: return json_kind::number;
  }
}

std::string path_result::string_value() const {
  if (!exists_)
    return {};
  switch (element_.type()) {
    case element_type::STRING: return std::string(element_.get_string().value_unsafe());
    case element_type::BOOL: return element_.get_bool().value_unsafe() ? "true" : "false";
    case element_type::NULL_VALUE: return {};
    case element_type::INT64: return std::to_string(element_.get_int64().value_unsafe());
    case element_type::UINT64: return std::to_string(element_.get_uint64().value_unsafe());
    case element_type::DOUBLE: return go::format_float(element_.get_double().value_unsafe());
    default: return simdjson::to_string(element_);
  }
}

std::string_view path_result::string_ref() const noexcept {
  if (!exists_ || element_.type() != element_type::STRING)
    return {};
  return element_.get_string().value_unsafe();
}

double path_result::float_value() const {
  if (!exists_)
    return 0;
  switch (element_.type()) {
    case element_type::BOOL: return element_.get_bool().value_unsafe() ? 1 : 0;
    case element_type::STRING: return go::parse_float(element_.get_string().value_unsafe()).value;
    case element_type::INT64: return static_cast<double>(element_.get_int64().value_unsafe());
    case element_type::UINT64: return static_cast<double>(element_.get_uint64().value_unsafe());
    case element_type::DOUBLE: return element_.get_double().value_unsafe();
    default: return 0;
  }
}

bool path_result::bool_value() const {
  if (!exists_)
    return false;
  switch (element_.type()) {
    case element_type::BOOL: return element_.get_bool().value_unsafe();
    case element_type::STRING: {
      std::string s(element_.get_string().value_unsafe());
      for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return go::parse_bool(s).value_or(false);
    }
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE: return float_value() != 0;
    default: return false;
  }
}

std::string path_result::raw() const {
  return exists_ ? simdjson::to_string(element_) : "null";
}

} // namespace ganglion::dsl
