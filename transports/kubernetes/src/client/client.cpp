#include "ganglion/kubernetes/client.hpp"

#include <exception>
#include <stdexcept>
#include <future>
#include <tuple>

#include <spdlog/spdlog.h>

#include "client/client_impl.hpp"
#include "client/pem.hpp"
#include "client/retry_after.hpp"

namespace ganglion::kubernetes {

namespace {

using namespace std::chrono_literals;

std::string origin_of(const cluster_config& config) {
  return config.origin.empty() ? std::string("kubernetes client") : config.origin;
}

/// Throws config_error when `config` cannot be used.
void check(const cluster_config& config) {
  auto fail = [&](const std::string& field, const std::string& what) {
    throw config_error(origin_of(config) + ": " + field + ": " + what);
  };
  if (!config.server.starts_with("https://") && !config.server.starts_with("http://"))
    fail("server", "not an http:// or https:// URL: '" + config.server + "'");
  using detail::pem_kind;
  for (auto [pem, field, kind] :
       {std::tuple{&config.ca_pem, "certificate authority", pem_kind::certificates},
        std::tuple{&config.client_certificate_pem, "client certificate", pem_kind::certificates},
        std::tuple{&config.client_key_pem, "client key", pem_kind::private_key}}) {
    if (pem->empty())
      continue;
    auto problem = detail::pem_problem(*pem, kind);
    if (!problem.empty())
      fail(field, problem);
  }
  if (config.client_certificate_pem.empty() != config.client_key_pem.empty())
    fail("client certificate", "a client certificate and its key go together");
}

bool has_body(const api_request& r) {
  return r.method != "GET" && r.method != "HEAD";
}

} // namespace

api_client::impl::impl(cluster_config cfg, client_options opts)
  : config(std::move(cfg)), options(opts),
    token(config.token, config.token_file, options.token_refresh), metrics(options.metrics),
    http(http::client_options{.max_in_flight = options.max_in_flight}) {}

http::client_request api_client::impl::transport_request(attempt& a) {
  const auto& req = a.request;
  http::client_request r;
  r.method = req.method;
  r.url = config.server + (req.path.starts_with('/') ? "" : "/") + req.path;
  r.headers = {{"Accept", "application/json"}, {"User-Agent", "ganglion"}};
  if (has_body(req))
    r.headers.emplace_back("Content-Type", req.content_type);
  if (!req.impersonate_user.empty())
    r.headers.emplace_back("Impersonate-User", req.impersonate_user);
  a.token_used = token.current();
  if (!a.token_used.empty())
    r.headers.emplace_back("Authorization", "Bearer " + a.token_used);
  if (!config.username.empty() || !config.password.empty())
    r.basic_auth.emplace(config.username, config.password);
  r.body = req.body;
  r.timeout = req.timeout > 0ms ? req.timeout : options.request_timeout;
  r.tls = http::client_tls{config.ca_pem, config.client_certificate_pem, config.client_key_pem,
                           config.insecure_skip_tls_verify};
  r.response_headers = {"Retry-After"};
  return r;
}

void api_client::impl::send(const std::shared_ptr<attempt>& a) {
  auto r = transport_request(*a);
  a->sent_at = std::chrono::steady_clock::now();
  bool queued = http.submit(std::move(r), [this, a](http::client_response response) {
    on_response(a, std::move(response));
  });
  if (!queued)
    delays.post(0s, [this, a](bool) {
      finish(*a, api_response{0, {}, "the Kubernetes client is shut down"});
    });
}

std::chrono::milliseconds api_client::impl::retry_delay(
  const http::client_response& response) const {
  std::chrono::milliseconds delay = 1s;
  for (const auto& [name, value] : response.headers)
    if (auto asked = detail::parse_retry_after(value, std::chrono::system_clock::now()))
      delay = *asked;
  return std::min(delay, options.max_retry_after);
}

void api_client::impl::on_response(const std::shared_ptr<attempt>& a,
                                   http::client_response response) {
  metrics.record(a->request.method, response.status, std::chrono::steady_clock::now() - a->sent_at);
  if (response.status == 429 && a->retries_left > 0) {
    --a->retries_left;
    auto delay = retry_delay(response);
    auto last = std::make_shared<api_response>(
      api_response{response.status, std::move(response.body), std::move(response.error)});
    delays.post(delay, [this, a, last](bool cancelled) {
      if (cancelled)
        finish(*a, std::move(*last));
      else
        send(a);
    });
    return;
  }
  if (response.status == 401 && !a->token_retried && token.from_file()) {
    a->token_retried = true;
    token.reload();
    if (token.current() != a->token_used) {
      send(a);
      return;
    }
  }
  finish(*a, api_response{response.status, std::move(response.body), std::move(response.error)});
}

void api_client::impl::finish(attempt& a, api_response response) {
  auto done = std::move(a.done);
  a.done = nullptr;
  outstanding.fetch_sub(1);
  if (!done)
    return;
  try {
    done(std::move(response));
  } catch (const std::exception& e) {
    spdlog::error("kubernetes client: the completion of {} {} threw: {}", a.request.method,
                  a.request.path, e.what());
  }
}

api_client::api_client(cluster_config config, client_options options) {
  check(config);
  auto origin = origin_of(config);
  try {
    impl_ = std::make_shared<impl>(std::move(config), options);
  } catch (const config_error& e) {
    throw config_error(origin + ": " + e.what());
  }
}

api_client::api_client(std::shared_ptr<api_client> owner, std::string user)
  : impl_(owner->impl_), owner_(std::move(owner)), user_(std::move(user)) {}

api_client::~api_client() {
  if (owner_)
    return;
  impl_->delays.shutdown();
  impl_->http.shutdown();
}

std::shared_ptr<api_client> api_client::acting_as(std::shared_ptr<api_client> client,
                                                  std::string user) {
  if (!client)
    throw std::invalid_argument("acting_as: no client");
  if (user.empty())
    throw std::invalid_argument("acting_as: no user to impersonate");
  for (unsigned char c : user)
    if (c < 0x20 || c == 0x7f)
      throw std::invalid_argument("acting_as: a control character in the user to impersonate");
  auto owner = client->owner_ ? client->owner_ : std::move(client);
  return std::shared_ptr<api_client>(new api_client(std::move(owner), std::move(user)));
}

const std::string& api_client::acting_user() const noexcept {
  return user_;
}

void api_client::request(api_request request, api_completion done) {
  if (request.impersonate_user.empty())
    request.impersonate_user = user_;
  auto a = std::make_shared<impl::attempt>();
  a->request = std::move(request);
  a->done = std::move(done);
  a->retries_left = impl_->options.max_retries;
  auto* state = impl_.get();
  if (state->outstanding.fetch_add(1) >= state->options.max_in_flight) {
    state->delays.post(0s, [state, a](bool) {
      state->finish(*a, api_response{0,
                                     {},
                                     "too many requests to the Kubernetes API in flight ("
                                       + std::to_string(state->options.max_in_flight) + ")"});
    });
    return;
  }
  state->send(a);
}

api_response api_client::call(api_request request) {
  auto result = std::make_shared<std::promise<api_response>>();
  auto response = result->get_future();
  this->request(std::move(request), [result](api_response r) { result->set_value(std::move(r)); });
  return response.get();
}

const cluster_config& api_client::config() const noexcept {
  return impl_->config;
}

} // namespace ganglion::kubernetes
