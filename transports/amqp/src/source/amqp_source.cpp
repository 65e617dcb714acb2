// The `amqp` event source: one consumer thread per event.

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/connection.hpp"
#include "ganglion/amqp/transport.hpp"
#include "ganglion/core/kind_check.hpp"
#include "source/consumer.hpp"

namespace ganglion::amqp {

namespace {

/// A running amqp source: its consumer thread.
class amqp_source final : public core::source {
public:
  explicit amqp_source(std::unique_ptr<detail::consumer> consumer)
    : consumer_(std::move(consumer)) {}

private:
  std::unique_ptr<detail::consumer> consumer_;
};

std::string source_name(const core::source_context& ctx) {
  return fmt::format("amqp source {}/{}", ctx.event_source_name, ctx.event_name);
}

std::unique_ptr<core::source> start_source(const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  if (!ctx.bus)
    throw core::source_error(source_name(ctx) + " started without a bus");
  connection_settings settings;
  try {
    settings = resolve_settings(spec, ctx.secrets.get());
  } catch (const connection_error& e) {
    throw core::source_error(fmt::format("{}: {}", source_name(ctx), e.what()));
  }
  if (spec.consumer.auto_ack)
    spdlog::warn("{}: consume.autoAck is set: a message the bus refuses, or one in flight when "
                 "the source stops, is lost",
                 source_name(ctx));
  auto consumer = std::make_unique<detail::consumer>(ctx, spec, std::move(settings), opts);
  consumer->start();
  return std::make_unique<amqp_source>(std::move(consumer));
}

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const event_spec& spec) {
    auto name = source_name(ctx);
    std::vector<std::string> problems;
    if (spec.url.empty() == !spec.url_secret.has_value())
      problems.push_back(fmt::format("{}: exactly one of url and urlSecret is required", name));
    if (spec.routing_key.empty())
      problems.push_back(fmt::format("{}: routing key must be specified", name));
    if (spec.exchange_type.empty())
      problems.push_back(fmt::format("{}: exchange type must be specified", name));
    if (spec.exchange_name.empty())
      problems.push_back(fmt::format("{}: exchangeName must be specified", name));
    return problems;
  });
}

core::source_factory make_source_factory(options opts) {
  core::source_factory factory{
    [opts](const core::source_context& ctx) { return start_source(opts, ctx); }, check_source,
    source_spec_step()};
  factory.pending_until_connected([](const core::source_context& ctx) {
    const auto& spec = core::spec_of<event_spec>(ctx);
    return spec.url_secret ? std::string{"connecting to the broker of urlSecret"}
                           : "connecting to " + redact_url(spec.url);
  });
  return factory;
}

} // namespace ganglion::amqp
