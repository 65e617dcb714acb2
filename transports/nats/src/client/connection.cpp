#include "client/connection.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/nkey.hpp"

namespace ganglion::nats {

struct connection::state {
  explicit state(connection_settings s)
    : settings(std::move(s)), shown_url(redact_url(settings.url)) {}

  connection_settings settings;
  std::string shown_url;
  std::string nkey_public;
  std::mutex mutex;
  std::condition_variable closed_changed;
  bool closing = false; ///< close() was asked for: the callbacks stay quiet
  bool closed = false;  ///< the closed callback has run: no callback will follow
  std::set<natsStatus> reported; ///< async errors already logged (default handler)
};

namespace {

using options_ptr = std::unique_ptr<natsOptions, decltype(&natsOptions_Destroy)>;
using state = connection::state;

void check(natsStatus status, const std::string& what) {
  if (status != NATS_OK)
    throw connection_error(fmt::format("{}: {}", what, status_text(status)));
}

std::vector<std::string> split_urls(const std::string& text) {
  std::vector<std::string> urls;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = std::min(text.find(',', start), text.size());
    auto url = text.substr(start, end - start);
    url.erase(0, url.find_first_not_of(" \t"));
    url.erase(url.find_last_not_of(" \t") + 1);
    if (!url.empty())
      urls.push_back(std::move(url));
    start = end + 1;
  }
  return urls;
}

/// The host of `url` (`nats://user:pw@host:4222` → `host`), empty when it has none.
std::string host_of(const std::string& url) {
  auto scheme = url.find("://");
  auto rest = url.substr(scheme == std::string::npos ? 0 : scheme + 3);
  rest = rest.substr(0, rest.find('/'));
  if (auto at = rest.rfind('@'); at != std::string::npos)
    rest = rest.substr(at + 1);
  if (!rest.empty() && rest.front() == '[')
    return rest.substr(1, rest.find(']') - 1);
  return rest.substr(0, rest.find(':'));
}

bool is_ip_literal(const std::string& host) {
  unsigned char buffer[16];
  return inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
         inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

std::string connected_url(natsConnection* nc) {
  char buffer[512] = {};
  if (natsConnection_GetConnectedUrl(nc, buffer, sizeof buffer) != NATS_OK || buffer[0] == 0)
    return {};
  return redact_url(buffer);
}

void on_connected(natsConnection* nc, void* closure) {
  auto* st = static_cast<state*>(closure);
  spdlog::info("{}: connected to {}", st->settings.name, connected_url(nc));
}

void on_disconnected(natsConnection* nc, void* closure) {
  auto* st = static_cast<state*>(closure);
  {
    std::lock_guard guard{st->mutex};
    if (st->closing)
      return;
  }
  spdlog::warn("{}: disconnected from {}; reconnecting (every {} ms at most)", st->settings.name,
               st->shown_url, st->settings.max_reconnect_delay.count());
}

void on_reconnected(natsConnection* nc, void* closure) {
  auto* st = static_cast<state*>(closure);
  spdlog::info("{}: reconnected to {}", st->settings.name, connected_url(nc));
}

void on_closed(natsConnection* nc, void* closure) {
  auto* st = static_cast<state*>(closure);
  bool asked;
  {
    std::lock_guard guard{st->mutex};
    asked = st->closing;
  }
  if (!asked) {
    const char* text = nullptr;
    natsConnection_GetLastError(nc, &text);
    std::string error = text != nullptr && *text != '\0' ? text : "closed by the client library";
    spdlog::error("{}: connection to {} closed: {}", st->settings.name, st->shown_url, error);
    if (st->settings.on_lost)
      st->settings.on_lost(fmt::format("connection to {} closed: {}", st->shown_url, error));
  }
  std::lock_guard guard{st->mutex};
  st->closed = true;
  st->closed_changed.notify_all();
}

void on_async_error(natsConnection*, natsSubscription* sub, natsStatus status, void* closure) {
  auto* st = static_cast<state*>(closure);
  if (st->settings.on_async_error) {
    st->settings.on_async_error(sub, status);
    return;
  }
  {
    std::lock_guard guard{st->mutex};
    if (!st->reported.insert(status).second)
      return;
  }
  spdlog::warn("{}: {}", st->settings.name, natsStatus_GetText(status));
}

/// Exponential backoff between reconnection rounds, ±20% jitter.
int64_t reconnect_delay(natsConnection*, int attempts, void* closure) {
  auto* st = static_cast<state*>(closure);
  const double low = static_cast<double>(st->settings.min_reconnect_delay.count());
  const double high = static_cast<double>(st->settings.max_reconnect_delay.count());
  double delay = std::min(high, low * static_cast<double>(1ull << std::clamp(attempts - 1, 0, 20)));
  thread_local std::mt19937 random{std::random_device{}()};
  delay *= std::uniform_real_distribution<double>(0.8, 1.2)(random);
  return static_cast<int64_t>(std::max(1.0, delay));
}

natsStatus sign_nonce(char** error_text, unsigned char** signature, int* length,
                      const char* nonce, void* closure) {
  auto* st = static_cast<state*>(closure);
  return nats_Sign(st->settings.auth.nkey_seed->c_str(), nonce, signature, length);
}

void apply_tls(natsOptions* opts, const connection_settings& s, bool tls_url) {
  if (!s.tls && !tls_url)
    return;
  check(natsOptions_SetSecure(opts, true), "cannot enable TLS");
  if (!s.tls)
    return;
  if (!s.tls->ca_pem.empty())
    check(natsOptions_SetCATrustedCertificates(opts, s.tls->ca_pem.c_str()),
          "invalid CA certificate");
  if (!s.tls->cert_pem.empty())
    check(natsOptions_SetCertificatesChain(opts, s.tls->cert_pem.c_str(), s.tls->key_pem.c_str()),
          "invalid client certificate or key");
  check(natsOptions_SkipServerVerification(opts, s.tls->skip_verify),
        "cannot set TLS verification");
}

void apply_auth(natsOptions* opts, state& st) {
  const auto& auth = st.settings.auth;
  if (auth.user_password)
    check(natsOptions_SetUserInfo(opts, auth.user_password->first.c_str(),
                                  auth.user_password->second.c_str()),
          "invalid user name or password");
  else if (auth.token)
    check(natsOptions_SetToken(opts, auth.token->c_str()), "invalid token");
  else if (auth.nkey_seed)
    check(natsOptions_SetNKey(opts, st.nkey_public.c_str(), sign_nonce, &st), "invalid nkey");
  else if (auth.credentials_file)
    check(natsOptions_SetUserCredentialsFromFiles(opts, auth.credentials_file->c_str(), nullptr),
          "invalid credentials file");
}

options_ptr make_options(state& st, bool retry) {
  const auto& s = st.settings;
  natsOptions* raw = nullptr;
  check(natsOptions_Create(&raw), "cannot create NATS options");
  options_ptr opts{raw, &natsOptions_Destroy};

  auto urls = split_urls(s.url);
  if (urls.empty())
    throw connection_error("the NATS server url is empty");
  std::vector<const char*> servers;
  bool tls_url = false;
  for (const auto& url : urls) {
    servers.push_back(url.c_str());
    tls_url = tls_url || url.rfind("tls://", 0) == 0;
  }
  check(natsOptions_SetServers(opts.get(), servers.data(), static_cast<int>(servers.size())),
        fmt::format("invalid NATS server url '{}'", st.shown_url));
  if (!s.name.empty())
    check(natsOptions_SetName(opts.get(), s.name.c_str()), "invalid connection name");
  check(natsOptions_SetTimeout(opts.get(), s.connect_timeout.count()), "invalid connect timeout");
  check(natsOptions_SetMaxReconnect(opts.get(), -1), "cannot set reconnection");
  check(natsOptions_SetCustomReconnectDelay(opts.get(), reconnect_delay, &st),
        "cannot set the reconnection delay");
  check(natsOptions_SetDisconnectedCB(opts.get(), on_disconnected, &st), "callback");
  check(natsOptions_SetReconnectedCB(opts.get(), on_reconnected, &st), "callback");
  check(natsOptions_SetClosedCB(opts.get(), on_closed, &st), "callback");
  check(natsOptions_SetErrorHandler(opts.get(), on_async_error, &st), "callback");
  if (retry)
    check(natsOptions_SetRetryOnFailedConnect(opts.get(), true, on_connected, &st),
          "cannot set connection retries");
  apply_auth(opts.get(), st);
  apply_tls(opts.get(), s, tls_url);
  if ((s.tls || tls_url) && urls.size() == 1 && !(s.tls && s.tls->skip_verify)) {
    // Go checks the server's name like any TLS client; cnats only when told which name.
    auto host = host_of(urls.front());
    if (!host.empty() && !is_ip_literal(host))
      check(natsOptions_SetExpectedHostname(opts.get(), host.c_str()), "invalid host name");
  }
  return opts;
}

/// Failures worth retrying in the background: no server answered (yet).
bool retryable(natsStatus status) {
  return status == NATS_NO_SERVER || status == NATS_IO_ERROR || status == NATS_TIMEOUT;
}

} // namespace

connection::connection(connection_settings settings)
  : state_(std::make_unique<state>(std::move(settings))) {
  auto& st = *state_;
  if (st.settings.auth.nkey_seed) {
    try {
      st.nkey_public = nkey_public_key(*st.settings.auth.nkey_seed);
    } catch (const std::runtime_error& e) {
      throw connection_error(fmt::format("invalid nkey seed: {}", e.what()));
    }
  }
  auto opts = make_options(st, false);
  natsStatus status = natsConnection_Connect(&nc_, opts.get());
  if (status == NATS_OK) {
    spdlog::info("{}: connected to {}", st.settings.name, connected_url(nc_));
    return;
  }
  nc_ = nullptr;
  auto error = status_text(status);
  if (!st.settings.retry_on_failed_connect || !retryable(status))
    throw connection_error(fmt::format("cannot connect to {}: {}", st.shown_url, error));
  spdlog::warn("{}: cannot connect to {} ({}); connecting in the background", st.settings.name,
               st.shown_url, error);
  opts = make_options(st, true);
  status = natsConnection_Connect(&nc_, opts.get());
  if (status == NATS_OK) {
    spdlog::info("{}: connected to {}", st.settings.name, connected_url(nc_));
    return;
  }
  if (status == NATS_NOT_YET_CONNECTED)
    return;
  nc_ = nullptr;
  throw connection_error(
    fmt::format("cannot connect to {}: {}", st.shown_url, status_text(status)));
}

connection::~connection() {
  if (nc_ == nullptr)
    return;
  {
    std::lock_guard guard{state_->mutex};
    state_->closing = true;
  }
  natsConnection_Close(nc_);
  bool closed;
  {
    std::unique_lock lock{state_->mutex};
    closed = state_->closed_changed.wait_for(lock, std::chrono::seconds(10),
                                             [this] { return state_->closed; });
  }
  natsConnection_Destroy(nc_);
  if (!closed) {
    // A callback may still come: keep what it points to.
    spdlog::warn("{}: the client library did not confirm the close", state_->settings.name);
    static_cast<void>(state_.release());
  }
}

bool connection::connected() const {
  return natsConnection_Status(nc_) == NATS_CONN_STATUS_CONNECTED;
}

std::string connection::last_error() const {
  const char* text = nullptr;
  natsConnection_GetLastError(nc_, &text);
  if (text != nullptr && *text != '\0')
    return text;
  switch (natsConnection_Status(nc_)) {
    case NATS_CONN_STATUS_CONNECTED: return "connected";
    case NATS_CONN_STATUS_CLOSED: return "the connection is closed";
    default: return "no server reachable yet; reconnecting";
  }
}

const connection_settings& connection::settings() const {
  return state_->settings;
}

std::unique_ptr<connection> connect(connection_settings settings) {
  return std::make_unique<connection>(std::move(settings));
}

} // namespace ganglion::nats
