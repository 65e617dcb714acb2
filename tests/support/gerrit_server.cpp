#include "gerrit_server.hpp"

#include <atomic>
#include <cctype>
#include <mutex>

#include <nlohmann/json.hpp>

#include "kube/text.hpp"

namespace ganglion::test {

namespace {

constexpr std::string_view prefix = "/a/config/server/webhooks~projects/";
constexpr std::string_view guard = ")]}'\n";

std::string unescape(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+')
      out += ' ';
    else if (text[i] == '%' && i + 2 < text.size()
             && std::isxdigit(static_cast<unsigned char>(text[i + 1]))
             && std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else
      out += text[i];
  }
  return out;
}

} // namespace

struct gerrit_server::impl {
  std::string authorization;
  mutable std::mutex mutex;
  std::map<std::string, std::string> stored; ///< "<project>/<remote>" (unescaped) → body
  std::atomic<bool> down{false};
  http_sink sink{200}; ///< last: stopped before the state its handler reads goes

  sink_answer answer(const recorded_request& r) {
    if (down)
      return {503, "service unavailable"};
    if (r.header("Authorization") != authorization)
      return {401, "Unauthorized"};
    std::string_view target = r.target;
    if (target.substr(0, prefix.size()) != prefix)
      return {404, "Not found"};
    target.remove_prefix(prefix.size());
    auto slash = target.find('/');
    if (slash == std::string_view::npos || target.substr(slash, 9) != "/remotes/")
      return {404, "Not found"};
    auto project = unescape(target.substr(0, slash));
    auto rest = target.substr(slash + 9);
    std::lock_guard lock{mutex};
    if (rest.empty()) {
      if (r.method != "GET")
        return {405, "Method not allowed"};
      auto all = nlohmann::json::object();
      for (const auto& [key, body] : stored)
        if (key.rfind(project + "/", 0) == 0)
          all[key.substr(project.size() + 1)] = nlohmann::json::parse(body);
      return {200, std::string(guard) + all.dump(), "application/json"};
    }
    if (rest.back() != '/')
      return {404, "Not found"};
    auto key = project + "/" + unescape(rest.substr(0, rest.size() - 1));
    if (r.method == "PUT") {
      auto body = nlohmann::json::parse(r.body, nullptr, false);
      if (r.header("Content-Type") != "application/json" || !body.is_object())
        return {400, "Bad request"};
      stored[key] = r.body;
      return {201, std::string(guard) + body.dump(), "application/json"};
    }
    if (r.method == "DELETE")
      return stored.erase(key) == 1 ? sink_answer{204, ""} : sink_answer{404, "Not found"};
    return {405, "Method not allowed"};
  }
};

gerrit_server::gerrit_server(std::string user, std::string password)
  : impl_(std::make_unique<impl>()) {
  impl_->authorization = "Basic " + kube::base64_encode(user + ":" + password);
  impl_->sink.set_handler(
    [state = impl_.get()](const recorded_request& r) { return state->answer(r); });
}

gerrit_server::~gerrit_server() = default;

std::string gerrit_server::base_url() const {
  return impl_->sink.url("");
}

std::vector<recorded_request> gerrit_server::requests() const {
  return impl_->sink.requests();
}

std::string gerrit_server::hook(const std::string& project, const std::string& remote) const {
  std::lock_guard lock{impl_->mutex};
  auto i = impl_->stored.find(project + "/" + remote);
  return i == impl_->stored.end() ? std::string{} : i->second;
}

std::map<std::string, std::string> gerrit_server::hooks() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->stored;
}

void gerrit_server::put_hook(const std::string& project, const std::string& remote,
                             const std::string& body) {
  std::lock_guard lock{impl_->mutex};
  impl_->stored[project + "/" + remote] = body;
}

void gerrit_server::set_down(bool down) {
  impl_->down = down;
}

} // namespace ganglion::test
