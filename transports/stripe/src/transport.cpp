#include "ganglion/stripe/transport.hpp"

namespace ganglion::stripe {

core::command_options command_options() {
  core::command_option api;
  api.flag = "--stripe-api-url";
  api.help = "Stripe API root the stripe source's createWebhook calls (default: "
             "https://api.stripe.com)";
  api.commands = {"run", "test"};
  return {api};
}

options options_from(const core::option_values& values) {
  options out;
  auto url = values.value("--stripe-api-url");
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  if (!url.empty())
    out.api_url = std::move(url);
  return out;
}

void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts) {
  sources["stripe"] = make_source_factory(std::move(rt), std::move(opts));
}

} // namespace ganglion::stripe
