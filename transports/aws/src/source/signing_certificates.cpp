#include "source/signing_certificates.hpp"

#include "source/sns_message.hpp"

namespace ganglion::aws {

namespace {

constexpr std::size_t kept_at_most = 32;
constexpr std::size_t certificate_limit = 65 * 1024; // Argo's LimitReader

} // namespace

signing_certificates::signing_certificates(std::shared_ptr<http::client> requests,
                                           std::vector<std::string> allowed_hosts,
                                           std::string ca_pem, std::chrono::milliseconds timeout)
  : requests_(std::move(requests)), allowed_hosts_(std::move(allowed_hosts)),
    ca_pem_(std::move(ca_pem)), timeout_(timeout) {}

void signing_certificates::get(const std::string& url, completion done) {
  if (auto problem = sns_cert_url_problem(url, allowed_hosts_); !problem.empty())
    return done({}, "failed to verify SigningCertURL, " + problem);
  {
    std::lock_guard lock{mutex_};
    if (auto found = kept_.find(url); found != kept_.end())
      return done(found->second, {});
  }
  http::client_request request;
  request.method = "GET";
  request.url = url;
  request.timeout = timeout_;
  request.max_response_bytes = certificate_limit;
  if (!ca_pem_.empty())
    request.tls = http::client_tls{ca_pem_, {}, {}, false};
  auto shared_done = std::make_shared<completion>(std::move(done));
  auto fetched = [self = shared_from_this(), url, shared_done](http::client_response r) {
    if (r.status != 200)
      return (*shared_done)({}, "failed to fetch signing cert, "
                                  + (r.status == 0 ? r.error
                                                   : "HTTP " + std::to_string(r.status)));
    self->keep(url, r.body);
    (*shared_done)(std::move(r.body), {});
  };
  bool submitted = false;
  if (auto client = requests_.lock()) // released before `done` runs: it may be the last one
    submitted = client->submit(std::move(request), fetched);
  if (!submitted)
    (*shared_done)({}, "failed to fetch signing cert, the HTTP client is saturated");
}

void signing_certificates::keep(const std::string& url, const std::string& pem) {
  std::lock_guard lock{mutex_};
  if (kept_.size() >= kept_at_most)
    kept_.erase(kept_.begin());
  kept_[url] = pem;
}

} // namespace ganglion::aws
