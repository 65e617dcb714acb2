#include "client/storage_account.hpp"

#include <cctype>
#include <map>
#include <stdexcept>

#include "ganglion/dsl/go/codec.hpp"

namespace ganglion::azure::detail {

namespace {

constexpr const char* malformed =
  "connection string is either blank or malformed: it is Key=Value pairs separated by ';' "
  "(DefaultEndpointsProtocol=https;AccountName=<account>;AccountKey=<key>;"
  "EndpointSuffix=core.windows.net)";

std::string without_trailing_slash(std::string url) {
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  return url;
}

void check_endpoint(const std::string& url) {
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
    throw std::invalid_argument("connection string: QueueEndpoint is not an http(s):// URL");
  if (url.find_first_of("?# \t\r\n") != std::string::npos)
    throw std::invalid_argument(
      "connection string: QueueEndpoint has a query, a fragment or white space");
}

void check_host_part(const std::string& value, const char* key) {
  for (unsigned char c : value)
    if (!(std::isalnum(c) || c == '.' || c == '-'))
      throw std::invalid_argument(std::string{"connection string: "} + key
                                  + " has a character that is not a letter, digit, '.' or '-'");
}

} // namespace

storage_account parse_storage_connection_string(std::string_view text) {
  while (!text.empty() && text.back() == ';')
    text.remove_suffix(1);
  std::map<std::string, std::string, std::less<>> parts;
  while (true) {
    auto end = text.find(';');
    auto part = text.substr(0, end);
    auto eq = part.find('=');
    if (eq == std::string_view::npos)
      throw std::invalid_argument(malformed);
    parts[std::string{part.substr(0, eq)}] = std::string{part.substr(eq + 1)};
    if (end == std::string_view::npos)
      break;
    text.remove_prefix(end + 1);
  }
  auto get = [&](std::string_view key) -> const std::string* {
    auto found = parts.find(key);
    return found == parts.end() ? nullptr : &found->second;
  };

  storage_account out;
  std::string key_text;
  if (auto dev = get("UseDevelopmentStorage"); dev && *dev == "true") {
    out.queue_endpoint = std::string{"http://127.0.0.1:10001/"} + development_account;
    out.account_name = development_account;
    key_text = development_key;
  } else {
    const auto* endpoint = get("QueueEndpoint");
    const auto* account = get("AccountName");
    if (endpoint) {
      out.queue_endpoint = without_trailing_slash(*endpoint);
      check_endpoint(out.queue_endpoint);
    } else if (account) {
      const auto* protocol = get("DefaultEndpointsProtocol");
      const auto* suffix = get("EndpointSuffix");
      std::string scheme = protocol ? *protocol : "https";
      if (scheme != "http" && scheme != "https")
        throw std::invalid_argument(
          "connection string: DefaultEndpointsProtocol must be http or https");
      check_host_part(*account, "AccountName");
      if (suffix)
        check_host_part(*suffix, "EndpointSuffix");
      out.queue_endpoint =
        scheme + "://" + *account + ".queue." + (suffix ? *suffix : "core.windows.net");
    } else {
      throw std::invalid_argument("connection string needs either AccountName or QueueEndpoint");
    }
    const auto* key = get("AccountKey");
    const auto* sas = get("SharedAccessSignature");
    if (account && key) {
      out.account_name = *account;
      key_text = *key;
    } else if (sas) {
      out.shared_access_signature = *sas;
      if (!out.shared_access_signature.empty() && out.shared_access_signature.front() == '?')
        out.shared_access_signature.erase(0, 1);
      if (out.shared_access_signature.find_first_of("#\r\n") != std::string::npos)
        throw std::invalid_argument(
          "connection string: SharedAccessSignature has a '#' or a line break");
      return out;
    } else {
      throw std::invalid_argument(
        "connection string needs either AccountKey or SharedAccessSignature");
    }
  }
  if (key_text.empty())
    throw std::invalid_argument("connection string: AccountKey is empty");
  auto decoded = dsl::base64_decode(key_text);
  if (decoded.illegal_at)
    throw std::invalid_argument("connection string: decode account key: illegal base64 data at "
                                "input byte "
                                + std::to_string(*decoded.illegal_at));
  out.account_key = std::move(decoded.bytes);
  return out;
}

} // namespace ganglion::azure::detail
