#include "ganglion/kafka/kafka_trigger.hpp"

#include "ganglion/kafka/spec.hpp"

#include <fmt/format.h>

#include "client_config.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/kafka/internal/producer_properties.hpp"
#include "message_spec.hpp"
#include "trigger_producer.hpp"

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
    if (core::action_of(manifest)->payload.empty())
      throw core::trigger_error("kafka.payload: payload parameters are not specified");
    for (const auto& header : spec.secure_headers) {
      if (header.config_map)
        throw core::trigger_error(
          fmt::format("secureHeaders {}: configMapKeyRef is not supported yet", header.name));
      if (!header.secret)
        throw core::trigger_error(
          fmt::format("secureHeaders {}: valueFrom.secretKeyRef is missing", header.name));
      secure_headers_.emplace_back(header.name,
                                   core::read_trigger_secret(ctx, *header.secret, "secureHeaders"));
    }
    fields_ = detail::fields_of(spec);
    if (!parameterized_) {
      try {
        detail::make_message(fields_, secure_headers_, {}); // checks topic and partition
      } catch (const std::exception& e) {
        throw core::trigger_error(e.what());
      }
    }

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
  const trigger_spec* found = nullptr;
  try {
    found = &core::spec_of<trigger_spec>(ctx);
  } catch (const core::trigger_error& e) {
    return {e.what()};
  }
  const auto& manifest = *ctx.manifest;
  const auto& spec = *found;
  if (core::action_of(manifest)->payload.empty())
    return {"kafka.payload: payload parameters are not specified"};
  std::vector<std::string> problems;
  for (const auto& header : spec.secure_headers)
    if (header.config_map)
      problems.push_back(
        fmt::format("secureHeaders {}: configMapKeyRef is not supported yet", header.name));
    else if (!header.secret)
      problems.push_back(
        fmt::format("secureHeaders {}: valueFrom.secretKeyRef is missing", header.name));
  // The parameters are compiled by validate and by the core parameter step.
  if (!core::resource_parameterized(manifest)) {
    try {
      detail::make_message(detail::fields_of(spec), {}, {}); // checks topic and partition
    } catch (const std::exception& e) {
      problems.emplace_back(e.what());
    }
  }
  return problems;
}

core::trigger_factory make_kafka_trigger_factory(trigger_options options) {
  auto create = [options](const core::trigger_context& ctx)
    -> std::unique_ptr<core::trigger_executor> {
    if (auto problems = check_kafka_trigger(ctx); !problems.empty())
      throw core::trigger_error(problems.front());
    return std::make_unique<kafka_executor>(ctx, options);
  };
  return {std::move(create), check_kafka_trigger, trigger_spec_step()};
}

} // namespace ganglion::kafka
