#include "ganglion/core/command_options.hpp"

namespace ganglion::core {

void option_values::set(std::string flag, std::vector<std::string> values) {
  values_[std::move(flag)] = std::move(values);
}

std::string option_values::value(std::string_view flag, std::string fallback) const {
  auto it = values_.find(flag);
  if (it == values_.end() || it->second.empty())
    return fallback;
  return it->second.back();
}

std::vector<std::string> option_values::values(std::string_view flag) const {
  auto it = values_.find(flag);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

bool option_values::is_set(std::string_view flag) const {
  auto it = values_.find(flag);
  return it != values_.end() && !it->second.empty() && it->second.back() != "false";
}

} // namespace ganglion::core
