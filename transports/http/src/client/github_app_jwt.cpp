#include <memory>
#include <string>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/http/github_app.hpp"

namespace ganglion::http {

namespace {

using bio_ptr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using key_ptr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using md_ctx_ptr = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

/// base64url without padding (RFC 7515).
std::string base64url(std::string_view bytes) {
  auto out = dsl::base64_encode(bytes);
  while (!out.empty() && out.back() == '=')
    out.pop_back();
  for (auto& c : out)
    c = c == '+' ? '-' : c == '/' ? '_' : c;
  return out;
}

/// No passphrase: an encrypted key fails to load instead of prompting.
int no_passphrase(char*, int, int, void*) {
  return 0;
}

key_ptr rsa_key(std::string_view pem, const std::string& key_path) {
  const std::string expected = ": not an RSA private key in PEM (\"BEGIN RSA PRIVATE KEY\" or "
                               "\"BEGIN PRIVATE KEY\", unencrypted)";
  bio_ptr bio{BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free};
  key_ptr key{bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, &no_passphrase, nullptr) : nullptr,
              &EVP_PKEY_free};
  ERR_clear_error();
  if (!key)
    throw github_app_error(key_path + expected, true);
  if (EVP_PKEY_get_base_id(key.get()) != EVP_PKEY_RSA)
    throw github_app_error(key_path + ": the key is not an RSA key (GitHub Apps sign with RS256)", true);
  return key;
}

std::string sign_rs256(EVP_PKEY* key, const std::string& input, const std::string& key_path) {
  md_ctx_ptr ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
  std::size_t size = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(input.data());
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) != 1
      || EVP_DigestSign(ctx.get(), nullptr, &size, data, input.size()) != 1) {
    ERR_clear_error();
    throw github_app_error(key_path + ": cannot sign with the key (RS256)");
  }
  std::string signature(size, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &size, data,
                     input.size())
      != 1) {
    ERR_clear_error();
    throw github_app_error(key_path + ": cannot sign with the key (RS256)");
  }
  signature.resize(size);
  return signature;
}

} // namespace

std::string github_app_jwt(std::string_view private_key_pem, std::int64_t app_id,
                           std::chrono::system_clock::time_point now, const std::string& key_path) {
  using namespace std::chrono;
  auto key = rsa_key(private_key_pem, key_path);
  auto issued = duration_cast<seconds>((now - seconds{30}).time_since_epoch()).count();
  auto expires = issued + 120;
  auto claims = "{\"iss\":\"" + std::to_string(app_id) + "\",\"exp\":" + std::to_string(expires)
                + ",\"iat\":" + std::to_string(issued) + "}";
  auto input = base64url(R"({"alg":"RS256","typ":"JWT"})") + "." + base64url(claims);
  return input + "." + base64url(sign_rs256(key.get(), input, key_path));
}

std::string github_api_url(std::string_view configured) {
  while (configured.ends_with('/'))
    configured.remove_suffix(1);
  return configured.empty() ? std::string{"https://api.github.com"} : std::string{configured};
}

std::string github_api_url_problem(std::string_view api_url) {
  if (!api_url.starts_with("https://"))
    return "the GitHub API URL must be https:// (the App's JWT is never sent in clear)";
  auto host = api_url.substr(8);
  host = host.substr(0, host.find_first_of("/?#"));
  if (host.empty() || host.find('@') != std::string_view::npos)
    return "the GitHub API URL must name a host (and no user)";
  return {};
}

} // namespace ganglion::http
