#include "client/queue_arguments.hpp"
#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::amqp::detail {

using namespace dsl::detail;

namespace {

/// `noWait: true` of one part: ganglion waits for every answer of the broker.
void check_no_wait(bool no_wait, const std::string& part, const load_context& cx) {
  if (no_wait)
    cx.warning(child_path(part, "noWait"),
               "ignored: ganglion always waits for the broker to confirm (a refusal is then "
               "reported at once instead of closing the channel later)");
}

void check_url(const event_spec& n, const std::string& at, const load_context& cx) {
  auto url_at = child_path(at, "url");
  if (n.url.empty() && !n.url_secret)
    cx.error(url_at, "either url or urlSecret must be specified");
  if (!n.url.empty() && n.url_secret)
    cx.error(child_path(at, "urlSecret"), "only one of url or urlSecret can be specified");
  bool tls_scheme = n.url.rfind("amqps://", 0) == 0;
  if (!n.url.empty() && !tls_scheme && n.url.rfind("amqp://", 0) != 0)
    cx.error(url_at, "the url must start with amqp:// or amqps://");
  check_secret(n.url_secret, child_path(at, "urlSecret"), cx);
  if (n.tls && !n.url.empty() && !tls_scheme)
    cx.warning(child_path(at, "tls"),
               "ignored with an amqp:// url: TLS is used for amqps:// only (as Argo's client)");
}

void check_auth(const std::optional<dsl::basic_auth>& auth, const std::string& path,
                const load_context& cx) {
  if (!auth)
    return;
  if (!auth->username)
    cx.error(child_path(path, "username"), "username missing");
  if (!auth->password)
    cx.error(child_path(path, "password"), "password missing");
  check_secret(auth->username, child_path(path, "username"), cx);
  check_secret(auth->password, child_path(path, "password"), cx);
}

} // namespace

void check_event(const event_spec& n, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  check_url(n, at, cx);
  require(n.routing_key, child_path(at, "routingKey"), "routingKey", cx);
  require(n.exchange_type, child_path(at, "exchangeType"), "exchangeType", cx);
  if (n.exchange_name.empty())
    cx.error(child_path(at, "exchangeName"),
             "exchangeName is required: the broker refuses to declare the default exchange");
  check_tls(n.tls, child_path(at, "tls"), cx);
  check_auth(n.auth, child_path(at, "auth"), cx);
  check_no_wait(n.exchange.no_wait, child_path(at, "exchangeDeclare"), cx);
  check_no_wait(n.queue.no_wait, child_path(at, "queueDeclare"), cx);
  check_no_wait(n.bind.no_wait, child_path(at, "queueBind"), cx);
  check_no_wait(n.consumer.no_wait, child_path(at, "consume"), cx);
  std::string error;
  if (!parse_queue_arguments(n.queue.arguments, error))
    cx.error(child_path(child_path(at, "queueDeclare"), "arguments"), error);
  if (n.consumer.auto_ack)
    cx.warning(child_path(child_path(at, "consume"), "autoAck"),
               "the broker forgets each message as it sends it: one the bus refuses, or one in "
               "flight when the source stops, is lost (at most once); leave autoAck out and "
               "ganglion acknowledges each message once the bus holds its event");
}

} // namespace ganglion::amqp::detail
