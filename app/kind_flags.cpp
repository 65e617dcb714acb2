#include "kind_flags.hpp"

#include <algorithm>

namespace ganglion::app {

void kind_flags::add_to(CLI::App* command, const std::string& command_name,
                        const core::command_options& declared) {
  for (const auto& option : declared) {
    const auto& commands = option.commands;
    if (std::find(commands.begin(), commands.end(), command_name) == commands.end())
      continue;
    if (option.is_switch) {
      command->add_flag(option.flag, switches_[option.flag], option.help);
      continue;
    }
    auto* added = option.repeatable
                    ? command->add_option(option.flag, repeated_[option.flag], option.help)
                    : command->add_option(option.flag, single_[option.flag], option.help);
    if (option.existing_file)
      added->check(CLI::ExistingFile);
    if (!option.https_url_only.empty())
      added->check([why = option.https_url_only](const std::string& url) {
        return url.starts_with("https://") ? std::string{} : why;
      });
  }
}

core::option_values kind_flags::values() const {
  core::option_values out;
  for (const auto& [flag, value] : single_)
    if (!value.empty())
      out.set(flag, {value});
  for (const auto& [flag, values] : repeated_)
    if (!values.empty())
      out.set(flag, values);
  for (const auto& [flag, on] : switches_)
    if (on)
      out.set(flag, {"true"});
  return out;
}

} // namespace ganglion::app
