#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::grpc::detail {

using namespace dsl::detail;

generic_spec read_generic(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  generic_spec out;
  out.url = read_string(node, "url");
  out.config = read_string(node, "config");
  out.insecure = read_bool(node, "insecure");
  out.json_body = read_bool(node, "jsonBody");
  out.metadata = read_string_map(node, "metadata");
  out.auth_secret = read_key_selector(node, "authSecret");
  return out;
}

custom_spec read_custom(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  custom_spec out;
  out.server_url = read_string(node, "serverURL");
  out.secure = read_bool(node, "secure");
  out.cert_secret = read_key_selector(node, "certSecret");
  out.server_name_override = read_string(node, "serverNameOverride");
  out.spec = read_string_map(node, "spec");
  return out;
}

} // namespace ganglion::grpc::detail
