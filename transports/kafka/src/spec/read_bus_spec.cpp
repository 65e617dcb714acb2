#include "ganglion/dsl/kind/read.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::kafka::detail {

using namespace dsl::detail;

bus_spec read_bus(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  bus_spec out;
  out.url = read_string(node, "url");
  out.topic = read_string(node, "topic");
  if (out.topic.empty() && in.metadata)
    out.topic =
      (in.metadata->namespace_.empty() ? std::string{"argo-events"} : in.metadata->namespace_) + "-"
      + in.metadata->name;
  out.version = read_string(node, "version");
  out.tls = read_tls(node, "tls");
  out.sasl = read_sasl(node, "sasl");
  out.consumer_group = read_consumer_group(node, "consumerGroup");
  return out;
}

} // namespace ganglion::kafka::detail
