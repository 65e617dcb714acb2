#include <fmt/format.h>

#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/openwhisk/spec.hpp"
#include "ganglion/openwhisk/transport.hpp"
#include "trigger/invoke_request.hpp"

namespace ganglion::openwhisk {

namespace {

/// Invokes one OpenWhisk action per execution on the http client's thread.
class openwhisk_executor final : public core::trigger_executor {
public:
  openwhisk_executor(std::shared_ptr<http::client> requests, const core::trigger_context& ctx)
    : client_(std::move(requests)), parameterized_(core::resource_parameterized(*ctx.manifest)) {
    const auto& spec = core::spec_of<trigger_spec>(ctx);
    fixed_ = {spec.host, spec.version, spec.namespace_, spec.action_name};
    if (spec.auth_token)
      token_ = core::read_trigger_secret(ctx, *spec.auth_token, "openWhisk.authToken");
    if (ctx.manifest->policy && ctx.manifest->policy->status)
      allow_ = ctx.manifest->policy->status->allow;
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    http::client_request r;
    detail::action_address address;
    try {
      address = address_of(invocation);
      r = detail::invoke_request(address, token_, invocation.payload);
    } catch (const std::exception& e) {
      done(core::trigger_outcome{false, fmt::format("cannot build the request: {}", e.what()), {}});
      return;
    }
    auto completion = [action = address.action_name, allow = allow_,
                       done](http::client_response response) {
      done(detail::judge(response, action, allow));
    };
    if (!client_->submit(std::move(r), std::move(completion)))
      done(core::trigger_outcome{false, "the HTTP client is saturated or shut down", {}});
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    return fmt::format("POST {}\n\n{}", detail::invoke_url(address_of(invocation)),
                       invocation.payload);
  }

  /// It sends the resolved address and payload only.
  bool reads_events() const override { return false; }

private:
  detail::action_address address_of(const core::trigger_invocation& invocation) const {
    return parameterized_ ? detail::read_address(invocation.resource_json) : fixed_;
  }

  std::shared_ptr<http::client> client_;
  bool parameterized_;
  detail::action_address fixed_;
  std::optional<std::string> token_;
  std::vector<std::int32_t> allow_;
};

std::vector<std::string> check_trigger(const core::trigger_context& ctx) {
  return core::check_spec<trigger_spec>(ctx, [&](const trigger_spec& spec) {
    std::vector<std::string> problems;
    if (!spec.auth_token)
      problems.emplace_back("openWhisk.authToken is required: OpenWhisk's client (Argo's) refuses "
                            "to invoke an action without an authorization key");
    if (!core::resource_parameterized(*ctx.manifest)) {
      try {
        detail::invoke_url({spec.host, spec.version, spec.namespace_, spec.action_name});
      } catch (const std::exception& e) {
        problems.emplace_back(e.what());
      }
    }
    return problems;
  });
}

} // namespace

core::trigger_factory make_trigger_factory(std::shared_ptr<http::client> requests) {
  return {[requests = std::move(requests)](const core::trigger_context& ctx) {
            return std::make_unique<openwhisk_executor>(requests, ctx);
          },
          check_trigger, trigger_spec_step()};
}

} // namespace ganglion::openwhisk
