#include "aws/sns_signer.hpp"

#include <memory>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "kube/text.hpp"

namespace ganglion::test::aws {

namespace {

std::string sign(const std::string& text, const std::string& key_pem, const EVP_MD* digest) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
    BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size())), BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
    PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), EVP_PKEY_free);
  if (!key)
    throw std::runtime_error("signed_sns_message: not a PEM private key");
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  std::size_t size = 0;
  if (EVP_DigestSignInit(ctx.get(), nullptr, digest, nullptr, key.get()) != 1
      || EVP_DigestSign(ctx.get(), nullptr, &size,
                        reinterpret_cast<const unsigned char*>(text.data()), text.size())
           != 1)
    throw std::runtime_error("signed_sns_message: signing failed");
  std::string out(size, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &size,
                     reinterpret_cast<const unsigned char*>(text.data()), text.size())
      != 1)
    throw std::runtime_error("signed_sns_message: signing failed");
  out.resize(size);
  return out;
}

} // namespace

std::string signed_sns_message(std::map<std::string, std::string> fields,
                               const std::string& key_pem, const std::string& cert_url,
                               int version) {
  std::vector<std::string> keys =
    fields["Type"] == "Notification"
      ? std::vector<std::string>{"Message", "MessageId", "Subject", "Timestamp", "TopicArn",
                                 "Type"}
      : std::vector<std::string>{"Message", "MessageId", "SubscribeURL", "Timestamp", "Token",
                                 "TopicArn", "Type"};
  std::string text;
  for (const auto& key : keys)
    if (auto found = fields.find(key); found != fields.end() && !found->second.empty())
      text += key + "\n" + found->second + "\n";
  fields["SignatureVersion"] = std::to_string(version);
  fields["SigningCertURL"] = cert_url;
  fields["Signature"] =
    kube::base64_encode(sign(text, key_pem, version == 1 ? EVP_sha1() : EVP_sha256()));
  return nlohmann::json(fields).dump();
}

} // namespace ganglion::test::aws
