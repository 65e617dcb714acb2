// Fuzzes the whole manifest loader as `ganglion validate` and `run` use it: YAML text → limits
// pass → typed model → Argo's validation, with the spec step of every kind the binary registers
// (webhook, http, kafka, nats, resource, k8s, argoWorkflow, log; the EventBus kinds jetstream,
// jetstreamExotic, nats and kafka). Text starting with `{` is
// also loaded as one cluster object (load_object_text). Proves only that no input crashes,
// hangs or trips a sanitizer: problems must come back as diagnostics.

#include <cstddef>
#include <cstdint>
#include <string>

#include "ganglion/dsl/load.hpp"
#include "ganglion/http/spec.hpp"
#include "ganglion/kafka/spec.hpp"
#include "ganglion/kubernetes/resource_spec.hpp"
#include "ganglion/kubernetes/spec.hpp"
#include "ganglion/nats/spec.hpp"
#include "trigger/log_spec.hpp"

namespace {

/// The loading options of the binary (app::load_options_for), with smaller size limits so that
/// one input stays fast.
ganglion::dsl::load_options make_options() {
  ganglion::dsl::load_options out;
  out.max_depth = 40;
  out.max_nodes = 20000;
  auto& sources = out.kinds.sources;
  auto& triggers = out.kinds.triggers;
  auto& buses = out.kinds.buses;
  sources["webhook"] = ganglion::http::webhook_spec_step();
  triggers["http"] = ganglion::http::trigger_spec_step();
  sources["kafka"] = ganglion::kafka::source_spec_step();
  triggers["kafka"] = ganglion::kafka::trigger_spec_step();
  sources["nats"] = ganglion::nats::source_spec_step();
  triggers["nats"] = ganglion::nats::trigger_spec_step();
  sources["resource"] = ganglion::kubernetes::resource_source_spec_step();
  triggers["k8s"] = ganglion::kubernetes::k8s_trigger_spec_step();
  triggers["argoWorkflow"] = ganglion::kubernetes::workflow_trigger_spec_step();
  triggers["log"] = ganglion::core::log_spec_step();
  buses["jetstream"] = ganglion::nats::jetstream_bus_spec_step();
  buses["jetstreamExotic"] = ganglion::nats::jetstream_exotic_bus_spec_step();
  buses["nats"] = ganglion::nats::streaming_bus_spec_step();
  buses["kafka"] = ganglion::kafka::bus_spec_step();
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto options = make_options();
  std::string text(reinterpret_cast<const char*>(data), size);
  (void)ganglion::dsl::load_manifest_text(text, "fuzz.yaml", options);
  if (!text.empty() && text.front() == '{')
    (void)ganglion::dsl::load_object_text(text, "Sensor default/fuzz", options);
  return 0;
}
