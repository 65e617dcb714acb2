#include <chrono>

#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/http/push_source.hpp"
#include "ganglion/slack/spec.hpp"
#include "ganglion/slack/transport.hpp"
#include "source/slack_request.hpp"

namespace ganglion::slack {

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [](const event_spec& spec) {
    std::vector<std::string> problems;
    if (!spec.token)
      problems.emplace_back("token not provided");
    if (!spec.signing_secret)
      problems.emplace_back("signingSecret not provided");
    return problems;
  });
}

core::source_factory make_source_factory(std::shared_ptr<http::runtime> http) {
  auto one_port = http->listen.has_value();
  return {[http](const core::source_context& ctx) {
            const auto& spec = core::spec_of<event_spec>(ctx);
            detail::slack_secrets secrets;
            secrets.token = core::read_secret_or_throw<core::source_error>(
              ctx.secrets.get(), *spec.token, "slack.token");
            secrets.signing_secret = core::read_secret_or_throw<core::source_error>(
              ctx.secrets.get(), *spec.signing_secret, "slack.signingSecret");
            http::push_route route;
            route.webhook = spec.webhook;
            route.handle = [secrets = std::move(secrets)](const http::request& request) {
              return detail::handle_request(request, secrets, std::chrono::system_clock::now());
            };
            return http::start_push_source(*http, ctx, std::move(route));
          },
          check_source, source_spec_step(one_port)};
}

} // namespace ganglion::slack
