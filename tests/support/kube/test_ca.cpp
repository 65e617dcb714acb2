#include "test_ca.hpp"

#include <atomic>
#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace ganglion::test::kube {

namespace {

struct pkey_free {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct x509_free {
  void operator()(X509* cert) const { X509_free(cert); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;
using x509_ptr = std::unique_ptr<X509, x509_free>;

void check(bool ok, const char* what) {
  if (!ok)
    throw std::runtime_error(std::string("test CA: ") + what + " failed");
}

pkey_ptr new_key() {
  pkey_ptr key{EVP_EC_gen("P-256")};
  check(key != nullptr, "EC key generation");
  return key;
}

std::string pem_of(X509* cert) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  char* data = nullptr;
  long size = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<std::size_t>(size));
  BIO_free(bio);
  return pem;
}

std::string pem_of(EVP_PKEY* key) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  long size = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<std::size_t>(size));
  BIO_free(bio);
  return pem;
}

void add_extension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
  check(extension != nullptr, "certificate extension");
  X509_add_ext(cert, extension, -1);
  X509_EXTENSION_free(extension);
}

/// A certificate for `key` named by `names` (field, value), valid one day; self-signed when
/// `issuer` is null.
x509_ptr new_certificate(EVP_PKEY* key,
                         const std::vector<std::pair<std::string, std::string>>& names,
                         X509* issuer, EVP_PKEY* issuer_key) {
  static std::atomic<long> serial{1};
  x509_ptr cert{X509_new()};
  check(cert != nullptr, "X509_new");
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial++);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 86400);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* subject = X509_get_subject_name(cert.get());
  for (const auto& [field, value] : names)
    X509_NAME_add_entry_by_txt(subject, field.c_str(), MBSTRING_UTF8,
                               reinterpret_cast<const unsigned char*>(value.c_str()), -1, -1, 0);
  X509_set_issuer_name(cert.get(), issuer ? X509_get_subject_name(issuer) : subject);
  add_extension(cert.get(), issuer ? issuer : cert.get(), NID_subject_key_identifier, "hash");
  if (issuer)
    add_extension(cert.get(), issuer, NID_authority_key_identifier, "keyid:always");
  return cert;
}

void sign(X509* cert, EVP_PKEY* key) {
  check(X509_sign(cert, key, EVP_sha256()) > 0, "signing");
}

} // namespace

struct test_ca::keys {
  pkey_ptr key;
  x509_ptr cert;
};

test_ca::test_ca() : keys_(std::make_unique<keys>()) {
  keys_->key = new_key();
  keys_->cert = new_certificate(keys_->key.get(), {{"CN", "ganglion-test-ca"}}, nullptr, nullptr);
  add_extension(keys_->cert.get(), keys_->cert.get(), NID_basic_constraints, "critical,CA:TRUE");
  add_extension(keys_->cert.get(), keys_->cert.get(), NID_key_usage,
                "critical,keyCertSign,cRLSign,digitalSignature");
  sign(keys_->cert.get(), keys_->key.get());
  certificate_pem_ = pem_of(keys_->cert.get());
}

test_ca::~test_ca() = default;

key_pair test_ca::issue_server() const {
  auto key = new_key();
  auto cert = new_certificate(key.get(), {{"CN", "127.0.0.1"}}, keys_->cert.get(),
                              keys_->key.get());
  add_extension(cert.get(), keys_->cert.get(), NID_basic_constraints, "critical,CA:FALSE");
  add_extension(cert.get(), keys_->cert.get(), NID_key_usage,
                "critical,digitalSignature,keyEncipherment");
  add_extension(cert.get(), keys_->cert.get(), NID_ext_key_usage, "serverAuth");
  add_extension(cert.get(), keys_->cert.get(), NID_subject_alt_name,
                "IP:127.0.0.1,IP:::1,DNS:localhost");
  sign(cert.get(), keys_->key.get());
  return {pem_of(cert.get()), pem_of(key.get())};
}

key_pair test_ca::issue_client(const std::string& user,
                               const std::vector<std::string>& groups) const {
  auto key = new_key();
  std::vector<std::pair<std::string, std::string>> names;
  for (const auto& group : groups)
    names.emplace_back("O", group);
  names.emplace_back("CN", user);
  auto cert = new_certificate(key.get(), names, keys_->cert.get(), keys_->key.get());
  add_extension(cert.get(), keys_->cert.get(), NID_basic_constraints, "critical,CA:FALSE");
  add_extension(cert.get(), keys_->cert.get(), NID_key_usage,
                "critical,digitalSignature,keyEncipherment");
  add_extension(cert.get(), keys_->cert.get(), NID_ext_key_usage, "clientAuth");
  sign(cert.get(), keys_->key.get());
  return {pem_of(cert.get()), pem_of(key.get())};
}

} // namespace ganglion::test::kube
