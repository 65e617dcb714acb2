#include "source/server_request.hpp"

#include <strings.h>

#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/http/internal/provider_event_data.hpp"
#include "source/refs_changed.hpp"

namespace ganglion::bitbucket::detail {

namespace {

constexpr const char* invalid = "failed to validate bitbucketserver webhook request: ";

/// Argo's oneEventPerChange: an event per kept change (`kept` indexes into the changes).
http::push_outcome one_per_change(const http::request& req, const server_handling& how,
                                  const refs_changed& event, const std::vector<std::size_t>& kept) {
  std::vector<std::string> data;
  auto copy = req;
  for (auto i : kept) {
    copy.body = event.marshal_with_change(i);
    std::string error;
    auto one = http::detail::provider_event_data(copy, how.metadata, error);
    if (!one)
      return http::push_outcome::refuse(400, "bad_request", "invalid event");
    data.push_back(std::move(*one));
  }
  return http::push_outcome::publish_all(std::move(data));
}

/// Argo's filterChangesForOpenPRs, one pull-request lookup after the other, then the outcome.
struct open_pr_filter : std::enable_shared_from_this<open_pr_filter> {
  http::request req;
  server_handling how;
  refs_changed event;
  std::vector<refs_change> changes;
  std::vector<std::size_t> kept;
  std::size_t next = 0;
  std::function<void(http::push_outcome)> done;

  open_pr_filter(http::request r, server_handling h, refs_changed e)
    : req(std::move(r)), how(std::move(h)), event(std::move(e)), changes(event.changes()) {}

  void step() {
    while (next < changes.size()) {
      const auto& c = changes[next];
      if (c.ref_type != "BRANCH" || c.type == "DELETE") {
        kept.push_back(next++);
        continue;
      }
      how.pull_requests->states(
        event.project_key(), event.repository_slug(), c.to_hash,
        [self = shared_from_this()](pull_request_states found) { self->checked(found); });
      return;
    }
    finish();
  }

  void checked(const pull_request_states& found) {
    if (!found.error.empty()) {
      done(http::push_outcome::refuse(
        400, "bad_request",
        "filtering changes for open prs: checking if changed branch ref has an open pull "
        "request: getting commit pull requests for project "
          + event.project_key() + ", repository " + event.repository_slug() + " and commit "
          + changes[next].to_hash + ": " + found.error));
      return;
    }
    bool open = false;
    for (const auto& state : found.states)
      open = open || (state.size() == 4 && strncasecmp(state.c_str(), "OPEN", 4) == 0);
    if (!open)
      kept.push_back(next);
    ++next;
    step();
  }

  void finish() {
    if (kept.empty())
      done(http::push_outcome::answer(http::text_response(200, "success")));
    else if (how.one_event_per_change)
      done(one_per_change(req, how, event, kept));
    else // Argo publishes the body as it came, the dropped changes in it
      done(http::detail::provider_push_outcome(req, how.metadata));
  }
};

} // namespace

http::push_outcome server_request(const http::request& req, const server_handling& how) {
  if (!how.secret.empty()) {
    auto signature = req.header("X-Hub-Signature");
    if (signature.empty())
      return http::push_outcome::refuse(400, "signature",
                                        std::string(invalid) + "missing signature header");
    auto expected = dsl::hmac_sha256_hex(how.secret, req.body);
    // Argo compares what follows the first 7 bytes (`sha256=`); a shorter header panics there.
    if (signature.size() < 7 || !core::constant_time_equal(signature.substr(7), expected))
      return http::push_outcome::refuse(400, "signature",
                                        std::string(invalid) + "hmac verification failed");
  }
  if (req.header("X-Event-Key") != "repo:refs_changed")
    return http::detail::provider_push_outcome(req, how.metadata);
  std::string error;
  auto event = refs_changed::decode(req.body, error);
  if (!event)
    return http::push_outcome::refuse(400, "bad_request",
                                      "decoding repo:refs_changed webhook: " + error);
  if (how.skip_on_open_pr && how.pull_requests) {
    auto filter = std::make_shared<open_pr_filter>(req, how, std::move(*event));
    return http::push_outcome::defer([filter](std::function<void(http::push_outcome)> done) {
      filter->done = std::move(done);
      filter->step();
    });
  }
  if (how.one_event_per_change) {
    std::vector<std::size_t> all(event->changes().size());
    for (std::size_t i = 0; i < all.size(); ++i)
      all[i] = i;
    return one_per_change(req, how, *event, all);
  }
  return http::detail::provider_push_outcome(req, how.metadata);
}

} // namespace ganglion::bitbucket::detail
