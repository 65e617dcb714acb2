#include "api_server.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "../eventually.hpp"
#include "connection.hpp"
#include "errors.hpp"
#include "rbac_policy.hpp"
#include "text.hpp"

namespace ganglion::test::kube {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

api_server::impl::impl(server_options opts)
  : options(std::move(opts)), objects(options.history_limit), access(objects, options),
    tokens(options.tokens.begin(), options.tokens.end()),
    bookmark_ms(options.bookmark_interval.count()) {}

void api_server::impl::accept() {
  acceptor.async_accept([this](const beast::error_code& ec, tcp::socket socket) {
    if (ec)
      return;
    socket.set_option(tcp::no_delay(true));
    if (tls)
      std::make_shared<connection<tls_stream>>(*this, tls_stream(std::move(socket), *tls))->start();
    else
      std::make_shared<connection<beast::tcp_stream>>(*this, beast::tcp_stream(std::move(socket)))
        ->start();
    accept();
  });
}

void api_server::impl::record(request_record r) {
  std::lock_guard guard{log_mutex};
  log.push_back(std::move(r));
}

int api_server::impl::add_closer(std::function<void()> close) {
  std::lock_guard guard{closers_mutex};
  closers.emplace(next_closer, std::move(close));
  return next_closer++;
}

void api_server::impl::remove_closer(int id) {
  std::lock_guard guard{closers_mutex};
  closers.erase(id);
}

api_server::api_server(server_options options) : impl_(std::make_unique<impl>(std::move(options))) {
  auto& s = *impl_;
  if (s.options.require_client_certificate && !s.options.tls)
    throw std::invalid_argument("kube::api_server: require_client_certificate needs tls");
  if (s.options.tls) {
    s.ca = std::make_unique<test_ca>();
    auto server_keys = s.ca->issue_server();
    s.tls.emplace(asio::ssl::context::tls_server);
    s.tls->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2
                       | asio::ssl::context::no_sslv3);
    s.tls->use_certificate_chain(asio::buffer(server_keys.certificate_pem));
    s.tls->use_private_key(asio::buffer(server_keys.key_pem), asio::ssl::context::pem);
    s.tls->add_certificate_authority(asio::buffer(s.ca->certificate_pem()));
    s.tls->set_verify_mode(asio::ssl::verify_peer);
    s.tls->set_verify_callback([](bool, asio::ssl::verify_context&) { return true; });
  }
  tcp::endpoint endpoint{asio::ip::make_address("127.0.0.1"), s.options.port};
  s.acceptor.open(endpoint.protocol());
  s.acceptor.set_option(asio::socket_base::reuse_address(true));
  s.acceptor.bind(endpoint);
  s.acceptor.listen();
  s.auth_required = !s.tokens.empty() || !s.options.token_users.empty()
                    || s.options.require_client_certificate;
  s.handler = std::make_unique<api_handler>(s.objects, s.injected, s.access, s.auth_required,
                                            "127.0.0.1:" + std::to_string(port()));
  if (s.options.seed_namespaces)
    for (const char* ns : {"default", "kube-system"})
      put({{"apiVersion", "v1"},
           {"kind", "Namespace"},
           {"metadata", {{"name", ns}}},
           {"status", {{"phase", "Active"}}}});
  if (s.options.rbac) {
    for (auto& type : rbac_resources())
      s.objects.add_resource(std::move(type));
    for (auto& object : bootstrap_policy())
      put(std::move(object));
  }
  s.accept();
  s.thread = std::thread([&s] {
    for (;;) {
      try {
        s.context.run();
        return;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "kube::api_server: %s\n", e.what());
      }
    }
  });
}

api_server::~api_server() {
  impl_->objects.hooks().stop();
  impl_->context.stop();
  impl_->thread.join();
}

std::uint16_t api_server::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::string api_server::url() const {
  return (impl_->tls ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(port());
}

std::string api_server::ca_pem() const {
  return impl_->ca ? impl_->ca->certificate_pem() : std::string{};
}

client_credentials api_server::issue_client_certificate(
  const std::string& user, const std::vector<std::string>& groups) const {
  if (!impl_->ca)
    throw std::logic_error("kube::api_server: client certificates need tls");
  auto keys = impl_->ca->issue_client(user, groups);
  return {keys.certificate_pem, keys.key_pem};
}

std::string api_server::kubeconfig(const std::string& token,
                                   const std::optional<client_credentials>& credentials,
                                   const std::string& ns) const {
  std::string text = "apiVersion: v1\nkind: Config\nclusters:\n- name: test\n  cluster:\n"
                     "    server: "
                     + url() + "\n";
  if (impl_->ca)
    text += "    certificate-authority-data: " + base64_encode(ca_pem()) + "\n";
  text += "users:\n- name: test\n  user:";
  if (!token.empty())
    text += "\n    token: " + token;
  if (credentials)
    text += "\n    client-certificate-data: " + base64_encode(credentials->certificate_pem)
            + "\n    client-key-data: " + base64_encode(credentials->key_pem);
  if (token.empty() && !credentials)
    text += " {}";
  text += "\ncontexts:\n- name: test\n  context:\n    cluster: test\n    user: test\n"
          "    namespace: "
          + ns + "\ncurrent-context: test\n";
  return text;
}

void api_server::add_resource(const std::string& group, const std::string& version,
                              const std::string& kind, const std::string& plural, bool namespaced,
                              bool has_status) {
  impl_->objects.add_resource({group, version, kind, plural, namespaced, has_status, {}});
}

void api_server::add_resource(resource_type type) {
  impl_->objects.add_resource(std::move(type));
}

void api_server::remove_resource(const std::string& group, const std::string& version,
                                 const std::string& plural) {
  impl_->objects.remove_resource(group, version, plural);
}

std::vector<resource_type> api_server::resources() const {
  return impl_->objects.resources();
}

namespace {

resource_type type_of(const store& objects, std::string_view api_version, std::string_view kind) {
  auto type = objects.find_kind(api_version, kind);
  if (!type)
    throw std::invalid_argument("kube::api_server: no resource " + std::string(kind) + " in "
                                + std::string(api_version));
  return *type;
}

} // namespace

json api_server::put(json object) {
  auto type = type_of(impl_->objects, object.value("apiVersion", ""), object.value("kind", ""));
  auto& metadata = object["metadata"];
  auto name = metadata.value("name", "");
  if (name.empty())
    throw std::invalid_argument("kube::api_server::put: metadata.name is missing");
  auto ns = type.namespaced ? metadata.value("namespace", "default") : "";
  metadata.erase("resourceVersion");
  return impl_->objects.write(
    type, ns, name, [&](const json*) { return object; }, "put");
}

std::optional<json> api_server::get(std::string_view api_version, std::string_view kind,
                                    std::string_view ns, std::string_view name) const {
  auto type = type_of(impl_->objects, api_version, kind);
  return impl_->objects.get(type, std::string(ns), std::string(name));
}

std::vector<json> api_server::list(std::string_view api_version, std::string_view kind,
                                   std::string_view ns) const {
  auto type = type_of(impl_->objects, api_version, kind);
  watch_filter filter;
  filter.ns = type.namespaced ? std::string(ns) : "";
  auto page = impl_->objects.list(type, filter, 0, "");
  std::vector<json> objects;
  for (auto& item : page.items) {
    item["apiVersion"] = type.api_version();
    item["kind"] = type.kind;
    objects.push_back(std::move(item));
  }
  return objects;
}

std::optional<json> api_server::update(std::string_view api_version, std::string_view kind,
                                       std::string_view ns, std::string_view name,
                                       const std::function<void(json&)>& change) {
  auto type = type_of(impl_->objects, api_version, kind);
  try {
    return impl_->objects.write(
      type, std::string(ns), std::string(name),
      [&](const json* current) {
        if (!current)
          throw not_found(type, std::string(name));
        json object = *current;
        change(object);
        return object;
      },
      "put");
  } catch (const api_error& e) {
    if (e.code() == 404)
      return std::nullopt;
    throw;
  }
}

bool api_server::remove(std::string_view api_version, std::string_view kind, std::string_view ns,
                        std::string_view name) {
  auto type = type_of(impl_->objects, api_version, kind);
  return impl_->objects.remove(type, std::string(ns), std::string(name)).has_value();
}

std::string api_server::resource_version() const {
  return impl_->objects.resource_version();
}

int api_server::on_write(std::string_view api_version, std::string_view kind, write_hook hook) {
  auto type = type_of(impl_->objects, api_version, kind);
  return impl_->objects.hooks().add(store::key_of(type), std::move(hook));
}

void api_server::remove_hook(int id) {
  impl_->objects.hooks().remove(id);
}

void api_server::compact() {
  impl_->objects.compact();
}

void api_server::close_watches() {
  std::lock_guard guard{impl_->closers_mutex};
  for (const auto& [id, close] : impl_->closers)
    close();
}

std::size_t api_server::open_watches() const {
  return impl_->objects.watch_count();
}

void api_server::set_bookmark_interval(std::chrono::milliseconds interval) {
  impl_->bookmark_ms = interval.count();
}

void api_server::fail_next(int count, int status, int retry_after_seconds,
                           const std::string& path_prefix) {
  impl_->injected.fail_next(count, status, retry_after_seconds, path_prefix);
}

void api_server::forbid(const std::string& verb, const std::string& resource) {
  impl_->injected.forbid(verb, resource);
}

void api_server::allow_all() {
  impl_->injected.allow_all();
}

std::vector<request_record> api_server::requests() const {
  std::lock_guard guard{impl_->log_mutex};
  return impl_->log;
}

std::vector<request_record> api_server::requests(std::string_view method,
                                                 std::string_view path_prefix) const {
  std::vector<request_record> found;
  for (auto& r : requests()) {
    auto path = std::string_view(r.target).substr(0, r.target.find('?'));
    if ((method.empty() || r.method == method) && path.substr(0, path_prefix.size()) == path_prefix)
      found.push_back(std::move(r));
  }
  return found;
}

std::vector<std::string> api_server::users_of(std::string_view method,
                                              std::string_view path_prefix) const {
  std::vector<std::string> users;
  for (auto& r : requests(method, path_prefix))
    users.push_back(std::move(r.user));
  return users;
}

void api_server::clear_requests() {
  std::lock_guard guard{impl_->log_mutex};
  impl_->log.clear();
}

bool api_server::wait_for_request(const std::function<bool(const request_record&)>& match,
                                  std::chrono::milliseconds limit) const {
  return eventually(
    [&] {
      std::lock_guard guard{impl_->log_mutex};
      return std::any_of(impl_->log.begin(), impl_->log.end(), match);
    },
    limit);
}

std::optional<json> api_server::wait_for_object(std::string_view api_version, std::string_view kind,
                                                std::string_view ns, std::string_view name,
                                                const std::function<bool(const json&)>& match,
                                                std::chrono::milliseconds limit) const {
  std::optional<json> found;
  eventually(
    [&] {
      found = get(api_version, kind, ns, name);
      return found && (!match || match(*found));
    },
    limit);
  if (found && match && !match(*found))
    return std::nullopt;
  return found;
}

bool api_server::wait_for_absent(std::string_view api_version, std::string_view kind,
                                 std::string_view ns, std::string_view name,
                                 std::chrono::milliseconds limit) const {
  return eventually([&] { return !get(api_version, kind, ns, name); }, limit);
}

bool api_server::wait_for_watches(std::size_t count, std::chrono::milliseconds limit) const {
  return eventually([&] { return open_watches() >= count; }, limit);
}

} // namespace ganglion::test::kube
