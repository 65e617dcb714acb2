#include "server/server_detail.hpp"

#include <map>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <fmt/format.h>

namespace ganglion::http {

struct route::registration {
  std::uint16_t port = 0;
  std::string address;
  std::function<void()> unregister;
  ~registration() {
    if (unregister)
      unregister();
  }
};

route::route() noexcept = default;
route::route(std::unique_ptr<registration> reg) noexcept : reg_(std::move(reg)) {}
route::~route() = default;
route::route(route&&) noexcept = default;
route& route::operator=(route&&) noexcept = default;

void route::reset() noexcept {
  reg_.reset();
}

std::uint16_t route::port() const noexcept {
  return reg_ ? reg_->port : 0;
}

std::string route::address() const {
  return reg_ ? reg_->address : std::string{};
}

route::operator bool() const noexcept {
  return reg_ != nullptr;
}

struct server_pool::impl {
  using work_guard = boost::asio::executor_work_guard<boost::asio::io_context::executor_type>;
  using key = std::pair<std::string, std::uint16_t>;

  explicit impl(server_options options)
    : io(std::make_shared<detail::io_runtime>(std::move(options))),
      work(io->context.get_executor()) {}

  void remove(const key& where, const std::string& path) {
    std::lock_guard guard{mutex};
    auto i = listeners.find(where);
    if (i == listeners.end())
      return;
    if (i->second->remove(path)) {
      i->second->close();
      listeners.erase(i);
    }
  }

  std::shared_ptr<detail::io_runtime> io;
  std::optional<work_guard> work;
  std::vector<std::thread> threads;
  mutable std::mutex mutex;
  std::map<key, std::shared_ptr<detail::listener>> listeners;
};

server_pool::server_pool(server_options options)
  : impl_(std::make_shared<impl>(std::move(options))) {
  auto count = std::max<std::size_t>(1, impl_->io->options.threads);
  for (std::size_t i = 0; i < count; ++i)
    impl_->threads.emplace_back([io = impl_->io] { io->context.run(); });
}

server_pool::~server_pool() {
  {
    std::lock_guard guard{impl_->mutex};
    impl_->io->stopped = true;
    for (auto& [where, l] : impl_->listeners)
      l->close();
    impl_->listeners.clear();
  }
  impl_->work.reset();
  for (auto& t : impl_->threads)
    t.join();
}

route server_pool::add_route(const std::string& host, std::uint16_t port, const std::string& path,
                             handler h, route_options options) {
  if (path.empty() || path.front() != '/')
    throw server_error(fmt::format("route path must start with '/': '{}'", path));
  if (!h)
    throw server_error(fmt::format("route {} has no handler", path));
  auto tls = options.tls;
  auto entry =
    std::make_shared<detail::route_entry>(detail::route_entry{std::move(h), std::move(options)});

  std::lock_guard guard{impl_->mutex};
  if (impl_->io->stopped)
    throw server_error("the HTTP server pool is stopped");
  std::shared_ptr<detail::listener> l;
  if (port != 0) {
    if (auto i = impl_->listeners.find({host, port}); i != impl_->listeners.end())
      l = i->second;
  }
  bool opened = false;
  if (l) {
    if (l->tls().has_value() != tls.has_value())
      throw server_error(fmt::format("port {} already serves {}", port,
                                     l->tls() ? "HTTPS" : "plain HTTP"));
    if (tls && *l->tls() != *tls)
      throw server_error(
        fmt::format("port {} already serves HTTPS with another certificate", port));
  } else {
    l = std::make_shared<detail::listener>(impl_->io, std::move(tls));
    l->open(host, port);
    opened = true;
  }
  try {
    l->add(path, std::move(entry));
  } catch (...) {
    if (opened)
      l->close();
    throw;
  }
  impl::key where{host, l->port()};
  if (opened)
    impl_->listeners.emplace(where, l);

  auto reg = std::make_unique<route::registration>();
  reg->port = l->port();
  reg->address = l->address();
  reg->unregister = [pool = std::weak_ptr<impl>(impl_), where, path] {
    if (auto alive = pool.lock())
      alive->remove(where, path);
  };
  return route{std::move(reg)};
}

std::size_t server_pool::listener_count() const {
  std::lock_guard guard{impl_->mutex};
  return impl_->listeners.size();
}

const server_options& server_pool::options() const noexcept {
  return impl_->io->options;
}

} // namespace ganglion::http
