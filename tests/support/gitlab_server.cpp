#include "gitlab_server.hpp"

#include <map>
#include <mutex>
#include <set>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "loopback_acceptor.hpp"

namespace ganglion::test {

namespace {

namespace bhttp = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using json = nlohmann::json;

} // namespace

struct gitlab_server::impl {
  std::string token;
  mutable std::mutex mutex;
  std::set<std::string> missing;
  bool down = false;
  std::int64_t next_id = 1;
  std::map<std::int64_t, gitlab_hook> hooks;
  std::vector<gitlab_request> requests;

  std::pair<unsigned, std::string> handle(const gitlab_request& r) {
    static const std::string root = "/api/v4/";
    std::lock_guard lock{mutex};
    requests.push_back(r);
    if (down)
      return {502, "Bad Gateway"};
    if (r.private_token != token)
      return {401, R"({"message":"401 Unauthorized"})"};
    auto at = r.target.find("/hooks");
    if (!r.target.starts_with(root) || at == std::string::npos)
      return {404, R"({"error":"404 Not Found"})"};
    auto scope = r.target.substr(root.size(), at - root.size());
    auto id = r.target.substr(at + 6);
    if (missing.count(scope))
      return {404, R"({"message":"404 Project Not Found"})"};
    if (r.method == "GET" && id.empty()) {
      auto out = json::array();
      for (const auto& [_, h] : hooks)
        if (h.scope == scope)
          out.push_back({{"id", h.id}, {"url", h.url}});
      return {200, out.dump()};
    }
    if (r.method == "POST" && id.empty()) {
      auto body = json::parse(r.body, nullptr, false);
      if (!body.is_object() || !body.contains("url") || !body["url"].is_string())
        return {400, R"({"error":"url is missing"})"};
      gitlab_hook h{next_id++, scope, body["url"].get<std::string>(), r.body};
      hooks[h.id] = h;
      return {201, json{{"id", h.id}, {"url", h.url}}.dump()};
    }
    if (r.method == "DELETE" && id.size() > 1) {
      auto found = hooks.find(std::stoll(id.substr(1)));
      if (found == hooks.end() || found->second.scope != scope)
        return {404, R"({"message":"404 Not found"})"};
      hooks.erase(found);
      return {204, ""};
    }
    return {405, R"({"error":"405 Method Not Allowed"})"};
  }

  void serve(tcp::socket& socket) {
    boost::system::error_code ec;
    boost::beast::flat_buffer buffer;
    bhttp::request_parser<bhttp::string_body> parser;
    parser.body_limit(1u << 20);
    bhttp::read(socket, buffer, parser, ec);
    if (ec)
      return;
    const auto& request = parser.get();
    gitlab_request r{std::string{request.method_string()}, std::string{request.target()},
                     std::string{request["PRIVATE-TOKEN"]},
                     std::string{request[bhttp::field::content_type]}, request.body()};
    std::pair<unsigned, std::string> answer;
    try {
      answer = handle(r);
    } catch (const std::exception& e) {
      answer = {500, e.what()};
    }
    bhttp::response<bhttp::string_body> response{static_cast<bhttp::status>(answer.first), 11};
    response.set(bhttp::field::content_type, "application/json");
    response.body() = answer.second;
    response.keep_alive(false);
    response.prepare_payload();
    bhttp::write(socket, response, ec);
    socket.shutdown(tcp::socket::shutdown_both, ec);
  }

  // Last: it starts serving, so everything above exists by then.
  std::unique_ptr<loopback_acceptor> acceptor;
};

gitlab_server::gitlab_server(std::string token) : impl_(std::make_unique<impl>()) {
  impl_->token = std::move(token);
  impl_->acceptor =
    std::make_unique<loopback_acceptor>([impl = impl_.get()](tcp::socket& s) { impl->serve(s); });
}

gitlab_server::~gitlab_server() {
  impl_->acceptor.reset();
}

std::string gitlab_server::base_url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->acceptor->port());
}

void gitlab_server::set_missing(const std::string& scope) {
  std::lock_guard lock{impl_->mutex};
  impl_->missing.insert(scope);
}

void gitlab_server::set_down(bool down) {
  std::lock_guard lock{impl_->mutex};
  impl_->down = down;
}

std::int64_t gitlab_server::add(const std::string& scope, const std::string& url) {
  std::lock_guard lock{impl_->mutex};
  gitlab_hook h{impl_->next_id++, scope, url, {}};
  impl_->hooks[h.id] = h;
  return h.id;
}

std::vector<gitlab_hook> gitlab_server::hooks() const {
  std::lock_guard lock{impl_->mutex};
  std::vector<gitlab_hook> out;
  for (const auto& [_, h] : impl_->hooks)
    out.push_back(h);
  return out;
}

std::vector<gitlab_request> gitlab_server::requests() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->requests;
}

} // namespace ganglion::test
