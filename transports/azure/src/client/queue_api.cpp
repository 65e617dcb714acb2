#include "client/queue_api.hpp"

#include <array>
#include <cctype>
#include <ctime>
#include <strings.h>

#include <fmt/format.h>

#include "client/queue_xml.hpp"
#include "client/sas_token.hpp"
#include "client/shared_key.hpp"

namespace ganglion::azure::detail {

namespace {

/// A Get Messages answer holds at most 32 messages of 64 KiB each.
constexpr std::size_t max_answer_bytes = std::size_t{4} << 20;
constexpr std::chrono::seconds call_timeout{30};

/// The path part of `url` (`/devstoreaccount1` of `http://127.0.0.1:10001/devstoreaccount1`).
std::string path_of(const std::string& url) {
  auto scheme = url.find("://");
  auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return slash == std::string::npos ? std::string{} : url.substr(slash);
}

/// A request to `<endpoint>/<suffix>` with `query` (unescaped), authorized by Shared Key or by
/// the account's SAS.
http::client_request storage_request(const storage_account& account, std::string method,
                                     const std::string& suffix, const header_list& query,
                                     std::chrono::system_clock::time_point now) {
  http::client_request r;
  r.method = std::move(method);
  r.timeout = call_timeout;
  r.max_response_bytes = max_answer_bytes;
  r.response_headers = {"x-ms-error-code"};
  std::string encoded;
  for (const auto& [name, value] : query)
    encoded += (encoded.empty() ? "" : "&") + query_escape(name) + "=" + query_escape(value);
  r.url = account.queue_endpoint + suffix + "?";
  if (!account.shared_access_signature.empty())
    r.url += account.shared_access_signature + "&";
  r.url += encoded;
  r.headers = {{"x-ms-version", queue_api_version}, {"Accept", "application/xml"}};
  if (r.method != "GET")
    r.headers.emplace_back("Content-Type", ""); // none: libcurl would add a form type
  if (account.shared_access_signature.empty()) {
    r.headers.emplace_back("x-ms-date", http_date(now));
    auto to_sign = shared_key_string_to_sign(r.method, r.headers, account.account_name,
                                             path_of(account.queue_endpoint) + suffix, query);
    r.headers.emplace_back("Authorization", shared_key_authorization(
                                              account.account_name, account.account_key, to_sign));
  }
  return r;
}

std::string header_value(const http::client_response& r, std::string_view name) {
  for (const auto& [n, v] : r.headers)
    if (n.size() == name.size() && ::strncasecmp(n.data(), name.data(), n.size()) == 0)
      return v;
  return {};
}

} // namespace

std::string http_date(std::chrono::system_clock::time_point at) {
  static constexpr std::array<const char*, 7> days{"Sun", "Mon", "Tue", "Wed",
                                                  "Thu", "Fri", "Sat"};
  static constexpr std::array<const char*, 12> months{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  auto seconds = std::chrono::system_clock::to_time_t(at);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  return fmt::format("{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT",
                     days[static_cast<std::size_t>(tm.tm_wday)], tm.tm_mday,
                     months[static_cast<std::size_t>(tm.tm_mon)], tm.tm_year + 1900, tm.tm_hour,
                     tm.tm_min, tm.tm_sec);
}

std::string path_escape(std::string_view segment) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : segment) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '$' || c == '&'
        || c == '+' || c == ',' || c == ';' || c == '=' || c == ':' || c == '@') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 0x0f]);
    }
  }
  return out;
}

http::client_request get_messages_request(const queue_address& at, int count,
                                          int visibility_seconds,
                                          std::chrono::system_clock::time_point now) {
  return storage_request(at.account, "GET", "/" + at.queue + "/messages",
                         {{"numofmessages", std::to_string(count)},
                          {"visibilitytimeout", std::to_string(visibility_seconds)}},
                         now);
}

http::client_request delete_message_request(const queue_address& at, const std::string& id,
                                            const std::string& pop_receipt,
                                            std::chrono::system_clock::time_point now) {
  return storage_request(at.account, "DELETE",
                         "/" + at.queue + "/messages/" + path_escape(id),
                         {{"popreceipt", pop_receipt}}, now);
}

std::string describe_answer(const http::client_response& r) {
  if (r.status == 0)
    return r.error.empty() ? "no HTTP answer" : r.error;
  auto error = parse_storage_error(r.body);
  auto code = header_value(r, "x-ms-error-code");
  if (code.empty())
    code = error.code;
  auto message = error.message.substr(0, error.message.find('\n'));
  if (message.empty() && error.code.empty())
    message = r.body.substr(0, 200);
  auto out = fmt::format("HTTP {}", r.status);
  if (!code.empty())
    out += " " + code;
  if (!message.empty())
    out += ": " + message;
  return out;
}

} // namespace ganglion::azure::detail
