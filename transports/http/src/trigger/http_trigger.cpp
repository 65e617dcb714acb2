#include "ganglion/http/http_trigger.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/core/secure_headers.hpp"
#include "trigger/http_request_spec.hpp"

namespace ganglion::http {

namespace {

using detail::request_template;

core::trigger_outcome judge(const client_response& r, const std::vector<std::int32_t>& allow) {
  core::trigger_outcome outcome;
  if (r.status == 0) {
    outcome.error = r.error.empty() ? "no HTTP response" : r.error;
    return outcome;
  }
  outcome.detail = fmt::format("HTTP {}", r.status);
  if (!allow.empty() && std::find(allow.begin(), allow.end(), r.status) == allow.end()) {
    outcome.error = fmt::format("HTTP {} is not in policy.status.allow [{}]", r.status,
                                fmt::join(allow, ", "));
    return outcome;
  }
  outcome.ok = true;
  return outcome;
}

/// Runs one http trigger: builds the request of an invocation the core parameter step resolved
/// on the calling thread, sends it on the client's.
class http_executor final : public core::trigger_executor {
public:
  http_executor(std::shared_ptr<client> requests, const core::trigger_context& ctx)
    : client_(std::move(requests)),
      template_(std::make_shared<const request_template>(detail::make_request_template(ctx))),
      parameterized_(core::resource_parameterized(*ctx.manifest)) {
    try {
      if (!parameterized_)
        fixed_ = detail::make_request(template_->fields, *template_, {});
    } catch (const std::exception& e) {
      throw core::trigger_error(e.what());
    }
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    client_request r;
    try {
      r = build_request(invocation);
    } catch (const std::exception& e) {
      done(
        core::trigger_outcome{false, fmt::format("cannot build the request: {}", e.what()), {}});
      return;
    }
    auto completion = [t = template_, done](client_response response) {
      done(judge(response, t->allow));
    };
    if (!client_->submit(std::move(r), std::move(completion)))
      done(core::trigger_outcome{false, "the HTTP client is saturated or shut down", {}});
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    return detail::describe_request(build_request(invocation), *template_);
  }

  /// It sends the resolved request and payload only.
  bool reads_events() const override { return false; }

private:
  /// The request of one execution; throws std::runtime_error when it cannot be built.
  client_request build_request(const core::trigger_invocation& invocation) const {
    if (!parameterized_) {
      auto r = fixed_;
      r.body = invocation.payload;
      return r;
    }
    return detail::make_request(detail::read_request_fields(invocation.resource_json),
                                *template_, invocation.payload);
  }

  std::shared_ptr<client> client_;
  std::shared_ptr<const request_template> template_;
  /// Whether the invocations carry the request fields (`resource_json`).
  bool parameterized_;
  /// The request without payload, when no parameter applies.
  client_request fixed_;
};

} // namespace

std::vector<std::string> check_http_trigger(const core::trigger_context& ctx) {
  return core::check_spec<trigger_spec>(ctx, [&](const auto& spec) {
    const auto& manifest = *ctx.manifest;
    auto problems = core::secure_header_problems(spec.secure_headers);
    if (!spec.dynamic_headers.empty())
      problems.insert(problems.begin(), "http.dynamicHeaders are not supported yet");
    // The parameters themselves are compiled by validate and by the core parameter step; without
    // any, the request is fixed and can be checked now.
    if (!core::resource_parameterized(manifest)) {
      try {
        request_template fixed;
        fixed.fields = {spec.url, spec.method, spec.headers, spec.host, spec.timeout_seconds};
        detail::make_request(fixed.fields, fixed, {});
      } catch (const std::exception& e) {
        problems.emplace_back(e.what());
      }
    }
    return problems;
  });
}

core::trigger_factory make_http_trigger_factory(std::shared_ptr<client> requests) {
  return {[requests = std::move(requests)](const core::trigger_context& ctx) {
            return std::make_unique<http_executor>(requests, ctx);
          },
          check_http_trigger, trigger_spec_step()};
}

} // namespace ganglion::http
