// The `nats` trigger: publishes one message per firing.

#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "client/connection.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/nats/transport.hpp"
#include "trigger/publisher.hpp"

namespace ganglion::nats {

namespace {

/// The `subject` of a NATSTrigger given as JSON text.
std::string subject_of(const std::string& nats_json) {
  auto nats = nlohmann::json::parse(nats_json, nullptr, false);
  auto i = nats.find("subject");
  if (i == nats.end() || i->is_null())
    return {};
  if (!i->is_string())
    throw std::runtime_error(fmt::format("nats.subject must be a string, not {}", i->dump()));
  return i->get<std::string>();
}

/// One resolved message.
struct message {
  std::string subject;
  std::string payload;
};

/// Runs one nats trigger: takes the subject and payload of an invocation the core parameter step
/// resolved, publishes on the publisher's thread.
class nats_executor final : public core::trigger_executor {
public:
  /// Sends are batched (one flush or delivery round per batch): many executions at once cost
  /// no more than one.
  std::size_t max_concurrency() const override { return 4096; }

  /// It publishes the resolved payload on the resolved subject only.
  bool reads_events() const override { return false; }

  nats_executor(const options& opts, const core::trigger_context& ctx) {
    const auto& manifest = *ctx.manifest;
    const auto& spec = core::spec_of<trigger_spec>(ctx);
    const auto name = fmt::format("nats trigger {}/{}", ctx.sensor_name, manifest.template_.name);
    if (spec.url.empty())
      throw core::trigger_error(fmt::format("{}: nats.url can't be empty", name));
    if (spec.subject.empty())
      throw core::trigger_error(fmt::format("{}: nats.subject can't be empty", name));
    if (core::action_of(manifest)->payload.empty())
      throw core::trigger_error(fmt::format(
        "{}: nats.payload can't be empty (Argo publishes only payload parameters)", name));
    subject_ = spec.subject;
    parameterized_ = core::resource_parameterized(manifest);

    connection_settings settings;
    settings.url = spec.url;
    settings.name = name;
    settings.connect_timeout = opts.connect_timeout;
    settings.min_reconnect_delay = opts.min_reconnect_delay;
    settings.max_reconnect_delay = opts.max_reconnect_delay;
    try {
      if (spec.auth)
        settings.auth = resolve_credentials(*spec.auth, ctx.secrets.get(), "nats.auth");
      if (spec.tls)
        settings.tls = resolve_tls(*spec.tls, ctx.secrets.get(), "nats.tls");
    } catch (const connection_error& e) {
      throw core::trigger_error(fmt::format("{}: {}", name, e.what()));
    }
    publisher_ = std::make_unique<publisher>(std::move(settings), opts.flush_timeout,
                                             opts.max_queued_publishes);
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    message m;
    try {
      m = build(invocation);
    } catch (const std::exception& e) {
      done(core::trigger_outcome{false, fmt::format("cannot build the message: {}", e.what()),
                                 {}});
      return;
    }
    publisher_->publish(std::move(m.subject), std::move(m.payload), std::move(done));
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    auto m = build(invocation);
    return fmt::format("PUB {} (NATS {})\n\n{}", m.subject, publisher_->shown_url(), m.payload);
  }

private:
  /// The message of one execution; throws std::runtime_error when it cannot be built.
  message build(const core::trigger_invocation& invocation) const {
    message m;
    m.payload = invocation.payload;
    // Unlike Argo (which publishes to the subject of the manifest), a subject changed by
    // `nats.parameters` is used.
    m.subject = parameterized_ ? subject_of(invocation.resource_json) : subject_;
    if (m.subject.empty())
      throw std::runtime_error("the subject is empty after applying the parameters");
    return m;
  }

  std::string subject_;
  /// Whether the invocations carry the subject (`resource_json`).
  bool parameterized_ = false;
  std::unique_ptr<publisher> publisher_;
};

} // namespace

std::vector<std::string> check_trigger(const core::trigger_context& ctx) {
  return core::check_spec<trigger_spec>(ctx, [&](const auto& spec) {
    const auto& manifest = *ctx.manifest;
    const auto name = fmt::format("nats trigger {}/{}", ctx.sensor_name, manifest.template_.name);
    std::vector<std::string> problems;
    if (spec.url.empty())
      problems.push_back(fmt::format("{}: nats.url can't be empty", name));
    if (spec.subject.empty())
      problems.push_back(fmt::format("{}: nats.subject can't be empty", name));
    if (core::action_of(manifest)->payload.empty())
      problems.push_back(fmt::format(
        "{}: nats.payload can't be empty (Argo publishes only payload parameters)", name));
    // The parameters are compiled by validate and by the core parameter step.
    return problems;
  });
}

core::trigger_factory make_trigger_factory(options opts) {
  auto create = [opts](const core::trigger_context& ctx)
    -> std::unique_ptr<core::trigger_executor> {
    return std::make_unique<nats_executor>(opts, ctx);
  };
  return {std::move(create), check_trigger, trigger_spec_step()};
}

} // namespace ganglion::nats
