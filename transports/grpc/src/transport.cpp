#include "ganglion/grpc/transport.hpp"

namespace ganglion::grpc {

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts) {
  sources["generic"] = make_source_factory(opts);
  triggers["custom"] = make_trigger_factory(opts);
}

core::command_options command_options() {
  core::command_option ca;
  ca.flag = "--grpc-ca-file";
  ca.help = "PEM file of the CAs that verify the TLS servers of generic event sources "
            "(insecure: false; default: the system's CAs)";
  ca.existing_file = true;
  return {ca};
}

options options_from(const core::option_values& values) {
  options out;
  out.ca_file = values.value("--grpc-ca-file");
  return out;
}

} // namespace ganglion::grpc
