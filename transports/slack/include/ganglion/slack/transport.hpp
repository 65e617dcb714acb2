#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/command_options.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::slack {

/// Settings of the slack transport.
struct options {
  /// Slack's Web API root, ending in `/` (`--slack-api-url`; tests point it at a local server).
  std::string api_url = "https://slack.com/api/";
};

/// `--slack-api-url` (run, test): the Web API root the slack trigger posts to.
core::command_options command_options();

/// The options the command line gave (`--slack-api-url`; a missing final `/` is added).
options options_from(const core::option_values& values);

/// The `slack` trigger: posts `template.slack` with chat.postMessage (Argo's
/// notifications-engine call) on the shared HTTP client; a thread per messageAggregationKey.
/// Slack's `ok:false`, HTTP errors and the rate limit (429, Retry-After) fail the execution, which
/// the trigger's retryStrategy and dlqTrigger then handle.
core::trigger_factory make_trigger_factory(std::shared_ptr<http::client> requests,
                                           options opts = {});

/// The slack trigger's check step: slackToken given, and, without parameters, a channel,
/// something to post, attachments and blocks JSON arrays. Reads no secret.
std::vector<std::string> check_trigger(const core::trigger_context& ctx);

/// The `slack` source: Slack's pushes on the http transport's server (the push base), each
/// signature-checked with `signingSecret` (5-minute window) and published with Argo's data:
/// Events API callbacks, interactive payloads and slash commands; url_verification answered.
core::source_factory make_source_factory(std::shared_ptr<http::runtime> http);

/// The slack source's check step: token and signingSecret given. Reads no secret.
std::vector<std::string> check_source(const core::source_context& ctx);

/// Registers the `slack` source on the HTTP runtime's server and the `slack` trigger on its
/// client.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        std::shared_ptr<http::runtime> http, options opts = {});

} // namespace ganglion::slack
