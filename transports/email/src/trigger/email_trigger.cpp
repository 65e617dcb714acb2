#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "client/smtp_client.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/email/spec.hpp"
#include "ganglion/email/transport.hpp"
#include "trigger/message.hpp"

namespace ganglion::email {

namespace {

/// Sends in parallel at most this many executions' messages.
constexpr std::size_t workers = 2;

detail::email_fields model_fields(const trigger_spec& spec) {
  return {spec.host, spec.port, spec.username, spec.to, spec.from, spec.subject, spec.body};
}

/// Sends each execution's messages on a worker thread (libcurl's SMTP transfer blocks).
class email_executor final : public core::trigger_executor {
public:
  email_executor(const options& opts, const core::trigger_context& ctx)
    : ca_file_(opts.ca_file), parameterized_(core::resource_parameterized(*ctx.manifest)),
      fixed_(model_fields(core::spec_of<trigger_spec>(ctx))) {
    if (const auto& secret = core::spec_of<trigger_spec>(ctx).smtp_password)
      password_ = core::read_trigger_secret(ctx, *secret, "email.smtpPassword");
  }

  ~email_executor() override { pool_.join(); }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    detail::email_fields fields;
    try {
      fields = fields_of(invocation);
      detail::check_fields(fields);
    } catch (const std::exception& e) {
      done(core::trigger_outcome{false, e.what(), {}});
      return;
    }
    boost::asio::post(
      pool_, [this, fields = std::move(fields), done = std::move(done)] { done(send(fields)); });
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    auto fields = fields_of(invocation);
    detail::check_fields(fields);
    std::string out;
    for (const auto& to : fields.to)
      out += fmt::format("SMTP {}:{} MAIL FROM:<{}> RCPT TO:<{}>\n{}\n", fields.host, fields.port,
                         detail::sender_address(fields.from), to,
                         detail::build_message(fields, to, detail::rfc1123z_now()));
    return out;
  }

  std::size_t max_concurrency() const override { return workers; }

  bool reads_events() const override { return false; }

private:
  detail::email_fields fields_of(const core::trigger_invocation& invocation) const {
    return parameterized_ ? detail::read_fields(invocation.resource_json) : fixed_;
  }

  /// Argo's Execute: every valid address gets its message; the failures are joined.
  core::trigger_outcome send(const detail::email_fields& fields) const {
    detail::smtp_settings smtp{fields.host, fields.port, fields.username, password_, ca_file_};
    auto sender = detail::sender_address(fields.from);
    auto date = detail::rfc1123z_now();
    std::vector<std::string> errors;
    std::size_t sent = 0;
    for (const auto& to : fields.to) {
      if (!detail::valid_recipient(to)) {
        errors.push_back(fmt::format("to emailId can't be invalid {}", to));
        continue;
      }
      auto error = detail::send_mail(smtp, sender, to, detail::build_message(fields, to, date));
      if (error.empty())
        ++sent;
      else
        errors.push_back(fmt::format("failed to send emails to emailId {}, {}", to, error));
    }
    core::trigger_outcome outcome;
    outcome.detail = fmt::format("{} of {} sent", sent, fields.to.size());
    outcome.ok = errors.empty();
    outcome.error = fmt::format("{}", fmt::join(errors, "\n"));
    return outcome;
  }

  std::string ca_file_;
  bool parameterized_;
  detail::email_fields fixed_;
  std::string password_;
  /// Last: joined (in the destructor) before the rest goes.
  boost::asio::thread_pool pool_{workers};
};

std::vector<std::string> check_trigger(const core::trigger_context& ctx) {
  return core::check_spec<trigger_spec>(ctx, [&](const trigger_spec& spec) {
    std::vector<std::string> problems;
    if (!core::resource_parameterized(*ctx.manifest)) {
      try {
        detail::check_fields(model_fields(spec));
      } catch (const std::exception& e) {
        problems.emplace_back(fmt::format("email: {}", e.what()));
      }
    }
    return problems;
  });
}

} // namespace

core::trigger_factory make_trigger_factory(options opts) {
  return {[opts = std::move(opts)](const core::trigger_context& ctx) {
            return std::make_unique<email_executor>(opts, ctx);
          },
          check_trigger, trigger_spec_step()};
}

} // namespace ganglion::email
