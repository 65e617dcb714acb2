#include "ganglion/dsl/kind/read.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::email::detail {

using namespace dsl::detail;

trigger_spec read_trigger(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  trigger_spec out;
  out.username = read_string(node, "username");
  out.smtp_password = read_key_selector(node, "smtpPassword");
  out.host = read_string(node, "host");
  out.port = read_int(node, "port");
  out.to = read_string_list(node, "to");
  out.from = read_string(node, "from");
  out.subject = read_string(node, "subject");
  out.body = read_string(node, "body");
  return out;
}

} // namespace ganglion::email::detail
