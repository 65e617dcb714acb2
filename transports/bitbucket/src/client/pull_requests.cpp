#include "client/pull_requests.hpp"

#include <memory>

#include "ganglion/dsl/go/go_struct.hpp"

namespace ganglion::bitbucket::detail {

namespace {

constexpr std::size_t max_answer_bytes = std::size_t{16} << 20;
// *ganglion*: Argo pages on for as long as the server says, and its calls have no timeout
// (opts.request_timeout here).
constexpr int max_pages = 1000;

using dsl::go_type;
using kind = go_type::kind;

/// Argo's pagedPullRequestsRes (custombitbucketserverclient.go).
const go_type& paged_type() {
  static const go_type t = [] {
    go_type integer{kind::integer, {}, {}, {}};
    go_type pull_request{kind::structure,
                         "bitbucketserver.pullRequestRes",
                         {{"ID", "id", integer}, {"State", "state", {kind::string, {}, {}, {}}}},
                         {}};
    return go_type{
      kind::structure,
      "bitbucketserver.pagedPullRequestsRes",
      {{"Size", "size", integer},
       {"Limit", "limit", integer},
       {"IsLastPage", "isLastPage", {kind::boolean, {}, {}, {}}},
       {"Values",
        "values",
        {kind::slice, {}, {}, std::make_shared<const go_type>(std::move(pull_request))}},
       {"Start", "start", integer},
       {"NextPageStart", "nextPageStart", integer}},
      {}};
  }();
  return t;
}

} // namespace

struct pull_request_client::walk {
  std::string url; ///< without the query
  std::int64_t start = 0;
  int pages = 0;
  pull_request_states found;
  std::function<void(pull_request_states)> done;
};

pull_request_client::pull_request_client(http::client& client, std::string base_url,
                                         std::string token, std::optional<http::client_tls> tls,
                                         std::chrono::milliseconds timeout)
  : client_(client), base_url_(std::move(base_url)), token_(std::move(token)), tls_(std::move(tls)),
    timeout_(timeout) {
  while (!base_url_.empty() && base_url_.back() == '/') // url.JoinPath
    base_url_.pop_back();
}

void pull_request_client::states(const std::string& project, const std::string& slug,
                                 const std::string& commit,
                                 std::function<void(pull_request_states)> done) const {
  auto w = std::make_shared<walk>();
  w->url = base_url_ + "/api/1.0/projects/" + project + "/repos/" + slug + "/commits/" + commit
           + "/pull-requests";
  w->done = std::move(done);
  page(std::move(w));
}

void pull_request_client::page(std::shared_ptr<walk> w) const {
  auto fail = [](const std::shared_ptr<walk>& w, std::string error) {
    w->found.states.clear();
    w->found.error = std::move(error);
    w->done(std::move(w->found));
  };
  if (++w->pages > max_pages)
    return fail(w, "listing the pull requests of " + w->url + ": too many pages");
  http::client_request req;
  req.method = "GET";
  req.url = w->url + "?limit=500&start=" + std::to_string(w->start); // Go's Encode sorts keys
  req.headers = {{"Authorization", "Bearer " + token_}};
  req.timeout = timeout_;
  req.tls = tls_;
  req.max_response_bytes = max_answer_bytes;
  auto url = req.url;
  bool queued = client_.submit(
    std::move(req), [self = shared_from_this(), w, url, fail](http::client_response r) {
      if (r.status == 0)
        return fail(w, "Get \"" + url + "\": " + r.error);
      if (r.status > 299)
        return fail(w, "calling endpoint '" + url + "' failed: status " + std::to_string(r.status)
                         + ": response body: " + r.body);
      std::string error;
      auto paged = dsl::go_unmarshal(r.body, paged_type(), error);
      if (!paged)
        return fail(w, error);
      const auto& t = paged_type();
      if (const auto& values = dsl::go_field_of(*paged, t, "values")->items)
        for (const auto& pr : *values)
          w->found.states.push_back(dsl::go_field_of(pr, *t.fields[3].type.element, "state")->text);
      if (dsl::go_field_of(*paged, t, "isLastPage")->flag)
        return w->done(std::move(w->found));
      w->start = dsl::go_field_of(*paged, t, "nextPageStart")->number;
      self->page(w);
    });
  if (!queued)
    fail(w, "Get \"" + url + "\": the HTTP client is saturated or shut down");
}

} // namespace ganglion::bitbucket::detail
