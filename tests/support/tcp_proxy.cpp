#include "tcp_proxy.hpp"

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <list>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ganglion::test {

namespace {

enum class command { drop, stall, reset, restore, quit };

sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return addr;
}

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/// A listening socket on 127.0.0.1:`port` (0: a free one); -1 on failure.
int listen_on(std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  auto addr = loopback(port);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 64) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

/// One direction of a connection: bytes read from `from` wait in `pending` for `to`.
struct pipe_end {
  int from = -1;
  int to = -1;
  std::string pending;
  bool eof = false;
};

/// A proxied connection: client → upstream and upstream → client.
struct link {
  int client = -1;
  int upstream = -1;
  pipe_end up;   // client → upstream
  pipe_end down; // upstream → client
  bool dead = false;
};

void close_link(link& l, bool abort) {
  for (int fd : {l.client, l.upstream}) {
    if (abort) {
      linger hard{1, 0};
      ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    } else {
      ::shutdown(fd, SHUT_RDWR);
    }
    ::close(fd);
  }
  l.dead = true;
}

/// Moves bytes along `p` as far as the sockets allow; false when the connection ended.
bool pump(pipe_end& p, short from_events) {
  if ((from_events & (POLLIN | POLLHUP | POLLERR)) && p.pending.empty() && !p.eof) {
    char buffer[65536];
    auto n = ::read(p.from, buffer, sizeof buffer);
    if (n > 0)
      p.pending.assign(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || (errno != EAGAIN && errno != EINTR))
      p.eof = true;
  }
  if (!p.pending.empty()) { // non-blocking: EAGAIN leaves it for the next round
    auto n = ::send(p.to, p.pending.data(), p.pending.size(), MSG_NOSIGNAL);
    if (n > 0)
      p.pending.erase(0, static_cast<std::size_t>(n));
    else if (n < 0 && errno != EAGAIN && errno != EINTR)
      return false;
  }
  return !(p.eof && p.pending.empty());
}

} // namespace

struct tcp_proxy::impl {
  std::uint16_t target;
  std::uint16_t port = 0;
  int listener = -1;
  int wake = -1;
  bool stalled = false;
  std::list<link> links;

  mutable std::mutex mutex;
  std::condition_variable done_cv;
  std::deque<command> commands;
  std::uint64_t requested = 0;
  std::uint64_t done = 0;
  std::size_t open = 0;
  std::thread thread;

  void request(command c) {
    std::unique_lock lock{mutex};
    commands.push_back(c);
    auto ticket = ++requested;
    std::uint64_t one = 1;
    (void)!::write(wake, &one, sizeof one);
    done_cv.wait(lock, [&] { return done >= ticket; });
  }

  void accept_new() {
    for (;;) {
      int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (client < 0)
        return;
      int upstream = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      auto addr = loopback(target);
      if (::connect(upstream, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(upstream);
        ::close(client);
        continue;
      }
      set_nonblocking(upstream);
      link l;
      l.client = client;
      l.upstream = upstream;
      l.up = {client, upstream, {}, false};
      l.down = {upstream, client, {}, false};
      links.push_back(std::move(l));
    }
  }

  bool apply(command c) {
    switch (c) {
      case command::drop:
        for (auto& l : links)
          close_link(l, false);
        links.clear();
        if (listener >= 0)
          ::close(listener);
        listener = -1;
        break;
      case command::stall: stalled = true; break;
      case command::reset:
        for (auto& l : links)
          close_link(l, true);
        links.clear();
        break;
      case command::restore:
        stalled = false;
        if (listener < 0)
          listener = listen_on(port);
        break;
      case command::quit:
        for (auto& l : links)
          close_link(l, false);
        links.clear();
        return false;
    }
    return true;
  }

  void run() {
    for (;;) {
      std::vector<pollfd> fds{{wake, POLLIN, 0}};
      if (listener >= 0)
        fds.push_back({listener, POLLIN, 0});
      auto first_link = fds.size();
      if (!stalled)
        for (auto& l : links) {
          fds.push_back({l.client,
                         static_cast<short>((l.up.pending.empty() ? POLLIN : 0)
                                            | (l.down.pending.empty() ? 0 : POLLOUT)),
                         0});
          fds.push_back({l.upstream,
                         static_cast<short>((l.down.pending.empty() ? POLLIN : 0)
                                            | (l.up.pending.empty() ? 0 : POLLOUT)),
                         0});
        }
      ::poll(fds.data(), fds.size(), 1000);
      if (fds[0].revents & POLLIN) {
        std::uint64_t n = 0;
        (void)!::read(wake, &n, sizeof n);
        std::deque<command> taken;
        {
          std::lock_guard guard{mutex};
          taken.swap(commands);
        }
        bool running = true;
        for (auto c : taken)
          running = apply(c) && running;
        {
          std::lock_guard guard{mutex};
          done += taken.size();
          open = links.size();
        }
        done_cv.notify_all();
        if (!running)
          return;
        continue; // the links may have changed under fds
      }
      if (listener >= 0 && fds[1].revents & POLLIN)
        accept_new();
      std::size_t i = first_link;
      if (!stalled)
        for (auto& l : links) {
          if (i + 1 >= fds.size())
            break; // accepted during this round: polled next round
          auto client_events = fds[i].revents;
          auto upstream_events = fds[i + 1].revents;
          i += 2;
          bool alive = pump(l.up, client_events) && pump(l.down, upstream_events);
          if (!alive)
            close_link(l, false);
        }
      links.remove_if([](const link& l) { return l.dead; });
      std::lock_guard guard{mutex};
      open = links.size();
    }
  }
};

tcp_proxy::tcp_proxy(std::uint16_t target_port) : impl_(std::make_unique<impl>()) {
  impl_->target = target_port;
  impl_->listener = listen_on(0);
  if (impl_->listener < 0)
    throw std::runtime_error(std::string{"tcp_proxy: cannot listen: "} + std::strerror(errno));
  sockaddr_in addr{};
  socklen_t size = sizeof addr;
  ::getsockname(impl_->listener, reinterpret_cast<sockaddr*>(&addr), &size);
  impl_->port = ntohs(addr.sin_port);
  impl_->wake = ::eventfd(0, EFD_CLOEXEC);
  impl_->thread = std::thread([this] { impl_->run(); });
}

tcp_proxy::~tcp_proxy() {
  impl_->request(command::quit);
  impl_->thread.join();
  if (impl_->listener >= 0)
    ::close(impl_->listener);
  ::close(impl_->wake);
}

std::uint16_t tcp_proxy::port() const {
  return impl_->port;
}

std::string tcp_proxy::address() const {
  return "127.0.0.1:" + std::to_string(impl_->port);
}

void tcp_proxy::drop() {
  impl_->request(command::drop);
}

void tcp_proxy::stall() {
  impl_->request(command::stall);
}

void tcp_proxy::reset() {
  impl_->request(command::reset);
}

void tcp_proxy::restore() {
  impl_->request(command::restore);
}

std::size_t tcp_proxy::connections() const {
  std::lock_guard guard{impl_->mutex};
  return impl_->open;
}

} // namespace ganglion::test
