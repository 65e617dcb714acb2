#include "redis_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <stdexcept>
#include <thread>
#include <utility>

#include "files.hpp"
#include "http_sink.hpp"

namespace ganglion::test {

namespace {

bool accepts(std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0)
    return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

} // namespace

redis_server::redis_server(redis_server_options options)
  : options_(std::move(options)), port_(free_port()), data_dir_(temp_dir()) {
  start();
}

redis_server::~redis_server() {
  stop();
}

std::string redis_server::address() const {
  return "127.0.0.1:" + std::to_string(port_);
}

void redis_server::start() {
  const auto port = std::to_string(port_);
  std::vector<std::string> argv{"/usr/bin/redis-server", "--bind", "127.0.0.1", "--dir",
                                data_dir_, "--save", "", "--appendonly", "yes",
                                "--appendfsync", "always", "--daemonize", "no",
                                "--protected-mode", "no", "--logfile", ""};
  if (options_.tls_cert_file.empty()) {
    argv.insert(argv.end(), {"--port", port});
  } else {
    argv.insert(argv.end(), {"--port", "0", "--tls-port", port, "--tls-cert-file",
                             options_.tls_cert_file, "--tls-key-file", options_.tls_key_file,
                             "--tls-ca-cert-file", options_.tls_cert_file, "--tls-auth-clients",
                             "no"});
  }
  if (!options_.password.empty())
    argv.insert(argv.end(), {"--requirepass", options_.password});
  argv.insert(argv.end(), options_.extra_args.begin(), options_.extra_args.end());
  process_ = std::make_unique<child_process>(argv);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (!accepts(port_)) {
    if (!process_->running())
      throw std::runtime_error("redis-server exited at start: " + process_->output());
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("redis-server did not listen within 15 s: " + process_->output());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void redis_server::stop() {
  if (!process_)
    return;
  process_->signal(SIGTERM);
  if (!process_->wait(std::chrono::seconds(5)))
    process_->signal(SIGKILL);
  process_->wait(std::chrono::seconds(5));
  process_.reset();
}

std::string redis_server::output() const {
  return process_ ? process_->output() : std::string{};
}

} // namespace ganglion::test
