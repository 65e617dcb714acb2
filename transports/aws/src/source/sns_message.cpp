#include "source/sns_message.hpp"

#include <algorithm>
#include <cctype>
#include <memory>

#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "ganglion/dsl/go/codec.hpp"

namespace ganglion::aws {

namespace {

std::string text(const nlohmann::json& doc, const char* key) {
  auto found = doc.find(key);
  return found != doc.end() && found->is_string() ? found->get<std::string>() : std::string{};
}

void add(std::string& out, const char* key, const std::string& value) {
  if (value.empty())
    return;
  out.append(key).append("\n").append(value).append("\n");
}

/// The host of an `https://host[:port]/…` URL; empty when the URL is not https.
std::string https_host(std::string_view url) {
  constexpr std::string_view scheme = "https://";
  if (url.substr(0, scheme.size()) != scheme)
    return {};
  auto rest = url.substr(scheme.size());
  auto end = rest.find_first_of("/?#");
  auto authority = rest.substr(0, end);
  if (authority.find('@') != std::string_view::npos)
    return {};
  if (!authority.empty() && authority.front() == '[')
    return std::string(authority.substr(0, authority.find(']') + 1));
  return std::string(authority.substr(0, authority.find(':')));
}

/// Argo's `^sns\.[a-zA-Z0-9\-]{3,}\.amazonaws\.com(\.cn)?$`.
bool is_sns_host(std::string_view host) {
  constexpr std::string_view prefix = "sns.";
  if (host.substr(0, prefix.size()) != prefix)
    return false;
  host.remove_prefix(prefix.size());
  for (std::string_view suffix : {".amazonaws.com", ".amazonaws.com.cn"})
    if (host.size() >= suffix.size() + 3 && host.substr(host.size() - suffix.size()) == suffix) {
      auto region = host.substr(0, host.size() - suffix.size());
      if (std::all_of(region.begin(), region.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
          }))
        return true;
    }
  return false;
}

} // namespace

std::optional<sns_message> parse_sns_message(std::string_view body, std::string& error) {
  auto doc = nlohmann::json::parse(body, nullptr, false);
  if (!doc.is_object() || !doc.contains("Type") || !doc["Type"].is_string()) {
    error = "bad request, not a valid SNS notification";
    return std::nullopt;
  }
  sns_message m;
  m.type = text(doc, "Type");
  m.message_id = text(doc, "MessageId");
  m.token = text(doc, "Token");
  m.topic_arn = text(doc, "TopicArn");
  m.subject = text(doc, "Subject");
  m.message = text(doc, "Message");
  m.subscribe_url = text(doc, "SubscribeURL");
  m.timestamp = text(doc, "Timestamp");
  m.signature_version = text(doc, "SignatureVersion");
  m.signature = text(doc, "Signature");
  m.signing_cert_url = text(doc, "SigningCertURL");
  return m;
}

std::string sns_string_to_sign(const sns_message& m) {
  std::string out;
  add(out, "Message", m.message);
  add(out, "MessageId", m.message_id);
  if (m.type == "Notification") {
    add(out, "Subject", m.subject);
  } else {
    add(out, "SubscribeURL", m.subscribe_url);
  }
  add(out, "Timestamp", m.timestamp);
  if (m.type != "Notification")
    add(out, "Token", m.token);
  add(out, "TopicArn", m.topic_arn);
  add(out, "Type", m.type);
  return out;
}

std::string sns_cert_url_problem(std::string_view url, const std::vector<std::string>& allowed) {
  auto host = https_host(url);
  if (host.empty())
    return "SigningCertURL is not an https URL";
  for (const auto& a : allowed)
    if (host == a)
      return {};
  if (!is_sns_host(host))
    return "SigningCertURL hostname `" + host + "` is not sns.<region>.amazonaws.com";
  return {};
}

std::string sns_signature_problem(const sns_message& m, const std::string& cert_pem) {
  const EVP_MD* digest = m.signature_version == "1"   ? EVP_sha1()
                         : m.signature_version == "2" ? EVP_sha256()
                                                      : nullptr;
  if (!digest)
    return "SignatureVersion \"" + m.signature_version + "\" is not 1 or 2";
  auto signature = dsl::base64_decode(m.signature);
  if (signature.illegal_at || signature.bytes.empty())
    return "the Signature is not base64";
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
    BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size())), BIO_free);
  std::unique_ptr<X509, decltype(&X509_free)> cert(
    PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr), X509_free);
  if (!cert)
    return "the signing certificate is not a PEM certificate";
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(X509_get_pubkey(cert.get()),
                                                          EVP_PKEY_free);
  if (!key || EVP_PKEY_base_id(key.get()) != EVP_PKEY_RSA)
    return "the signing certificate has no RSA key";
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  auto signed_text = sns_string_to_sign(m);
  const auto* sig = reinterpret_cast<const unsigned char*>(signature.bytes.data());
  if (EVP_DigestVerifyInit(ctx.get(), nullptr, digest, nullptr, key.get()) != 1
      || EVP_DigestVerify(ctx.get(), sig, signature.bytes.size(),
                          reinterpret_cast<const unsigned char*>(signed_text.data()),
                          signed_text.size())
           != 1)
    return "message signature check error";
  return {};
}

} // namespace ganglion::aws
