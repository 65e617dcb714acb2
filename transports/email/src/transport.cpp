#include "ganglion/email/transport.hpp"

namespace ganglion::email {

void register_transport(core::trigger_registry& triggers, options opts) {
  triggers["email"] = make_trigger_factory(std::move(opts));
}

core::command_options command_options() {
  core::command_option ca;
  ca.flag = "--smtp-ca-file";
  ca.help = "PEM file of the CAs that verify the SMTP servers of email triggers "
            "(default: the system's CAs)";
  ca.commands = {"run", "test"};
  ca.existing_file = true;
  return {ca};
}

options options_from(const core::option_values& values) {
  options out;
  out.ca_file = values.value("--smtp-ca-file");
  return out;
}

} // namespace ganglion::email
