// The `custom` trigger (Argo's CustomTrigger): per firing, FetchResource(YAML of `spec`),
// `custom.parameters` on the fetched JSON, Execute(resource, payload), ApplyPolicy(response).

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "client/channel.hpp"
#include "trigger/custom_calls.hpp"
#include "trigger/custom_spec_yaml.hpp"
#include "ganglion/core/internal/event_view.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/dsl/params/trigger_parameters.hpp"
#include "ganglion/grpc/spec.hpp"
#include "ganglion/grpc/transport.hpp"
#include "client/target.hpp"

namespace ganglion::grpc {

namespace {

using parameter_list = std::vector<dsl::compiled_parameter>;

std::string name_of(const core::trigger_context& ctx) {
  return fmt::format("custom trigger {}/{}", ctx.sensor_name, ctx.manifest->template_.name);
}

/// Argo's ApplyResourceParameters for the custom trigger: the fetched resource must be a JSON
/// object; `custom.parameters` apply to it.
std::string apply_own_parameters(std::string fetched, const parameter_list& own,
                                 const std::map<std::string, core::event_ptr>& events,
                                 const std::string& trigger) {
  auto parsed = nlohmann::json::parse(fetched, nullptr, false);
  if (parsed.is_discarded())
    throw std::runtime_error(
      fmt::format("fetched resource body is not valid JSON for trigger {}", trigger));
  if (!parsed.is_object())
    throw std::runtime_error(
      fmt::format("fetched resource body is not valid JSON for trigger {}: a JSON {}, not an "
                  "object",
                  trigger, parsed.type_name()));
  dsl::event_views views;
  try {
    dsl::apply_parameters(fetched, own, views.reset(events, core::context_view));
  } catch (const std::exception& e) {
    throw std::runtime_error(
      fmt::format("failed to apply the parameters to the custom trigger resource for {}: {}",
                  trigger, e.what()));
  }
  return fetched;
}

/// The PEM of `certSecret`; throws core::trigger_error when the secret holds no certificate.
std::string read_certificate(const core::trigger_context& ctx, const custom_spec& spec) {
  auto pem = core::read_trigger_secret(ctx, *spec.cert_secret, "custom.certSecret");
  if (pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos)
    throw core::trigger_error(fmt::format("custom.certSecret: secret {}/{} holds no PEM "
                                          "certificate",
                                          spec.cert_secret->name, spec.cert_secret->key));
  return pem;
}

/// How the channel talks to the server, for previews.
std::string security_of(const custom_spec& spec) {
  if (!spec.secure)
    return "plaintext";
  if (spec.server_name_override.empty())
    return "TLS";
  return "TLS, server name " + spec.server_name_override;
}

/// Runs one custom trigger: one channel to `serverURL`, the calls of each execution on gRPC's
/// callback API.
class custom_executor final : public core::trigger_executor {
public:
  custom_executor(const options& opts, const core::trigger_context& ctx)
    : name_(name_of(ctx)), trigger_(ctx.manifest->template_.name) {
    const auto& spec = core::spec_of<custom_spec>(ctx);
    detail::channel_settings settings;
    settings.target = spec.server_url;
    settings.max_receive_bytes = opts.max_message_bytes;
    settings.own_connection = false;
    try {
      if (spec.secure) {
        settings.tls = true;
        settings.root_pem = read_certificate(ctx, spec);
        settings.server_name = spec.server_name_override;
      }
      own_ = std::make_shared<const parameter_list>(
        dsl::compile_parameters(core::action_of(*ctx.manifest)->parameters, "custom.parameters"));
    } catch (const std::exception& e) {
      throw core::trigger_error(fmt::format("{}: {}", name_, e.what()));
    }
    server_ = fmt::format("{} ({})", spec.server_url, security_of(spec));
    template_parameterized_ = !ctx.manifest->parameters.empty();
    if (template_parameterized_)
      rewritten_own_ = std::make_unique<dsl::rewritten_parameters>("parameters", "custom.parameters");
    fixed_resource_ = detail::spec_yaml(spec.spec);
    calls_ = std::make_unique<detail::custom_calls>(detail::custom_call_site{
      detail::make_channel(settings), spec.server_url, name_, opts.call_timeout});
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    detail::custom_call_plan plan;
    try {
      plan.resource = resource_of(invocation);
    } catch (const std::exception& e) {
      done({false, fmt::format("{}: {}", name_, e.what()), {}});
      return;
    }
    plan.payload = invocation.payload;
    auto own = own_;
    if (rewritten_own_ && !invocation.resource_json.empty()) {
      try {
        own = rewritten_own_->of(invocation.resource_json);
      } catch (const std::exception& e) {
        done({false, fmt::format("{}: {}", name_, e.what()), {}});
        return;
      }
    }
    if (!own->empty())
      plan.prepare = [own, events = invocation.events, trigger = trigger_](std::string r) {
        return apply_own_parameters(std::move(r), *own, events, trigger);
      };
    calls_->start(std::move(plan), std::move(done));
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    auto out = fmt::format("gRPC triggers.Trigger on {}\n\nFetchResource, resource:\n{}", server_,
                           resource_of(invocation));
    if (!own_->empty())
      out += fmt::format("\ncustom.parameters ({}) apply to the resource it returns (a JSON "
                         "object)\n",
                         own_->size());
    return out
           + fmt::format("\nExecute, payload:\n{}\n\nApplyPolicy with Execute's response",
                         invocation.payload.empty() ? "(none)" : invocation.payload);
  }

  /// The core applies the template's `parameters[]`; `custom.parameters` apply to the resource
  /// FetchResource returns.
  bool applies_own_parameters() const override { return true; }

  /// Only `custom.parameters` read the events (which a template parameter may add).
  bool reads_events() const override { return !own_->empty() || template_parameterized_; }

private:
  /// FetchResource's request: the YAML of `spec`, after the template's parameters.
  std::string resource_of(const core::trigger_invocation& invocation) const {
    if (template_parameterized_ && !invocation.resource_json.empty())
      return detail::spec_yaml(detail::spec_of_custom_json(invocation.resource_json));
    return fixed_resource_;
  }

  std::string name_;
  std::string trigger_;
  std::string server_;
  std::shared_ptr<const parameter_list> own_;
  /// `custom.parameters` read from each firing's rewritten template, with `parameters[]`.
  std::unique_ptr<dsl::rewritten_parameters> rewritten_own_;
  bool template_parameterized_ = false;
  /// The YAML of the manifest's `spec`, sent when no template parameter applies.
  std::string fixed_resource_;
  std::unique_ptr<detail::custom_calls> calls_;
};

} // namespace

std::vector<std::string> check_trigger(const core::trigger_context& ctx) {
  return core::check_spec<custom_spec>(ctx, [&](const auto& spec) {
    const auto name = name_of(ctx);
    std::vector<std::string> problems;
    std::string error;
    if (spec.server_url.empty())
      problems.push_back(fmt::format("{}: custom trigger gRPC server url is not defined", name));
    else if (!detail::parse_target(spec.server_url, error))
      problems.push_back(fmt::format("{}: custom.serverURL: {}", name, error));
    if (spec.secure && !spec.cert_secret)
      problems.push_back(fmt::format(
        "{}: certSecret can't be nil when the trigger server connection is secure", name));
    return problems;
  });
}

core::trigger_factory make_trigger_factory(options opts) {
  auto create =
    [opts](const core::trigger_context& ctx) -> std::unique_ptr<core::trigger_executor> {
    return std::make_unique<custom_executor>(opts, ctx);
  };
  return {std::move(create), check_trigger, trigger_spec_step()};
}

} // namespace ganglion::grpc
