#include "trigger/parameter_step.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "ganglion/core/internal/event_view.hpp"
#include "trigger/template_json.hpp"

namespace ganglion::core {

namespace {

/// An executor behind the parameter step: resolves, then hands the invocation on.
class parameterized_executor final : public trigger_executor {
public:
  parameterized_executor(std::unique_ptr<parameter_step> step,
                         std::unique_ptr<trigger_executor> inner)
    : step_(std::move(step)), inner_(std::move(inner)) {}

  void execute(const trigger_invocation& invocation, trigger_done done) override {
    trigger_invocation resolved;
    try {
      resolved = step_->resolve(invocation, inner_->reads_events());
    } catch (const std::exception& e) {
      done(trigger_outcome{false, fmt::format("cannot apply the parameters: {}", e.what()), {}});
      return;
    }
    inner_->execute(resolved, std::move(done));
  }

  std::size_t max_concurrency() const override { return inner_->max_concurrency(); }

  bool reads_events() const override { return inner_->reads_events(); }

  bool applies_own_parameters() const override { return inner_->applies_own_parameters(); }

  std::string preview(const trigger_invocation& invocation) override {
    return inner_->preview(step_->resolve(invocation));
  }

private:
  std::unique_ptr<parameter_step> step_;
  /// Last member: destroyed first, so its pending sends finish while the step is alive.
  std::unique_ptr<trigger_executor> inner_;
};

} // namespace

bool resource_parameterized(const dsl::trigger& manifest) {
  const auto* action = action_of(manifest);
  return action && (!manifest.parameters.empty() || !action->parameters.empty());
}

parameter_step::parameter_step(const dsl::trigger& manifest, bool own_parameters) {
  const auto* action = action_of(manifest);
  if (action == nullptr)
    return; // no action: nothing to resolve
  try {
    payload_ = dsl::compile_parameters(action->payload, action->type + ".payload");
    if (!manifest.parameters.empty() || (own_parameters && !action->parameters.empty()))
      resource_.emplace(manifest.parameters, action->parameters, action->type,
                        [&] { return template_json(manifest.template_); }, own_parameters);
    if (resource_ && resource_->rewrites_template())
      rewritten_payload_ =
        std::make_unique<dsl::rewritten_parameters>("payload", action->type + ".payload");
  } catch (const std::exception& e) {
    throw trigger_error(e.what());
  }
}

trigger_invocation parameter_step::resolve(const trigger_invocation& invocation,
                                           bool with_events) {
  trigger_invocation out;
  if (with_events)
    out.events = invocation.events;
  std::lock_guard guard{mutex_};
  auto lookup = views_.reset(invocation.events, context_view);
  std::string rewritten;
  if (resource_)
    out.resource_json = resource_->resolve(lookup, rewritten_payload_ ? &rewritten : nullptr);
  if (rewritten_payload_) {
    // Argo's ConstructPayload reads the payload of the template as the parameters left it.
    auto payload = rewritten_payload_->of(rewritten);
    if (!payload->empty())
      out.payload = dsl::build_payload(*payload, lookup);
  } else if (!payload_.empty()) {
    out.payload = dsl::build_payload(payload_, lookup);
  }
  return out;
}

std::unique_ptr<trigger_executor> create_trigger_executor(const trigger_factory& factory,
                                                          const trigger_context& ctx) {
  if (ctx.manifest == nullptr)
    return factory(ctx);
  auto executor = factory(ctx);
  if (!executor)
    return executor;
  auto step = std::make_unique<parameter_step>(*ctx.manifest, !executor->applies_own_parameters());
  if (step->empty())
    return executor;
  return std::make_unique<parameterized_executor>(std::move(step), std::move(executor));
}

} // namespace ganglion::core
