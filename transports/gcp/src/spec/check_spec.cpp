#include <string_view>

#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::gcp::detail {

using namespace dsl::detail;

namespace {

/// *ganglion*: the IDs go into the REST API's URL paths, so they may hold only what a Pub/Sub
/// resource name (or a legacy `domain:project` ID) holds.
void check_id(const std::string& value, std::string_view key, const std::string& at,
              const load_context& cx) {
  for (char c : value) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
              || std::string_view{"-_.~+%:"}.find(c) != std::string_view::npos;
    if (!ok) {
      cx.error(child_path(at, std::string{key}),
               std::string{key} + " \"" + value
                 + "\" may hold only letters, digits and - _ . ~ + % : (a Pub/Sub resource "
                   "name)");
      return;
    }
  }
}

} // namespace

void check_event(const event_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  if (!s.topic_project_id.empty() && s.topic.empty())
    cx.error(child_path(at, "topicProjectID"),
             "you can't specify topicProjectID if you don't specify topic");
  if (s.topic.empty() && s.subscription_id.empty())
    cx.error(at, "must specify topic or subscriptionID");
  if (s.project_id.empty()) // *ganglion*: Argo asks the GCP metadata server (GKE/GCE only)
    cx.error(child_path(at, "projectID"),
             "projectID is required: ganglion does not ask the GCP metadata server for it");
  check_id(s.project_id, "projectID", at, cx);
  check_id(s.topic_project_id, "topicProjectID", at, cx);
  check_id(s.topic, "topic", at, cx);
  check_id(s.subscription_id, "subscriptionID", at, cx);
  check_secret(s.credential_secret, child_path(at, "credentialSecret"), cx);
}

} // namespace ganglion::gcp::detail
