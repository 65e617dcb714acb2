#include "trigger/object_merge.hpp"

namespace ganglion::kubernetes::detail {

namespace {

/// mergo's isEmptyValue for the values JSON holds.
bool empty_value(const nlohmann::json& v) {
  switch (v.type()) {
  case nlohmann::json::value_t::null:
    return true;
  case nlohmann::json::value_t::boolean:
    return !v.get<bool>();
  case nlohmann::json::value_t::number_integer:
  case nlohmann::json::value_t::number_unsigned:
  case nlohmann::json::value_t::number_float:
    return v.get<double>() == 0;
  case nlohmann::json::value_t::string:
    return v.get_ref<const std::string&>().empty();
  case nlohmann::json::value_t::array:
  case nlohmann::json::value_t::object:
    return v.empty();
  default:
    return false;
  }
}

} // namespace

void merge_into(nlohmann::json& live, const nlohmann::json& object) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    auto found = live.find(it.key());
    if (found == live.end()) {
      live[it.key()] = it.value();
    } else if (found->is_object() && it.value().is_object()) {
      merge_into(*found, it.value());
    } else if (!empty_value(it.value())) {
      *found = it.value();
    }
  }
}

} // namespace ganglion::kubernetes::detail
