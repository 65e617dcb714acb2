#include "client/tls_context.hpp"

#include <arpa/inet.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

namespace ganglion::mqtt {

namespace {

std::string openssl_error() {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0)
    return "unknown OpenSSL error";
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

using bio_ptr = std::unique_ptr<BIO, decltype(&BIO_free)>;

bio_ptr memory_bio(const std::string& pem) {
  return bio_ptr{BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free};
}

void trust_cas(SSL_CTX* ctx, const std::string& pem) {
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  auto bio = memory_bio(pem);
  int added = 0;
  while (X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    if (X509_STORE_add_cert(store, cert) == 1)
      ++added;
    X509_free(cert);
  }
  ERR_clear_error(); // the end of the PEM text reads as an error
  if (added == 0)
    throw connection_error("caCertSecret holds no PEM certificate");
}

void use_client_certificate(SSL_CTX* ctx, const std::string& cert_pem,
                            const std::string& key_pem) {
  auto bio = memory_bio(cert_pem);
  std::unique_ptr<X509, decltype(&X509_free)> leaf{
    PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr), &X509_free};
  if (!leaf || SSL_CTX_use_certificate(ctx, leaf.get()) != 1)
    throw connection_error("clientCertSecret holds no usable PEM certificate: " + openssl_error());
  while (X509* extra = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr))
    if (SSL_CTX_add0_chain_cert(ctx, extra) != 1)
      X509_free(extra);
  ERR_clear_error();
  auto key_bio = memory_bio(key_pem);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key{
    PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free};
  if (!key || SSL_CTX_use_PrivateKey(ctx, key.get()) != 1)
    throw connection_error("clientKeySecret holds no usable PEM private key: " + openssl_error());
  if (SSL_CTX_check_private_key(ctx) != 1)
    throw connection_error("clientKeySecret does not match clientCertSecret");
}

bool is_ip_address(const std::string& host) {
  unsigned char buffer[16];
  return inet_pton(AF_INET, host.c_str(), buffer) == 1
         || inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

} // namespace

std::shared_ptr<SSL_CTX> make_ssl_context(const tls_material& tls, const std::string& host) {
  std::shared_ptr<SSL_CTX> ctx{SSL_CTX_new(TLS_client_method()), &SSL_CTX_free};
  if (!ctx)
    throw connection_error("cannot make a TLS context: " + openssl_error());
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  if (tls.skip_verify) {
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_NONE, nullptr);
    return ctx;
  }
  if (!tls.ca_pem.empty())
    trust_cas(ctx.get(), tls.ca_pem);
  else if (SSL_CTX_set_default_verify_paths(ctx.get()) != 1)
    throw connection_error("cannot load the system's CA certificates: " + openssl_error());
  if (!tls.cert_pem.empty() || !tls.key_pem.empty()) {
    if (tls.cert_pem.empty() || tls.key_pem.empty())
      throw connection_error("clientCertSecret and clientKeySecret must be given together");
    use_client_certificate(ctx.get(), tls.cert_pem, tls.key_pem);
  }
  X509_VERIFY_PARAM* param = SSL_CTX_get0_param(ctx.get());
  int set = is_ip_address(host) ? X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str())
                                : X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size());
  if (set != 1)
    throw connection_error("cannot check the server's certificate for " + host);
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  return ctx;
}

} // namespace ganglion::mqtt
