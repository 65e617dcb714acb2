#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::nats::detail {

using namespace dsl::detail;

namespace {

/// `auth`: one kind only (*ganglion*: Argo silently takes the first), basic with both
/// username and password.
void check_auth(const std::optional<auth_spec>& auth, const std::string& path,
                const load_context& cx) {
  if (!auth)
    return;
  std::string kinds;
  auto count = [&](bool set, const char* name) {
    if (set)
      kinds += (kinds.empty() ? "" : ", ") + std::string{name};
    return set ? 1 : 0;
  };
  int n = count(auth->basic.has_value(), "basic") + count(auth->token.has_value(), "token")
          + count(auth->nkey.has_value(), "nkey")
          + count(auth->credential.has_value(), "credential");
  if (n == 0)
    cx.warning(path, "auth sets none of basic, token, nkey or credential: no authentication");
  else if (n > 1)
    cx.error(path, "auth takes one of basic, token, nkey or credential, found " + kinds);
  if (auth->basic) {
    auto basic = child_path(path, "basic");
    if (!auth->basic->username)
      cx.error(child_path(basic, "username"), "username is required");
    if (!auth->basic->password)
      cx.error(child_path(basic, "password"), "password is required");
    check_secret(auth->basic->username, child_path(basic, "username"), cx);
    check_secret(auth->basic->password, child_path(basic, "password"), cx);
  }
  check_secret(auth->token, child_path(path, "token"), cx);
  check_secret(auth->nkey, child_path(path, "nkey"), cx);
  check_secret(auth->credential, child_path(path, "credential"), cx);
}

} // namespace

void check_event(const event_spec& n, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  require(n.url, child_path(at, "url"), "url", cx);
  require(n.subject, child_path(at, "subject"), "subject", cx);
  if (n.queue.empty() && present(cx, child_path(at, "queue")))
    cx.error(child_path(at, "queue"), "queue must not be empty when given");
  check_tls(n.tls, child_path(at, "tls"), cx);
  check_auth(n.auth, child_path(at, "auth"), cx);
}

void check_trigger(const trigger_spec& nats, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  const auto& scope = *in.scope;
  require(nats.url, child_path(path, "url"), "url", cx);
  require(nats.subject, child_path(path, "subject"), "subject", cx);
  require_payload(in.action->payload, path, "nats", scope, cx);
  validate_parameters(in.action->parameters, child_path(path, "parameters"), false, scope, cx,
                      "nats.parameters");
  check_tls(nats.tls, child_path(path, "tls"), cx);
  check_auth(nats.auth, child_path(path, "auth"), cx);
}

} // namespace ganglion::nats::detail
