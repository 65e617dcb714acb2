#include "client/pem.hpp"

#include <memory>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

namespace ganglion::kubernetes::detail {

namespace {

/// Refuses to prompt for the passphrase of an encrypted key.
int no_passphrase(char*, int, int, void*) {
  return 0;
}

} // namespace

std::string pem_problem(std::string_view pem, pem_kind kind) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio{
    BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free};
  if (!bio)
    return "out of memory";
  std::string problem;
  if (kind == pem_kind::certificates) {
    X509* cert = PEM_read_bio_X509(bio.get(), nullptr, no_passphrase, nullptr);
    if (cert == nullptr)
      problem = "not a PEM certificate";
    X509_free(cert);
  } else {
    EVP_PKEY* key = PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr);
    if (key == nullptr)
      problem = "not a PEM private key (or one encrypted with a passphrase)";
    EVP_PKEY_free(key);
  }
  ERR_clear_error();
  return problem;
}

} // namespace ganglion::kubernetes::detail
