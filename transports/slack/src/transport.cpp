#include "ganglion/slack/transport.hpp"

namespace ganglion::slack {

core::command_options command_options() {
  core::command_option api;
  api.flag = "--slack-api-url";
  api.help = "Slack Web API root the slack trigger posts to (default: https://slack.com/api/)";
  api.commands = {"run", "test"};
  return {api};
}

options options_from(const core::option_values& values) {
  options out;
  auto url = values.value("--slack-api-url");
  if (!url.empty()) {
    if (url.back() != '/')
      url += '/';
    out.api_url = std::move(url);
  }
  return out;
}

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        std::shared_ptr<http::runtime> http, options opts) {
  sources["slack"] = make_source_factory(http);
  triggers["slack"] = make_trigger_factory(http->requests, std::move(opts));
}

} // namespace ganglion::slack
