#include "client/web_api.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ganglion::slack::detail {

std::string query_escape(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
        || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string encode_form(const std::map<std::string, std::string>& values) {
  std::string out;
  for (const auto& [key, value] : values) {
    if (!out.empty())
      out += '&';
    out += query_escape(key);
    out += '=';
    out += query_escape(value);
  }
  return out;
}

namespace {

std::string header_value(const http::client_response& response, std::string_view name) {
  for (const auto& [key, value] : response.headers)
    if (key.size() == name.size()
        && std::equal(key.begin(), key.end(), name.begin(),
                      [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
      return value;
  return {};
}

std::string text_of(const nlohmann::json& answer, const char* key) {
  auto it = answer.find(key);
  return it != answer.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

} // namespace

api_result read_api_response(std::string_view method, const http::client_response& response) {
  api_result out;
  if (response.status == 0) {
    out.error = fmt::format("slack {}: {}", method,
                            response.error.empty() ? "no HTTP response" : response.error);
    return out;
  }
  if (response.status == 429) {
    auto retry = header_value(response, "Retry-After");
    out.error = retry.empty() ? fmt::format("slack {}: HTTP 429 (rate limited)", method)
                              : fmt::format("slack {}: slack rate limit exceeded, retry after {}s",
                                            method, retry);
    return out;
  }
  if (response.status != 200) {
    out.error = fmt::format("slack {}: HTTP {}", method, response.status);
    return out;
  }
  auto answer = nlohmann::json::parse(response.body, nullptr, false);
  if (!answer.is_object()) {
    out.error = fmt::format("slack {}: the answer is not a JSON object", method);
    return out;
  }
  auto ok = answer.find("ok");
  if (ok == answer.end() || !ok->is_boolean() || !ok->get<bool>()) {
    auto why = text_of(answer, "error");
    out.error = fmt::format("slack {}: {}", method, why.empty() ? "ok is false" : why);
    return out;
  }
  out.ok = true;
  out.channel = text_of(answer, "channel");
  out.ts = text_of(answer, "ts");
  return out;
}

std::string thread_book::find(const std::string& channel, const std::string& key) const {
  std::lock_guard guard{mutex_};
  auto it = threads_.find({channel, key});
  return it == threads_.end() ? std::string{} : it->second;
}

void thread_book::remember(const std::string& channel, const std::string& key,
                           const std::string& ts) {
  std::lock_guard guard{mutex_};
  if (threads_.size() >= max_threads)
    threads_.clear();
  threads_[{channel, key}] = ts;
}

} // namespace ganglion::slack::detail
