#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::nats::detail {

using namespace dsl::detail;

namespace {

constexpr std::int64_t max_nats_payload = 64ll * 1024 * 1024; // nats-server's max_pending

void check_stream(const stream_settings& s, const std::string& path, const load_context& cx) {
  auto at = [&](const char* key) { return child_path(path, key); };
  if (s.replicas < 1 || s.replicas > 5)
    cx.error(at("replicas"), "stream replicas must be 1 to 5, got " + std::to_string(s.replicas));
  if (s.max_msgs < -1)
    cx.error(at("maxMsgs"), "maxMsgs must be -1 (no limit) or more");
  if (s.max_bytes < -1)
    cx.error(at("maxBytes"), "maxBytes must be -1 (no limit) or more");
  if (s.max_age_ns < 0)
    cx.error(at("maxAge"), "maxAge must not be negative (0: no limit)");
  if (s.duplicates_ns < 0)
    cx.error(at("duplicates"), "duplicates must not be negative");
  else if (s.max_age_ns > 0 && s.duplicates_ns > s.max_age_ns)
    cx.error(at("duplicates"), "the duplicates window cannot be longer than maxAge (JetStream "
                               "refuses the stream)");
}

} // namespace

void check_bus(const bus_spec& spec, const dsl::spec_check_input& in) {
  const auto& cx = in.cx;
  if (spec.managed) {
    require(spec.version, child_path(in.path, "version"), "version", cx);
    if (spec.replicas && (*spec.replicas == 2 || *spec.replicas <= 0))
      cx.error(child_path(in.path, "replicas"), "a jetstream bus needs 1 replica or at least 3");
  } else {
    require(spec.url, child_path(in.path, "url"), "url", cx);
  }
  check_stream(spec.stream, child_path(in.path, "streamConfig"), cx);
  if (spec.max_payload < 0 || spec.max_payload > max_nats_payload)
    cx.error(child_path(in.path, "maxPayload"), "maxPayload must be 0 to 64MB");
  check_secret(spec.access_secret, child_path(in.path, "accessSecret"), cx);
  check_tls(spec.tls, child_path(in.path, "tls"), cx);
}

void check_streaming_bus(const streaming_bus_spec& spec, const dsl::spec_check_input& in) {
  const auto& cx = in.cx;
  if (spec.native && spec.exotic)
    cx.error(in.path, "nats takes native or exotic, not both");
  if (!spec.native && !spec.exotic)
    cx.error(in.path, "nats needs native or exotic");
  if (spec.exotic) {
    auto exotic = child_path(in.path, "exotic");
    if (!spec.exotic_cluster_id)
      cx.error(child_path(exotic, "clusterID"), "clusterID is required");
    require(spec.exotic_url, child_path(exotic, "url"), "url", cx);
  }
}

} // namespace ganglion::nats::detail
