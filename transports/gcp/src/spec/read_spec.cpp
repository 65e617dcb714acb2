#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::gcp::detail {

using namespace dsl::detail;

event_spec read_event(const dsl::spec_read_input& in) {
  event_spec out;
  out.project_id = read_string(in.node, "projectID");
  out.topic_project_id = read_string(in.node, "topicProjectID");
  out.topic = read_string(in.node, "topic");
  out.subscription_id = read_string(in.node, "subscriptionID");
  out.credential_secret = read_key_selector(in.node, "credentialSecret");
  out.delete_subscription_on_finish = read_bool(in.node, "deleteSubscriptionOnFinish");
  out.json_body = read_bool(in.node, "jsonBody");
  out.metadata = read_string_map(in.node, "metadata");
  return out;
}

} // namespace ganglion::gcp::detail
