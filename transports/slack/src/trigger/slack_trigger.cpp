#include <fmt/format.h>

#include "client/web_api.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/slack/transport.hpp"
#include "trigger/post_message.hpp"

namespace ganglion::slack {

namespace {

using detail::thread_book;

constexpr std::string_view post_method = "chat.postMessage";

/// Runs one slack trigger: posts the message of each invocation with chat.postMessage.
class slack_executor final : public core::trigger_executor {
public:
  slack_executor(std::shared_ptr<http::client> requests, std::shared_ptr<thread_book> threads,
                 const options& opts, const core::trigger_context& ctx)
    : client_(std::move(requests)), threads_(std::move(threads)),
      url_(opts.api_url + std::string{post_method}), spec_(core::spec_of<trigger_spec>(ctx)),
      parameterized_(core::resource_parameterized(*ctx.manifest)) {
    try {
      token_ = core::read_trigger_secret(ctx, *spec_.slack_token, "slack.slackToken");
    } catch (const core::trigger_error&) {
      if (!ctx.dry_run)
        throw;
    }
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    std::string recipient;
    trigger_spec fields;
    http::client_request request;
    try {
      fields = fields_of(invocation);
      recipient = detail::recipient_of(fields);
      request = build_request(fields, recipient);
    } catch (const std::exception& e) {
      done(core::trigger_outcome{false, e.what(), {}});
      return;
    }
    auto key = fields.thread.message_aggregation_key;
    bool starts_thread = !key.empty() && threads_->find(recipient, key).empty();
    auto completion = [threads = threads_, recipient, key, starts_thread,
                       done](http::client_response response) {
      auto result = detail::read_api_response(post_method, response);
      core::trigger_outcome outcome;
      outcome.detail = response.status ? fmt::format("HTTP {}", response.status) : "";
      if (!result.ok) {
        outcome.error = fmt::format("failed to post to channel {}, {}", recipient, result.error);
        done(std::move(outcome));
        return;
      }
      if (starts_thread && !result.ts.empty())
        threads->remember(recipient, key, result.ts);
      outcome.ok = true;
      result_json(outcome, result);
      done(std::move(outcome));
    };
    if (!client_->submit(std::move(request), std::move(completion)))
      done(core::trigger_outcome{false, "the HTTP client is saturated or shut down", {}});
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    auto fields = fields_of(invocation);
    auto recipient = detail::recipient_of(fields);
    auto form = detail::post_message_form(
      fields, recipient, threads_->find(recipient, fields.thread.message_aggregation_key));
    return fmt::format("POST {}\n{}&token=<slackToken>", url_, detail::encode_form(form));
  }

  /// It posts the resolved `slack` object only.
  bool reads_events() const override { return false; }

private:
  static void result_json(core::trigger_outcome& outcome, const detail::api_result& result) {
    std::string json = "{\"channel\":";
    dsl::append_go_json_string(json, result.channel);
    json += ",\"ts\":";
    dsl::append_go_json_string(json, result.ts);
    json += '}';
    outcome.result = std::move(json);
  }

  trigger_spec fields_of(const core::trigger_invocation& invocation) const {
    if (!parameterized_ || invocation.resource_json.empty())
      return spec_;
    return detail::fields_from_json(invocation.resource_json, spec_);
  }

  http::client_request build_request(const trigger_spec& fields,
                                     const std::string& recipient) const {
    auto form = detail::post_message_form(
      fields, recipient, threads_->find(recipient, fields.thread.message_aggregation_key));
    form["token"] = token_;
    http::client_request r;
    r.method = "POST";
    r.url = url_;
    r.headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
    r.body = detail::encode_form(form);
    r.response_headers = {"Retry-After"};
    r.max_response_bytes = std::size_t{1} << 20;
    return r;
  }

  std::shared_ptr<http::client> client_;
  std::shared_ptr<thread_book> threads_;
  std::string url_;
  trigger_spec spec_;
  bool parameterized_;
  std::string token_;
};

} // namespace

std::vector<std::string> check_trigger(const core::trigger_context& ctx) {
  return core::check_spec<trigger_spec>(ctx, [](const trigger_spec& spec) {
    std::vector<std::string> problems;
    if (!spec.slack_token)
      problems.emplace_back("slack.slackToken is required");
    return problems;
  });
}

core::trigger_factory make_trigger_factory(std::shared_ptr<http::client> requests, options opts) {
  auto threads = std::make_shared<thread_book>();
  return {[requests = std::move(requests), threads, opts](const core::trigger_context& ctx) {
            return std::make_unique<slack_executor>(requests, threads, opts, ctx);
          },
          check_trigger, trigger_spec_step()};
}

} // namespace ganglion::slack
