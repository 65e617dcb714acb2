// The `awsLambda` trigger: one signed Invoke per execution on the shared HTTP client.

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "client/api_call.hpp"
#include "client/credential_source.hpp"
#include "ganglion/aws/transport.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/parameter_step.hpp"

namespace ganglion::aws {

namespace {

/// What an Invoke names: the function and the invocation type (after parameters).
struct invoke_target {
  std::string function_name;
  std::string invocation_type;
};

/// The outcome of one Invoke reply: an AWS error, a function error or a status outside
/// `allow` fail.
core::trigger_outcome judge(const http::client_response& r, const std::vector<std::int32_t>& allow) {
  core::trigger_outcome outcome;
  if (r.status < 200 || r.status > 299) {
    outcome.error = "Invoke failed: " + describe(r);
    return outcome;
  }
  outcome.detail = fmt::format("HTTP {}", r.status);
  if (auto kind = header_value(r, "X-Amz-Function-Error"); !kind.empty()) {
    outcome.error = fmt::format("the function failed ({}): {}", kind, r.body.substr(0, 1024));
    return outcome;
  }
  if (!allow.empty() && std::find(allow.begin(), allow.end(), r.status) == allow.end()) {
    outcome.error = fmt::format("HTTP {} is not in policy.status.allow [{}]", r.status,
                                fmt::join(allow, ", "));
    return outcome;
  }
  outcome.ok = true;
  return outcome;
}

/// The Invoke of `t` with `payload`, signed with `keys`.
http::client_request invoke_request(const api_endpoint& api, const credentials& keys,
                                    const invoke_target& t, const std::string& payload,
                                    std::chrono::milliseconds timeout) {
  std::vector<std::pair<std::string, std::string>> headers{{"Content-Type", "application/json"}};
  if (!t.invocation_type.empty())
    headers.emplace_back("X-Amz-Invocation-Type", t.invocation_type);
  return signed_request(api, keys, "POST",
                        "/2015-03-31/functions/" + uri_encode(t.function_name) + "/invocations",
                        payload, std::move(headers), timeout);
}

class lambda_executor final : public core::trigger_executor {
public:
  lambda_executor(std::shared_ptr<http::client> requests, const options& opts,
                  const core::trigger_context& ctx)
    : client_(std::move(requests)), opts_(opts) {
    const auto& spec = core::spec_of<lambda_spec>(ctx);
    fixed_ = {spec.function_name, spec.invocation_type};
    api_ = make_endpoint(opts.endpoint, "lambda", spec.region);
    if (ctx.manifest->policy && ctx.manifest->policy->status)
      allow_ = ctx.manifest->policy->status->allow;
    parameterized_ = core::resource_parameterized(*ctx.manifest);
    try {
      keys_ = make_credential_source(spec, std::nullopt, ctx.secrets.get(),
                                     "triggers." + ctx.manifest->template_.name + ".awsLambda",
                                     client_, opts.endpoint, opts.request_timeout);
    } catch (const std::exception& e) {
      if (!ctx.dry_run)
        throw core::trigger_error(e.what());
      missing_keys_ = e.what();
    }
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    invoke_target t;
    try {
      t = target_of(invocation);
    } catch (const std::exception& e) {
      return done(core::trigger_outcome{false, fmt::format("cannot build the Invoke: {}", e.what()), {}});
    }
    if (t.function_name.empty())
      return done(core::trigger_outcome{false, "cannot build the Invoke: functionName is empty", {}});
    if (!keys_)
      return done(core::trigger_outcome{false, "credentials not read: " + missing_keys_, {}});
    // The role's credentials may need STS first: the request is signed once they are known.
    // The callback may run on the client's thread: it holds the client weakly, so that it
    // never drops the client's last reference there.
    keys_->get([weak = std::weak_ptr<http::client>(client_), api = api_,
                timeout = opts_.request_timeout, t = std::move(t), payload = invocation.payload,
                allow = allow_, done](credentials keys, std::string error) {
      if (!error.empty())
        return done(core::trigger_outcome{false, error, {}});
      auto completion = [allow, done](http::client_response response) {
        done(judge(response, allow));
      };
      bool submitted = false;
      if (auto client = weak.lock())
        submitted =
          client->submit(invoke_request(api, keys, t, payload, timeout), std::move(completion));
      if (!submitted)
        done(core::trigger_outcome{false, "the HTTP client is saturated or shut down", {}});
    });
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    auto t = target_of(invocation);
    if (t.function_name.empty())
      throw std::runtime_error("functionName is empty");
    auto r = invoke_request(api_, keys_ ? keys_->base() : credentials{}, t, invocation.payload,
                            opts_.request_timeout);
    std::string out = fmt::format("POST {} (SigV4 {})", r.url, r.aws_sigv4);
    if (keys_ && keys_->assumes_role())
      out += " with the credentials of the role assumed at run";
    for (const auto& [name, value] : r.headers)
      if (name != "X-Amz-Security-Token")
        out += fmt::format("\n{}: {}", name, value);
    if (!missing_keys_.empty())
      out += "\n(credentials not read: " + missing_keys_ + ")";
    return out + "\n\n" + r.body;
  }

  bool reads_events() const override { return false; }

private:
  invoke_target target_of(const core::trigger_invocation& invocation) const {
    if (!parameterized_ || invocation.resource_json.empty())
      return fixed_;
    auto resource = nlohmann::json::parse(invocation.resource_json);
    invoke_target t;
    if (resource.contains("functionName") && resource["functionName"].is_string())
      t.function_name = resource["functionName"].get<std::string>();
    if (resource.contains("invocationType") && resource["invocationType"].is_string())
      t.invocation_type = resource["invocationType"].get<std::string>();
    return t;
  }

  std::shared_ptr<http::client> client_;
  options opts_;
  api_endpoint api_;
  std::shared_ptr<credential_source> keys_;
  std::string missing_keys_;
  invoke_target fixed_;
  std::vector<std::int32_t> allow_;
  bool parameterized_ = false;
};

} // namespace

std::vector<std::string> check_lambda_trigger(const core::trigger_context& ctx) {
  return core::check_spec<lambda_spec>(ctx, [&](const lambda_spec& spec) {
    std::vector<std::string> problems;
    if (spec.function_name.empty())
      problems.emplace_back("function name is not specified");
    if (spec.region.empty())
      problems.emplace_back("region in not specified");
    return problems;
  });
}

core::trigger_factory make_lambda_trigger_factory(std::shared_ptr<http::client> requests,
                                                  options opts) {
  return {[requests = std::move(requests), opts](const core::trigger_context& ctx) {
            return std::make_unique<lambda_executor>(requests, opts, ctx);
          },
          check_lambda_trigger, lambda_spec_step()};
}

} // namespace ganglion::aws
