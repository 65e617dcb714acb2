#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::file::detail {

using namespace dsl::detail;

namespace {

watch_path_config read_watch_path(const YAML::Node& map) {
  watch_path_config out;
  auto node = child(map, "watchPathConfig");
  if (is_absent(node) || !node.IsMap())
    return out;
  out.directory = read_string(node, "directory");
  out.path = read_string(node, "path");
  out.path_regexp = read_string(node, "pathRegexp");
  return out;
}

metadata_map read_metadata(const YAML::Node& map) {
  auto node = child(map, "metadata");
  if (is_absent(node) || !node.IsMap())
    return std::nullopt;
  return read_string_map(map, "metadata");
}

} // namespace

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.event_type = read_string(node, "eventType");
  out.watch_path = read_watch_path(node);
  out.polling = read_bool(node, "polling");
  out.metadata = read_metadata(node);
  return out;
}

sftp_event_spec read_sftp_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  sftp_event_spec out;
  out.event_type = read_string(node, "eventType");
  out.watch_path = read_watch_path(node);
  out.username = read_key_selector(node, "username");
  out.password = read_key_selector(node, "password");
  out.ssh_key_secret = read_key_selector(node, "sshKeySecret");
  out.address = read_key_selector(node, "address");
  out.metadata = read_metadata(node);
  out.poll_interval_duration = read_string(node, "pollIntervalDuration");
  return out;
}

} // namespace ganglion::file::detail
