#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::redis::detail {

using namespace dsl::detail;

namespace {

void read_server(const YAML::Node& node, server_spec& out) {
  out.host_address = read_string(node, "hostAddress");
  out.password = read_key_selector(node, "password");
  out.username = read_string(node, "username");
  out.db = read_int(node, "db");
  out.tls = read_tls(node, "tls");
  out.metadata = read_string_map(node, "metadata");
}

} // namespace

event_spec read_event(const dsl::spec_read_input& in) {
  event_spec out;
  read_server(in.node, out);
  out.namespace_name = read_string(in.node, "namespace");
  out.channels = read_string_list(in.node, "channels");
  out.json_body = read_bool(in.node, "jsonBody");
  return out;
}

stream_spec read_stream(const dsl::spec_read_input& in) {
  stream_spec out;
  read_server(in.node, out);
  out.streams = read_string_list(in.node, "streams");
  out.max_msg_count_per_read = read_int(in.node, "maxMsgCountPerRead");
  out.consumer_group = read_string(in.node, "consumerGroup");
  return out;
}

} // namespace ganglion::redis::detail
