#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::gerrit::detail {

using namespace dsl::detail;

namespace {

bool is_http_url(const std::string& url) {
  return url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
}

} // namespace

void check_event(const event_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  if (s.projects.empty())
    cx.error(child_path(at, "projects"), "projects cannot be empty");
  if (!present(cx, child_path(at, "events")))
    cx.error(child_path(at, "events"), "events can't be empty (an empty list posts every event)");
  auto base = child_path(at, "gerritBaseURL");
  if (require(s.gerrit_base_url, base, "gerritBaseURL", cx) && !is_http_url(s.gerrit_base_url))
    cx.error(base, "gerritBaseURL must be an http:// or https:// URL, got \"" + s.gerrit_base_url
                     + "\""); // *ganglion*: Argo fails on its first request
  auto auth = child_path(at, "auth");
  if (!s.auth) {
    cx.error(auth, "username and password can't be empty");
  } else {
    if (!s.auth->username)
      cx.error(child_path(auth, "username"), "username is required");
    check_secret(s.auth->username, child_path(auth, "username"), cx);
    if (!s.auth->password)
      cx.error(child_path(auth, "password"), "password is required");
    check_secret(s.auth->password, child_path(auth, "password"), cx);
  }
  if (s.need_to_create_hooks() && s.hook_name.empty()) // *ganglion*: the hook's remote name
    cx.error(child_path(at, "hookName"), "hookName is required to create the Gerrit hook");
  if (s.max_tries < 0)
    cx.error(child_path(at, "maxTries"), "maxTries must not be negative"); // *ganglion*
  if (s.delete_hook_on_finish && !s.need_to_create_hooks())
    cx.warning(child_path(at, "deleteHookOnFinish"),
               "ignored: no hook is created without webhook.url (Argo's NeedToCreateHooks)");
}

} // namespace ganglion::gerrit::detail
