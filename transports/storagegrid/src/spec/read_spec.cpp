#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/http/internal/push_spec.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::storagegrid::detail {

using namespace dsl::detail;

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.webhook = http::read_webhook_context(node);
  if (!is_absent(child(node, "events")))
    out.events = read_string_list(node, "events");
  if (auto f = child(node, "filter"); !is_absent(f) && f.IsMap())
    out.object_filter = key_filter{read_string(f, "prefix"), read_string(f, "suffix")};
  out.topic_arn = read_string(node, "topicArn");
  out.bucket = read_string(node, "bucket");
  out.region = read_string(node, "region");
  out.auth_token = read_key_selector(node, "authToken");
  out.api_url = read_string(node, "apiURL");
  out.metadata = read_string_map(node, "metadata");
  out.tls = read_tls(node, "tls");
  return out;
}

} // namespace ganglion::storagegrid::detail
