#include "client/broker_url.hpp"
#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::mqtt::detail {

using namespace dsl::detail;

namespace {

/// An MQTT topic filter: `#` only as the whole last level, `+` only as a whole level, no NUL
/// (*ganglion*: Argo's subscribe fails at run time).
std::string topic_problem(const std::string& topic) {
  if (topic.find('\0') != std::string::npos)
    return "the topic contains a NUL character";
  std::size_t start = 0;
  while (true) {
    auto end = topic.find('/', start);
    auto level = topic.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (level.find('#') != std::string::npos && (level != "#" || end != std::string::npos))
      return "# must be the whole last level of the topic filter";
    if (level.find('+') != std::string::npos && level != "+")
      return "+ must be a whole level of the topic filter";
    if (end == std::string::npos)
      return {};
    start = end + 1;
  }
}

/// Argo's ValidateBasicAuth (*ganglion*: also when `tls` is set, which Argo's validate skips).
void check_auth(const std::optional<dsl::basic_auth>& auth, const std::string& path,
                const load_context& cx) {
  if (!auth)
    return;
  if (!auth->username)
    cx.error(child_path(path, "username"), "username is required");
  if (!auth->password)
    cx.error(child_path(path, "password"), "password is required");
  check_secret(auth->username, child_path(path, "username"), cx);
  check_secret(auth->password, child_path(path, "password"), cx);
}

} // namespace

void check_event(const event_spec& m, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  const auto url_at = child_path(at, "url");
  std::optional<broker_address> address;
  if (require(m.url, url_at, "url", cx)) {
    std::string error;
    address = parse_broker_url(m.url, error);
    if (!address)
      cx.error(url_at, error);
    else if (address->has_user_info)
      cx.warning(url_at, "ignored: the user and password in the url (paho does not send them); "
                         "use auth");
  }
  if (require(m.topic, child_path(at, "topic"), "topic", cx))
    if (auto problem = topic_problem(m.topic); !problem.empty())
      cx.error(child_path(at, "topic"), problem);
  require(m.client_id, child_path(at, "clientId"), "clientId", cx);
  check_tls(m.tls, child_path(at, "tls"), cx);
  if (m.tls && address && !address->tls)
    cx.warning(child_path(at, "tls"),
               "ignored: the url's scheme " + address->scheme
                 + ":// connects without TLS (paho uses TLS with ssl://, tls:// or mqtts://)");
  check_auth(m.auth, child_path(at, "auth"), cx);
}

} // namespace ganglion::mqtt::detail
