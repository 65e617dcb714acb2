#include "client/stream_socket.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace ganglion::redis {

namespace {

std::string ssl_error_text() {
  std::string out;
  while (auto code = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    if (!out.empty())
      out += "; ";
    out += buf;
  }
  return out.empty() ? "TLS error" : out;
}

int remaining_ms(stream_socket::clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
    deadline - stream_socket::clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

/// Waits for `events` on `fd`: 1 ready, 0 deadline passed, -1 woken.
int wait_for(int fd, short events, stream_socket::clock::time_point deadline, int wake_fd) {
  for (;;) {
    pollfd fds[2] = {{fd, events, 0}, {wake_fd, POLLIN, 0}};
    int n = ::poll(fds, wake_fd >= 0 ? 2 : 1, remaining_ms(deadline));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      throw connection_error(std::string{"poll: "} + std::strerror(errno));
    if (wake_fd >= 0 && (fds[1].revents & POLLIN))
      return -1;
    if (n == 0)
      return 0;
    return 1;
  }
}

using ctx_ptr = std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)>;

void load_pem_certificates(SSL_CTX* ctx, const std::string& pem, bool as_ca) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio{
    BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free};
  int count = 0;
  while (X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    bool ok;
    if (as_ca)
      ok = X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx), cert) == 1;
    else if (count == 0)
      ok = SSL_CTX_use_certificate(ctx, cert) == 1;
    else {
      ok = SSL_CTX_add_extra_chain_cert(ctx, cert) == 1;
      if (ok)
        cert = nullptr; // owned by the context now
    }
    X509_free(cert);
    if (!ok)
      throw connection_error(ssl_error_text());
    ++count;
  }
  ERR_clear_error(); // the end of the PEM text
  if (count == 0)
    throw connection_error(as_ca ? "caCertSecret holds no PEM certificate"
                                 : "clientCertSecret holds no PEM certificate");
}

ctx_ptr make_context(const tls_settings& tls) {
  ctx_ptr ctx{SSL_CTX_new(TLS_client_method()), &SSL_CTX_free};
  if (!ctx)
    throw connection_error(ssl_error_text());
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION); // Go's default minimum
  if (!tls.ca_pem.empty())
    load_pem_certificates(ctx.get(), tls.ca_pem, true);
  else
    SSL_CTX_set_default_verify_paths(ctx.get());
  if (!tls.cert_pem.empty()) {
    load_pem_certificates(ctx.get(), tls.cert_pem, false);
    std::unique_ptr<BIO, decltype(&BIO_free)> bio{
      BIO_new_mem_buf(tls.key_pem.data(), static_cast<int>(tls.key_pem.size())), &BIO_free};
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key{
      PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free};
    if (!key || SSL_CTX_use_PrivateKey(ctx.get(), key.get()) != 1)
      throw connection_error("clientKeySecret: " + ssl_error_text());
  }
  SSL_CTX_set_verify(ctx.get(), tls.skip_verify ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nullptr);
  return ctx;
}

int connect_tcp(const host_port& to, stream_socket::clock::time_point deadline, int wake_fd) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (int rc = ::getaddrinfo(to.host.c_str(), to.port.c_str(), &hints, &found); rc != 0)
    throw connection_error(fmt::format("cannot resolve {}: {}", to.host, gai_strerror(rc)));
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> list{found, &freeaddrinfo};
  std::string last = "no address";
  for (auto* a = found; a != nullptr; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      last = std::strerror(errno);
      continue;
    }
    int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS) {
      int ready = wait_for(fd, POLLOUT, deadline, wake_fd);
      int error = 0;
      socklen_t len = sizeof error;
      if (ready == 1 && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) == 0 && error == 0)
        rc = 0;
      else
        last = ready == 1 ? std::strerror(error) : ready == 0 ? "timed out" : "stopped";
    } else if (rc != 0) {
      last = std::strerror(errno);
    }
    if (rc == 0) {
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      return fd;
    }
    ::close(fd);
  }
  throw connection_error(last);
}

bool is_ip_address(const std::string& host) {
  unsigned char buf[sizeof(in6_addr)];
  return ::inet_pton(AF_INET, host.c_str(), buf) == 1 || ::inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

} // namespace

struct stream_socket::impl {
  int fd = -1;
  int wake_fd = -1;
  ctx_ptr ctx{nullptr, &SSL_CTX_free};
  SSL* ssl = nullptr;

  ~impl() {
    if (ssl != nullptr)
      SSL_free(ssl);
    if (fd >= 0)
      ::close(fd);
  }

  /// Runs `op` (an SSL call) until it succeeds, waiting as OpenSSL asks; its result, or 0 on
  /// timeout or wake.
  template <class Op>
  int ssl_io(Op op, clock::time_point deadline, const char* what) {
    for (;;) {
      ERR_clear_error();
      int rc = op();
      if (rc > 0)
        return rc;
      int error = SSL_get_error(ssl, rc);
      short events;
      if (error == SSL_ERROR_WANT_READ)
        events = POLLIN;
      else if (error == SSL_ERROR_WANT_WRITE)
        events = POLLOUT;
      else if (error == SSL_ERROR_ZERO_RETURN)
        throw connection_error("the server closed the connection");
      else if (error == SSL_ERROR_SYSCALL && ERR_peek_error() == 0)
        throw connection_error(errno != 0 ? std::string{what} + ": " + std::strerror(errno)
                                          : "the server closed the connection");
      else
        throw connection_error(std::string{what} + ": " + ssl_error_text());
      if (wait_for(fd, events, deadline, wake_fd) != 1)
        return 0;
    }
  }
};

stream_socket::stream_socket(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
stream_socket::~stream_socket() = default;

std::unique_ptr<stream_socket> stream_socket::connect(const host_port& to,
                                                      const std::optional<tls_settings>& tls,
                                                      clock::time_point deadline, int wake_fd) {
  auto p = std::make_unique<impl>();
  p->wake_fd = wake_fd;
  p->fd = connect_tcp(to, deadline, wake_fd);
  if (tls) {
    p->ctx = make_context(*tls);
    p->ssl = SSL_new(p->ctx.get());
    if (p->ssl == nullptr || SSL_set_fd(p->ssl, p->fd) != 1)
      throw connection_error(ssl_error_text());
    if (!tls->skip_verify) {
      if (is_ip_address(to.host))
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(p->ssl), to.host.c_str());
      else {
        SSL_set_tlsext_host_name(p->ssl, to.host.c_str());
        SSL_set1_host(p->ssl, to.host.c_str());
      }
    } else if (!is_ip_address(to.host)) {
      SSL_set_tlsext_host_name(p->ssl, to.host.c_str());
    }
    auto* ssl = p->ssl;
    if (p->ssl_io([ssl] { return SSL_connect(ssl); }, deadline, "TLS handshake") == 0)
      throw connection_error("TLS handshake timed out");
  }
  return std::unique_ptr<stream_socket>(new stream_socket(std::move(p)));
}

void stream_socket::write_all(std::string_view data, clock::time_point deadline) {
  auto& p = *impl_;
  while (!data.empty()) {
    std::size_t written = 0;
    if (p.ssl != nullptr) {
      int n = p.ssl_io(
        [&] { return SSL_write(p.ssl, data.data(), static_cast<int>(data.size())); }, deadline,
        "write");
      if (n == 0)
        throw connection_error("write timed out");
      written = static_cast<std::size_t>(n);
    } else {
      auto n = ::send(p.fd, data.data(), data.size(), MSG_NOSIGNAL);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        if (wait_for(p.fd, POLLOUT, deadline, -1) != 1)
          throw connection_error("write timed out");
        continue;
      }
      if (n < 0)
        throw connection_error(std::string{"write: "} + std::strerror(errno));
      written = static_cast<std::size_t>(n);
    }
    data.remove_prefix(written);
  }
}

std::size_t stream_socket::read_some(char* buffer, std::size_t size, clock::time_point deadline) {
  auto& p = *impl_;
  if (p.ssl != nullptr) {
    // Bytes OpenSSL already holds are read before polling; the wake fd is checked first.
    if (wait_for(p.wake_fd, POLLIN, clock::now(), -1) == 1)
      return 0;
    int n = p.ssl_io([&] { return SSL_read(p.ssl, buffer, static_cast<int>(size)); }, deadline,
                     "read");
    return static_cast<std::size_t>(n);
  }
  for (;;) {
    if (wait_for(p.fd, POLLIN, deadline, p.wake_fd) != 1)
      return 0;
    auto n = ::recv(p.fd, buffer, size, 0);
    if (n > 0)
      return static_cast<std::size_t>(n);
    if (n == 0)
      throw connection_error("the server closed the connection");
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
      continue;
    throw connection_error(std::string{"read: "} + std::strerror(errno));
  }
}

} // namespace ganglion::redis
