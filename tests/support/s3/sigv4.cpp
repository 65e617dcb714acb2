#include "s3/sigv4.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <sstream>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

namespace ganglion::test::s3 {

namespace {

std::string hex(const unsigned char* data, std::size_t size) {
  std::string out;
  char pair[3];
  for (std::size_t i = 0; i < size; ++i) {
    std::snprintf(pair, sizeof pair, "%02x", data[i]);
    out += pair;
  }
  return out;
}

std::string hmac(const std::string& key, const std::string& data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &size);
  return std::string(reinterpret_cast<const char*>(out), size);
}

std::string trim(const std::string& text) {
  auto begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos)
    return {};
  auto end = text.find_last_not_of(" \t");
  // Sequential spaces inside a value become one.
  std::string out;
  for (auto i = begin; i <= end; ++i)
    if (text[i] != ' ' || out.empty() || out.back() != ' ')
      out += text[i];
  return out;
}

/// The query's `name=value` pairs sorted by name, then value; a bare name gets `=`.
std::string canonical_query(const std::string& query) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::stringstream in(query);
  std::string item;
  while (std::getline(in, item, '&')) {
    if (item.empty())
      continue;
    auto eq = item.find('=');
    pairs.emplace_back(item.substr(0, eq), eq == std::string::npos ? "" : item.substr(eq + 1));
  }
  std::sort(pairs.begin(), pairs.end());
  std::string out;
  for (const auto& [name, value] : pairs) {
    if (!out.empty())
      out += '&';
    out.append(name).append("=").append(value);
  }
  return out;
}

} // namespace

std::string percent_decode(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::optional<std::chrono::system_clock::time_point> parse_amz_date(const std::string& text) {
  std::tm tm{};
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z'
      || std::sscanf(text.c_str(), "%4d%2d%2dT%2d%2d%2dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                     &tm.tm_hour, &tm.tm_min, &tm.tm_sec)
           != 6)
    return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

std::string sha256_hex(const std::string& text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  return hex(digest, sizeof digest);
}

std::optional<sigv4_authorization> parse_authorization(const std::string& header) {
  const std::string scheme = "AWS4-HMAC-SHA256 ";
  if (header.rfind(scheme, 0) != 0)
    return std::nullopt;
  std::map<std::string, std::string> parts;
  std::stringstream in(header.substr(scheme.size()));
  std::string item;
  while (std::getline(in, item, ',')) {
    item = trim(item);
    auto eq = item.find('=');
    if (eq == std::string::npos)
      return std::nullopt;
    parts[item.substr(0, eq)] = item.substr(eq + 1);
  }
  if (!parts.count("Credential") || !parts.count("SignedHeaders") || !parts.count("Signature"))
    return std::nullopt;
  std::vector<std::string> scope;
  std::stringstream credential(parts["Credential"]);
  while (std::getline(credential, item, '/'))
    scope.push_back(item);
  if (scope.size() != 5 || scope[4] != "aws4_request")
    return std::nullopt;
  sigv4_authorization out{scope[0], scope[1], scope[2], scope[3], {}, parts["Signature"]};
  std::stringstream names(parts["SignedHeaders"]);
  while (std::getline(names, item, ';'))
    out.signed_headers.push_back(item);
  return out;
}

std::string canonical_request(const sigv4_request& request,
                              const std::vector<std::string>& signed_headers) {
  std::string out =
    request.method + "\n" + request.path + "\n" + canonical_query(request.query) + "\n";
  std::string names;
  for (const auto& name : signed_headers) {
    auto found = request.headers.find(name);
    out += name + ":" + (found == request.headers.end() ? "" : trim(found->second)) + "\n";
    names += (names.empty() ? "" : ";") + name;
  }
  return out + "\n" + names + "\n" + request.payload_hash;
}

std::string expected_signature(const sigv4_request& request, const sigv4_authorization& auth,
                               const std::string& secret_key) {
  auto scope = auth.date + "/" + auth.region + "/" + auth.service + "/aws4_request";
  auto to_sign = "AWS4-HMAC-SHA256\n" + request.amz_date + "\n" + scope + "\n"
                 + sha256_hex(canonical_request(request, auth.signed_headers));
  auto key = hmac("AWS4" + secret_key, auth.date);
  key = hmac(key, auth.region);
  key = hmac(key, auth.service);
  key = hmac(key, "aws4_request");
  auto signature = hmac(key, to_sign);
  return hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
}

bool constant_time_equal(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

} // namespace ganglion::test::s3
