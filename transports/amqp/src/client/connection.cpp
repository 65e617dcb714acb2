#include "client/connection.hpp"

#include <sys/time.h>

#include <memory>
#include <vector>

#include <amqp_ssl_socket.h>
#include <amqp_tcp_socket.h>
#include <fmt/format.h>
#include <openssl/ssl.h>

#include "ganglion/core/read_secret.hpp"

namespace ganglion::amqp {

namespace {

/// The secret's value, or (`as_file`) the path of a file holding it. Throws connection_error.
std::string secret(const core::secret_store* secrets, const dsl::secret_key_selector& ref,
                   const std::string& field, bool as_file = false) {
  return core::read_secret_or_throw<connection_error>(
    secrets, ref, field, as_file ? core::secret_form::file : core::secret_form::value);
}

timeval to_timeval(std::chrono::milliseconds d) {
  return {static_cast<time_t>(d.count() / 1000), static_cast<suseconds_t>(d.count() % 1000 * 1000)};
}

/// The url's parts; librabbitmq parses in place, so the text is kept beside them.
struct parsed_url {
  std::vector<char> text;
  amqp_connection_info info{};
};

std::unique_ptr<parsed_url> parse(const std::string& url) {
  auto out = std::make_unique<parsed_url>();
  out->text.assign(url.begin(), url.end());
  out->text.push_back('\0');
  amqp_default_connection_info(&out->info);
  if (amqp_parse_url(out->text.data(), &out->info) != AMQP_STATUS_OK)
    throw connection_error("invalid url " + redact_url(url));
  // amqp091-go: no path, or `/` alone, is the vhost `/` (librabbitmq reads `/` as "").
  if (out->info.vhost != nullptr && out->info.vhost[0] == '\0')
    out->info.vhost = const_cast<char*>("/");
  return out;
}

amqp_socket_t* open_tls_socket(amqp_connection_state_t state, const connection_settings& s) {
  auto* socket = amqp_ssl_socket_new(state);
  if (socket == nullptr)
    throw connection_error("cannot create a TLS socket");
  tls_files files = s.tls.value_or(tls_files{});
  amqp_ssl_socket_set_verify_peer(socket, files.skip_verify ? 0 : 1);
  amqp_ssl_socket_set_verify_hostname(socket, files.skip_verify ? 0 : 1);
  if (!files.ca_file.empty()) {
    if (amqp_ssl_socket_set_cacert(socket, files.ca_file.c_str()) != AMQP_STATUS_OK)
      throw connection_error("tls.caCertSecret: not a PEM certificate");
  } else if (auto* ctx = static_cast<SSL_CTX*>(amqp_ssl_socket_get_context(socket))) {
    SSL_CTX_set_default_verify_paths(ctx);
  }
  if (!files.cert_file.empty()
      && amqp_ssl_socket_set_key(socket, files.cert_file.c_str(), files.key_file.c_str())
           != AMQP_STATUS_OK)
    throw connection_error("tls.clientCertSecret/clientKeySecret: not a matching PEM "
                           "certificate and key");
  return socket;
}

} // namespace

connection_settings resolve_settings(const event_spec& spec, const core::secret_store* secrets) {
  connection_settings out;
  out.url = spec.url_secret ? secret(secrets, *spec.url_secret, "amqp.urlSecret") : spec.url;
  if (spec.auth && spec.auth->username && spec.auth->password)
    out.user_password.emplace(secret(secrets, *spec.auth->username, "amqp.auth.username"),
                              secret(secrets, *spec.auth->password, "amqp.auth.password"));
  if (spec.tls) {
    tls_files files;
    files.skip_verify = spec.tls->insecure_skip_verify;
    if (spec.tls->ca_cert_secret)
      files.ca_file = secret(secrets, *spec.tls->ca_cert_secret, "amqp.tls.caCertSecret", true);
    if (spec.tls->client_cert_secret && spec.tls->client_key_secret) {
      files.cert_file =
        secret(secrets, *spec.tls->client_cert_secret, "amqp.tls.clientCertSecret", true);
      files.key_file =
        secret(secrets, *spec.tls->client_key_secret, "amqp.tls.clientKeySecret", true);
    }
    out.tls = std::move(files);
  }
  return out;
}

std::string redact_url(const std::string& url) {
  auto scheme = url.find("://");
  auto host_start = scheme == std::string::npos ? 0 : scheme + 3;
  auto at = url.find('@', host_start);
  auto slash = url.find('/', host_start);
  if (at == std::string::npos || (slash != std::string::npos && slash < at))
    return url;
  return url.substr(0, host_start) + "***" + url.substr(at);
}

std::string reply_text(const amqp_rpc_reply_t& reply) {
  switch (reply.reply_type) {
    case AMQP_RESPONSE_NORMAL: return "ok";
    case AMQP_RESPONSE_NONE: return "no reply from the broker";
    case AMQP_RESPONSE_LIBRARY_EXCEPTION: return amqp_error_string2(reply.library_error);
    case AMQP_RESPONSE_SERVER_EXCEPTION: break;
  }
  if (reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD) {
    const auto* m = static_cast<amqp_connection_close_t*>(reply.reply.decoded);
    return fmt::format("the broker closed the connection: {} {}", m->reply_code,
                       std::string_view{static_cast<char*>(m->reply_text.bytes), m->reply_text.len});
  }
  if (reply.reply.id == AMQP_CHANNEL_CLOSE_METHOD) {
    const auto* m = static_cast<amqp_channel_close_t*>(reply.reply.decoded);
    return fmt::format("the broker closed the channel: {} {}", m->reply_code,
                       std::string_view{static_cast<char*>(m->reply_text.bytes), m->reply_text.len});
  }
  return fmt::format("the broker answered {}", amqp_method_name(reply.reply.id));
}

connection::connection(const connection_settings& s) : state_(amqp_new_connection()) {
  if (state_ == nullptr)
    throw connection_error("cannot allocate a connection");
  try {
    auto url = parse(s.url);
    auto* socket = url->info.ssl ? open_tls_socket(state_, s) : amqp_tcp_socket_new(state_);
    if (socket == nullptr)
      throw connection_error("cannot create a socket");
    auto timeout = to_timeval(s.connect_timeout);
    if (int rc = amqp_socket_open_noblock(socket, url->info.host, url->info.port, &timeout);
        rc != AMQP_STATUS_OK)
      throw connection_error(fmt::format("cannot connect to {}:{}: {}", url->info.host,
                                         url->info.port, amqp_error_string2(rc)));
    amqp_set_handshake_timeout(state_, &timeout);
    amqp_set_rpc_timeout(state_, &timeout);
    std::string user = s.user_password ? s.user_password->first : url->info.user;
    std::string password = s.user_password ? s.user_password->second : url->info.password;
    amqp_table_entry_t name_entry{amqp_cstring_bytes("connection_name"), {}};
    name_entry.value.kind = AMQP_FIELD_KIND_UTF8;
    name_entry.value.value.bytes = amqp_cstring_bytes(s.name.c_str());
    amqp_table_t properties{1, &name_entry};
    expect(amqp_login_with_properties(state_, url->info.vhost, 0, 131072, s.heartbeat_seconds,
                                      &properties, AMQP_SASL_METHOD_PLAIN, user.c_str(),
                                      password.c_str()),
           "login");
    amqp_channel_open(state_, 1);
    expect(amqp_get_rpc_reply(state_), "opening channel 1");
    channel_open_ = true;
  } catch (...) {
    amqp_destroy_connection(state_);
    throw;
  }
}

connection::~connection() {
  timeval quick{1, 0};
  amqp_set_rpc_timeout(state_, &quick);
  if (channel_open_)
    amqp_channel_close(state_, 1, AMQP_REPLY_SUCCESS);
  amqp_connection_close(state_, AMQP_REPLY_SUCCESS);
  amqp_destroy_connection(state_);
}

void connection::expect(const amqp_rpc_reply_t& reply, const std::string& what) const {
  if (reply.reply_type != AMQP_RESPONSE_NORMAL)
    throw connection_error(what + ": " + reply_text(reply));
}

void connection::expect_status(int status, const std::string& what) const {
  if (status != AMQP_STATUS_OK)
    throw connection_error(what + ": " + amqp_error_string2(status));
}

int connection::fd() const {
  return amqp_get_sockfd(state_);
}

bool connection::buffered() const {
  return amqp_data_in_buffer(state_) || amqp_frames_enqueued(state_);
}

} // namespace ganglion::amqp
