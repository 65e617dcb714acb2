#include "ganglion/dsl/go/jwt.hpp"

#include <memory>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "ganglion/dsl/go/codec.hpp"

namespace ganglion::dsl {

namespace {

using bio_ptr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using key_ptr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using md_ctx_ptr = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

/// No passphrase: an encrypted key fails to load instead of prompting.
int no_passphrase(char*, int, int, void*) {
  return 0;
}

key_ptr rsa_key(std::string_view pem, std::string_view why_rsa) {
  bio_ptr bio{BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free};
  key_ptr key{bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, &no_passphrase, nullptr) : nullptr,
              &EVP_PKEY_free};
  ERR_clear_error();
  if (!key)
    throw jwt_error("not an RSA private key in PEM (\"BEGIN RSA PRIVATE KEY\" or \"BEGIN "
                    "PRIVATE KEY\", unencrypted)");
  if (EVP_PKEY_get_base_id(key.get()) != EVP_PKEY_RSA)
    throw jwt_error("the key is not an RSA key (" + std::string{why_rsa} + ")");
  return key;
}

std::string sign(EVP_PKEY* key, const std::string& input) {
  md_ctx_ptr ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
  std::size_t size = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(input.data());
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) != 1
      || EVP_DigestSign(ctx.get(), nullptr, &size, data, input.size()) != 1) {
    ERR_clear_error();
    throw jwt_error("cannot sign with the key (RS256)");
  }
  std::string signature(size, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &size, data,
                     input.size())
      != 1) {
    ERR_clear_error();
    throw jwt_error("cannot sign with the key (RS256)");
  }
  signature.resize(size);
  return signature;
}

} // namespace

std::string base64url_encode(std::string_view bytes) {
  auto out = base64_encode(bytes);
  while (!out.empty() && out.back() == '=')
    out.pop_back();
  for (auto& c : out)
    c = c == '+' ? '-' : c == '/' ? '_' : c;
  return out;
}

std::string sign_rs256_jwt(std::string_view header_json, std::string_view claims_json,
                           std::string_view private_key_pem, std::string_view why_rsa) {
  auto key = rsa_key(private_key_pem, why_rsa);
  auto input = base64url_encode(header_json) + "." + base64url_encode(claims_json);
  return input + "." + base64url_encode(sign(key.get(), input));
}

} // namespace ganglion::dsl
