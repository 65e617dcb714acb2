#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::nats::detail {

using namespace dsl::detail;

bus_spec read_bus(const dsl::spec_read_input& in, bool managed) {
  const auto& node = in.node;
  bus_spec out;
  out.managed = managed;
  out.url = read_string(node, "url");
  out.access_secret = read_key_selector(node, "accessSecret");
  out.tls = read_tls(node, "tls");
  out.stream =
    read_stream_config(child(node, "streamConfig"), child_path(in.path, "streamConfig"), in.cx);
  if (auto text = read_optional_string(node, "maxPayload")) {
    if (auto size = parse_nats_size(*text))
      out.max_payload = *size;
    else
      in.cx.error(child_path(in.path, "maxPayload"),
                  "invalid maxPayload \"" + *text + "\" (bytes, or a size such as 1MB)");
  }
  out.version = read_string(node, "version");
  if (auto replicas = child(node, "replicas"); !is_absent(replicas))
    out.replicas = scalar_int(replicas);
  return out;
}

streaming_bus_spec read_streaming_bus(const dsl::spec_read_input& in) {
  streaming_bus_spec out;
  out.native = !is_absent(child(in.node, "native"));
  auto exotic = child(in.node, "exotic");
  out.exotic = !is_absent(exotic);
  if (out.exotic && exotic.IsMap()) {
    out.exotic_cluster_id = !is_absent(child(exotic, "clusterID"));
    out.exotic_url = read_string(exotic, "url");
  }
  return out;
}

} // namespace ganglion::nats::detail
