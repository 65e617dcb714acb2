#include "client/shared_key.hpp"

#include <algorithm>
#include <map>
#include <strings.h>

#include "ganglion/dsl/go/codec.hpp"

namespace ganglion::azure::detail {

namespace {

std::string lower(std::string_view text) {
  std::string out{text};
  for (auto& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view first_value(const header_list& headers, std::string_view name) {
  for (const auto& [n, v] : headers)
    if (n.size() == name.size() && ::strncasecmp(n.data(), name.data(), n.size()) == 0)
      return v;
  return {};
}

} // namespace

std::string shared_key_string_to_sign(std::string_view method, const header_list& headers,
                                      std::string_view account, std::string_view path,
                                      const header_list& query) {
  std::string out{method};
  auto line = [&](std::string_view value) {
    out += '\n';
    out += value;
  };
  line(first_value(headers, "Content-Encoding"));
  line(first_value(headers, "Content-Language"));
  auto length = first_value(headers, "Content-Length");
  line(length == "0" ? std::string_view{} : length);
  line(first_value(headers, "Content-MD5"));
  line(first_value(headers, "Content-Type"));
  line({});
  for (const char* name :
       {"If-Modified-Since", "If-Match", "If-None-Match", "If-Unmodified-Since", "Range"})
    line(first_value(headers, name));

  std::map<std::string, std::vector<std::string>> ms;
  for (const auto& [name, value] : headers) {
    auto key = lower(name);
    if (key.rfind("x-ms-", 0) == 0)
      ms[key].push_back(value);
  }
  out += '\n';
  bool first = true;
  for (const auto& [name, values] : ms) {
    if (!first)
      out += '\n';
    first = false;
    out += name;
    out += ':';
    for (std::size_t i = 0; i < values.size(); ++i)
      out += (i ? "," : "") + values[i];
  }

  out += '\n';
  out += '/';
  out += account;
  out += path.empty() ? std::string_view{"/"} : path;
  std::map<std::string, std::vector<std::string>> params;
  for (const auto& [name, value] : query)
    params[name].push_back(value);
  for (auto& [name, values] : params) {
    std::sort(values.begin(), values.end());
    out += '\n';
    out += lower(name);
    out += ':';
    for (std::size_t i = 0; i < values.size(); ++i)
      out += (i ? "," : "") + values[i];
  }
  return out;
}

std::string shared_key_authorization(std::string_view account, std::string_view key,
                                     std::string_view string_to_sign) {
  auto signature = dsl::base64_encode(*dsl::hmac("sha256", key, string_to_sign));
  return "SharedKey " + std::string{account} + ":" + signature;
}

} // namespace ganglion::azure::detail
