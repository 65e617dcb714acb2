#include <algorithm>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/management_api.hpp"
#include "ganglion/core/event.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/http/hooked_source.hpp"
#include "ganglion/storagegrid/spec.hpp"
#include "ganglion/storagegrid/transport.hpp"
#include "source/notification.hpp"

namespace ganglion::storagegrid {

namespace {

using http::registration_failure;

/// A UUID in its text form (8-4-4-4-12 hex digits).
std::string new_uuid() {
  auto hex = core::new_event_id();
  for (std::size_t at : {20u, 16u, 12u, 8u})
    hex.insert(at, 1, '-');
  return hex;
}

/// Argo's respBody: an SNS PublishResponse whose two UUIDs are drawn once per process.
const std::string& publish_response() {
  static const std::string body =
    "\n<PublishResponse xmlns=\"http://argoevents-sns-server/\">\n    <PublishResult> \n"
    "        <MessageId>"
    + new_uuid()
    + "</MessageId> \n    </PublishResult> \n    <ResponseMetadata>\n       <RequestId>"
    + new_uuid() + "</RequestId>\n    </ResponseMetadata> \n</PublishResponse>\n";
  return body;
}

/// Argo writes 200 with the PublishResponse (Content-Type `text/plain`) before it reads the body.
http::response answered(std::string body) {
  http::response r;
  r.status = 200;
  r.body = std::move(body);
  r.content_type = "text/plain";
  return r;
}

/// A request Argo answers 200 but publishes nothing for, counted under `reason`.
http::push_outcome dropped(std::string reason, std::string body) {
  http::push_outcome out;
  out.reply = answered(std::move(body));
  out.rejected_reason = std::move(reason);
  return out;
}

/// Argo's PostActivate: the endpoint of `topicArn` made unless the API lists it, then the
/// bucket's notification configuration put. Once per start; Argo leaves both in place.
class registration final : public http::provider_hooks {
public:
  registration(std::string name, std::string event_name, const event_spec& spec,
               detail::management_api api)
    : name_(std::move(name)), event_name_(std::move(event_name)), spec_(spec),
      api_(std::move(api)) {}

  std::optional<registration_failure> apply() override {
    http::api_answer failed;
    auto urns = api_.endpoint_urns(failed);
    if (!urns)
      return failure("failed to list existing endpoints", failed);
    if (std::find(urns->begin(), urns->end(), spec_.topic_arn) == urns->end()) {
      auto uri = http::formatted_url(spec_.webhook.url, spec_.webhook.endpoint);
      if (!api_.create_endpoint(detail::endpoint_body(event_name_, uri, spec_.topic_arn), failed))
        return failure("failed to register the endpoint", failed);
      spdlog::info("{}: StorageGRID endpoint {} registered for {}", name_, spec_.topic_arn, uri);
    }
    auto xml = detail::notification_xml(event_name_, spec_.topic_arn,
                                        spec_.events.value_or(std::vector<std::string>{}));
    if (!api_.put_notification(spec_.bucket, detail::notification_body(xml), failed))
      return failure("failed to configure notification", failed);
    spdlog::info("{}: notification configuration of bucket {} registered on StorageGRID", name_,
                 spec_.bucket);
    return std::nullopt;
  }

  void remove() override {} // Argo's PostInactivate does nothing

private:
  std::optional<registration_failure> failure(const std::string& what,
                                              const http::api_answer& failed) const {
    auto text = detail::error_text(failed.body);
    auto reason = text.empty() ? fmt::format("{}: {}", what, failed.error)
                               : fmt::format("{}. reason: {} ({})", what, text, failed.error);
    spdlog::warn("{}: {}", name_, reason);
    return registration_failure{reason, failed.status == 401 || failed.status == 403};
  }

  std::string name_;
  std::string event_name_;
  event_spec spec_;
  detail::management_api api_;
};

/// Argo's HandleRoute: answered 200 first, then the body read, filtered and published.
http::push_outcome handle(const http::request& req, const event_spec& spec,
                          const std::string& name) {
  // *ganglion*: after a HEAD request Argo empties its reply for every later request of the
  // process (it overwrites the shared respBody); here only the HEAD is answered without a body.
  const std::string reply = req.method == "HEAD" ? std::string{} : publish_response();
  std::string error;
  bool panic = false;
  auto n = detail::read_notification(req.body, error, panic);
  if (!n && panic) {
    // *ganglion*: Go panics inside qson here and the producer gets no answer at all.
    spdlog::warn("{}: notification refused: {}", name, error);
    return http::push_outcome::refuse(400, "malformed",
                                      "the notification's form cannot be read: " + error);
  }
  if (!n) {
    spdlog::warn("{}: failed to convert the request body into storage grid notification: {}", name,
                 error);
    return dropped("malformed", reply);
  }
  auto pass = detail::passes(*n, spec.object_filter);
  if (!pass) {
    // *ganglion*: Argo indexes Records[0] of an empty list here and its handler panics.
    spdlog::warn("{}: notification refused: it has no Records to filter on", name);
    return http::push_outcome::refuse(400, "malformed",
                                      "the notification has no Records to filter on");
  }
  if (!*pass) {
    spdlog::info("{}: discarding notification since it did not pass all filters", name);
    return dropped("filtered", reply);
  }
  auto out = http::push_outcome::publish(detail::event_data(*n, spec.metadata));
  // Argo answers `success` after the PublishResponse once it dispatched the event.
  // *ganglion*: when the bus refuses it, 503 with Retry-After (Argo: 200 with the
  // PublishResponse and `failed to record event`, the event lost).
  out.accepted = answered(reply + "success");
  return out;
}

std::optional<http::client_tls> read_tls(const event_spec& spec, const core::secret_store* s) {
  if (!spec.tls)
    return std::nullopt;
  http::client_tls tls;
  tls.insecure_skip_verify = spec.tls->insecure_skip_verify;
  if (tls.insecure_skip_verify) // Argo's GetTLSConfig: then nothing else
    return tls;
  auto read = [&](const std::optional<dsl::secret_key_selector>& ref, const char* field) {
    return ref ? core::read_secret_or_throw<core::source_error>(s, *ref, field) : std::string{};
  };
  tls.ca_certificate_pem = read(spec.tls->ca_cert_secret, "tls.caCertSecret");
  tls.client_certificate_pem = read(spec.tls->client_cert_secret, "tls.clientCertSecret");
  tls.client_key_pem = read(spec.tls->client_key_secret, "tls.clientKeySecret");
  return tls;
}

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const event_spec& spec) {
    std::vector<std::string> problems;
    auto add = [&](const char* what) {
      problems.push_back(
        fmt::format("storageGrid source {}/{}: {}", ctx.event_source_name, ctx.event_name, what));
    };
    if (spec.topic_arn.empty())
      add("topic arn must be provided");
    if (spec.api_url.empty())
      add("api url must be provided");
    if (!spec.auth_token)
      add("api auth token must be provided");
    if (spec.bucket.empty())
      add("bucket name must be provided");
    if (!spec.events)
      add("event types must be provided");
    return problems;
  });
}

std::unique_ptr<core::source> start_source(const std::shared_ptr<http::runtime>& rt,
                                           const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  auto name = fmt::format("storageGrid source {}/{}", ctx.event_source_name, ctx.event_name);
  auto token = core::read_secret_or_throw<core::source_error>(ctx.secrets.get(), *spec.auth_token,
                                                              "authToken");
  auto hooks = std::make_shared<registration>(
    name, ctx.event_name, spec,
    detail::management_api(*rt->requests, spec.api_url, std::move(token),
                           read_tls(spec, ctx.secrets.get()), opts.request_timeout));
  http::push_route route{spec.webhook,
                         [spec, name](const http::request& req) { return handle(req, spec, name); },
                         false};
  return http::start_hooked_source(*rt, ctx, std::move(route), std::move(hooks),
                                   {.recheck = std::chrono::milliseconds{0},
                                    .first_retry = opts.first_retry,
                                    .max_retry = opts.max_retry,
                                    .first_delay = std::chrono::milliseconds{0},
                                    .attempts = opts.attempts,
                                    .rechecks = 0},
                                   false);
}

} // namespace

core::source_factory make_source_factory(std::shared_ptr<http::runtime> rt, options opts) {
  return {[rt, opts](const core::source_context& ctx) { return start_source(rt, opts, ctx); },
          check_source, source_spec_step(rt && rt->listen.has_value())};
}

} // namespace ganglion::storagegrid
