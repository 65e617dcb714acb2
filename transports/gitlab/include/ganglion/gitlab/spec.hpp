#pragma once

// The gitlab kind's model: `spec.gitlab.<event>` of an EventSource (Argo's GitlabEventSource),
// as its spec step reads it.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::gitlab {

/// `spec.gitlab.<event>`.
struct event_spec {
  /// `webhook` (Argo's WebhookContext): where GitLab's deliveries arrive.
  http::webhook_spec webhook;
  std::string deprecated_project_id; ///< `projectID`, used when `projects` is empty
  /// `events`: names of go-gitlab's AddProjectHookOptions flags (`PushEvents` …).
  std::vector<std::string> events;
  bool has_events = false; ///< `events` given (Argo tells nil from empty)
  std::optional<dsl::secret_key_selector> access_token;
  bool enable_ssl_verification = false;
  std::string gitlab_base_url;
  bool delete_hook_on_finish = false;
  std::map<std::string, std::string> metadata;
  std::vector<std::string> projects;
  std::optional<dsl::secret_key_selector> secret_token;
  std::vector<std::string> groups;

  /// Argo's GetProjects: `projects`, else `projectID`.
  std::vector<std::string> project_list() const;
  /// Argo's NeedToCreateHooks: `accessToken` and `webhook.url`.
  bool need_to_create_hooks() const { return access_token && !webhook.url.empty(); }
};

/// The spec step of the gitlab source: reads and checks `spec.gitlab.<event>` (Argo's rules and
/// its WebhookContext's), and claims its endpoint as a webhook does. With `one_port` every push
/// source shares the `--listen` port.
dsl::kind_spec source_spec_step(bool one_port = false);

} // namespace ganglion::gitlab
