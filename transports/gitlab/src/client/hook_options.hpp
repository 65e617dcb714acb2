#pragma once

// The hook Argo asks GitLab for: go-gitlab's AddProjectHookOptions and AddGroupHookOptions as
// Argo fills them (every event flag it names false, the listed `events` true by field name) and
// json.Marshal writes them.

#include <string>
#include <string_view>
#include <vector>

namespace ganglion::gitlab::detail {

/// Whether `name` is a boolean field of AddProjectHookOptions, which Argo sets by reflection.
bool is_hook_flag(std::string_view name);

/// The names is_hook_flag accepts, comma-separated.
std::string hook_flag_names();

/// What a hook is created with.
struct hook_request {
  std::string url; ///< the webhook's URL with its endpoint (Argo's FormattedURL)
  bool enable_ssl_verification = false;
  std::vector<std::string> events; ///< flag names set true
  std::string token;               ///< `secretToken`'s value; left out when empty
};

/// json.Marshal(AddProjectHookOptions) of `request`: the fields in go-gitlab's order, nil ones
/// left out.
std::string project_hook_body(const hook_request& request);

/// json.Marshal(AddGroupHookOptions) of `request`: only the fields Argo copies from the project
/// options (URL, SSL verification, token and eleven event flags), in go-gitlab's order.
std::string group_hook_body(const hook_request& request);

} // namespace ganglion::gitlab::detail
