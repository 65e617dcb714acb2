#include "source/slack_request.hpp"

#include "client/signature.hpp"
#include "ganglion/core/secrets.hpp"
#include "source/event_data.hpp"

namespace ganglion::slack::detail {

namespace {

http::push_outcome from_form(const http::request& request) {
  auto form = http::parse_query(request.body);
  auto first = [&](const char* key) {
    auto it = form.find(key);
    return it == form.end() || it->second.empty() ? std::string{} : it->second.front();
  };
  if (auto payload = first("payload"); !payload.empty()) {
    std::string error;
    auto data = interaction_data(payload, error);
    if (!data)
      return http::push_outcome::refuse(400, "malformed", error);
    return http::push_outcome::publish(std::move(*data));
  }
  if (!first("command").empty())
    return http::push_outcome::publish(slash_command_data(form));
  return http::push_outcome::refuse(400, "malformed",
                                    "could not determine slack type from form parameters");
}

http::push_outcome from_events_api(const http::request& request, const slack_secrets& secrets) {
  std::string error;
  auto event = read_events_api(request.body, error);
  if (!event)
    return http::push_outcome::refuse(400, "malformed", error);
  if (!core::constant_time_equal(event->token, secrets.token))
    return http::push_outcome::refuse(401, "token", "invalid verification token");
  if (event->type == "url_verification") {
    http::response reply;
    reply.body = event->challenge;
    reply.content_type = "text";
    return http::push_outcome::answer(std::move(reply));
  }
  if (event->type == "event_callback")
    return http::push_outcome::publish(std::move(event->data));
  return http::push_outcome::answer(http::text_response(200, "success"));
}

} // namespace

http::push_outcome handle_request(const http::request& request, const slack_secrets& secrets,
                                  std::chrono::system_clock::time_point now) {
  if (!secrets.signing_secret.empty()) {
    auto problem = signature_problem(request.header("X-Slack-Signature"),
                                     request.header("X-Slack-Request-Timestamp"), request.body,
                                     secrets.signing_secret, now);
    if (problem)
      return http::push_outcome::refuse(
        401, *problem == "timestamp is too old" ? "timestamp" : "signature", *problem);
  }
  if (request.header("Content-Type") == "application/x-www-form-urlencoded")
    return from_form(request);
  return from_events_api(request, secrets);
}

} // namespace ganglion::slack::detail
