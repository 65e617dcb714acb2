#include "ganglion/kafka/kafka_trigger.hpp"

#include "ganglion/kafka/spec.hpp"

#include <fmt/format.h>

#include "client/client_config.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/core/secure_headers.hpp"
#include "ganglion/kafka/internal/producer_properties.hpp"
#include "trigger/message_spec.hpp"
#include "trigger/trigger_producer.hpp"

namespace ganglion::kafka {

namespace {

using detail::message;

/// Runs one kafka trigger: builds the message of an invocation the core parameter step resolved,
/// hands it to the producer, reports the broker's acknowledgement.
class kafka_executor final : public core::trigger_executor {
public:
  /// Sends are batched (one flush or delivery round per batch): many executions at once cost
  /// no more than one.
  std::size_t max_concurrency() const override { return 4096; }

  /// It sends the resolved payload and message fields only.
  bool reads_events() const override { return false; }

  kafka_executor(const core::trigger_context& ctx, const trigger_options& options)
    : parameterized_(core::resource_parameterized(*ctx.manifest)) {
    const auto& manifest = *ctx.manifest;
    const auto& spec = core::spec_of<trigger_spec>(ctx);
    secure_headers_ = core::read_secure_headers(ctx, spec.secure_headers);
    fields_ = detail::fields_of(spec);

    detail::client_settings settings;
    settings.name = fmt::format("trigger {}/{}", ctx.sensor_name, manifest.template_.name);
    settings.url = spec.url;
    settings.tls = spec.tls;
    settings.sasl = spec.sasl;
    settings.version = spec.version;
    settings.properties = detail::producer_properties(spec, options, settings.name);
    try {
      producer_ = std::make_unique<detail::trigger_producer>(
        detail::make_client_config(settings, ctx.secrets.get()));
    } catch (const detail::config_error& e) {
      throw core::trigger_error(fmt::format("kafka trigger {}: {}", settings.name, e.what()));
    }
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    message m;
    try {
      m = build(invocation);
    } catch (const std::exception& e) {
      done(core::trigger_outcome{false, fmt::format("cannot build the message: {}", e.what()), {}});
      return;
    }
    producer_->send(m, std::move(done));
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    return detail::describe(build(invocation), secure_headers_.size());
  }

private:
  /// The message of one execution; throws std::runtime_error when it cannot be built.
  message build(const core::trigger_invocation& invocation) const {
    auto fields = parameterized_ ? detail::read_message_fields(invocation.resource_json) : fields_;
    return detail::make_message(std::move(fields), secure_headers_, invocation.payload);
  }

  /// Whether the invocations carry the message fields (`resource_json`).
  bool parameterized_;
  detail::message_fields fields_;
  std::vector<std::pair<std::string, std::string>> secure_headers_;
  /// Last member: destroyed first, so pending deliveries finish while the rest is alive.
  std::unique_ptr<detail::trigger_producer> producer_;
};

} // namespace

std::vector<std::string> check_kafka_trigger(const core::trigger_context& ctx) {
  return core::check_spec<trigger_spec>(ctx, [&](const auto& spec) {
    const auto& manifest = *ctx.manifest;
    if (core::action_of(manifest)->payload.empty())
      return std::vector<std::string>{"kafka.payload: payload parameters are not specified"};
    auto problems = core::secure_header_problems(spec.secure_headers);
    // The parameters are compiled by validate and by the core parameter step.
    if (!core::resource_parameterized(manifest)) {
      try {
        detail::make_message(detail::fields_of(spec), {}, {}); // checks topic and partition
      } catch (const std::exception& e) {
        problems.emplace_back(e.what());
      }
    }
    return problems;
  });
}

core::trigger_factory make_kafka_trigger_factory(trigger_options options) {
  auto create = [options](const core::trigger_context& ctx)
    -> std::unique_ptr<core::trigger_executor> {
    return std::make_unique<kafka_executor>(ctx, options);
  };
  return {std::move(create), check_kafka_trigger, trigger_spec_step()};
}

} // namespace ganglion::kafka
