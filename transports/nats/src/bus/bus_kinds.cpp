#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "bus/managed_jetstream.hpp"
#include "ganglion/nats/jetstream_bus.hpp"
#include "ganglion/nats/transport.hpp"

// The EventBus kinds of the nats transport: what `run` does with `spec.jetstream`,
// `spec.jetstreamExotic` and `spec.nats`, and how it opens a JetStream bus.

namespace ganglion::nats {

namespace {

constexpr const char* embedded_instead =
  "run uses the embedded bus instead (its durable log under --data-dir, as with no EventBus)";

/// A managed `spec.jetstream` runs when its server can be found: read from the cluster (Argo's
/// controller deployed it) or named by --bus-url; from a file without it, the embedded bus.
core::bus_decision plan_managed(const core::bus_plan_input& in) {
  if (in.document.where.object || in.bus_url)
    return {};
  return {core::bus_action::embedded, "spec.jetstream",
          fmt::format("a file does not say where the JetStream server Argo's controller "
                      "deploys runs: without --bus-url, {}; --bus-url nats://HOST:4222 names "
                      "a JetStream server (run --from-cluster reaches the one Argo deployed "
                      "for an EventBus of the cluster)",
                      embedded_instead)};
}

/// NATS Streaming: `native` (Argo's controller deploys it) runs as the embedded bus, `exotic`
/// (a server of the user's) is refused.
core::bus_decision plan_streaming(const core::bus_plan_input& in) {
  const auto* spec =
    std::any_cast<streaming_bus_spec>(&std::get<dsl::event_bus>(in.document.body).spec.spec);
  if (spec && spec->exotic)
    return {core::bus_action::refuse, "spec.nats",
            "NATS Streaming (exotic) is deprecated upstream and ganglion does not speak its "
            "protocol, so run refuses this EventBus: give one with spec.jetstreamExotic (a "
            "JetStream server's url) or spec.kafka, or none for the embedded bus"};
  return {core::bus_action::embedded, "spec.nats",
          fmt::format("NATS Streaming (native, which Argo's controller deploys) is deprecated "
                      "upstream and not run: {}; for a remote bus, give an EventBus with "
                      "spec.jetstreamExotic (a JetStream server's url) or spec.kafka",
                      embedded_instead)};
}

std::shared_ptr<core::remote_bus> open_jetstream(const core::bus_open_input& in) {
  const auto [bus, model] = core::bus_spec_of<bus_spec>(in.document);
  jetstream_options js;
  js.replica_id = in.replica_id;
  if (!in.bus_url.empty())
    js.default_url = in.bus_url;
  js.lease_ttl = in.lease_ttl;
  js.lease_tick = std::max(std::chrono::milliseconds(100), js.lease_ttl / 5);
  auto spec = model;
  const auto& file = in.document.where.file;
  bool managed = spec.managed && in.bus_url.empty() && in.document.where.object;
  if (managed) {
    spec = detail::argo_managed_jetstream(bus.metadata, spec,
                                          in.cluster_status.empty() ? "{}" : in.cluster_status);
    spdlog::info("{}: NATS JetStream that Argo's controller deployed, at {} (Secret {} key {}, "
                 "TLS verified with Secret {} key {})",
                 file, spec.url, spec.access_secret->name, spec.access_secret->key,
                 spec.tls->ca_cert_secret->name, spec.tls->ca_cert_secret->key);
  } else {
    spdlog::info("EventBus {}: NATS JetStream", bus.metadata.name);
  }
  try {
    return make_jetstream_bus(spec, in.secrets, js);
  } catch (const std::exception& ex) {
    if (!managed)
      throw;
    throw std::runtime_error(fmt::format("{}: the JetStream server Argo's controller deployed "
                                         "(--bus-url names another): {}",
                                         file, ex.what()));
  }
}

} // namespace

void register_bus_kinds(core::bus_registry& buses) {
  buses["jetstream"] = {jetstream_bus_spec_step(), &plan_managed, &open_jetstream};
  buses["jetstreamExotic"] = {jetstream_exotic_bus_spec_step(), {}, &open_jetstream};
  buses["nats"] = {streaming_bus_spec_step(), &plan_streaming, {}};
}

} // namespace ganglion::nats
