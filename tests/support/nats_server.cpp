#include "nats_server.hpp"

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

nats_server::nats_server(bool jetstream) : nats_server([jetstream] {
    nats_server_options options;
    options.jetstream = jetstream;
    return options;
  }()) {}

nats_server::nats_server(nats_server_options options)
  : options_(std::move(options)), port_(free_port()), store_dir_(temp_dir()) {
  if (!options_.config.empty())
    write_file(store_dir_ + "/nats-server.conf", options_.config);
  start();
}

nats_server::~nats_server() {
  stop();
}

std::string nats_server::url() const {
  return "nats://127.0.0.1:" + std::to_string(port_);
}

void nats_server::start() {
  std::vector<std::string> argv{"/usr/sbin/nats-server", "-a", "127.0.0.1", "-p",
                                std::to_string(port_)};
  if (!options_.config.empty())
    argv.insert(argv.end(), {"-c", store_dir_ + "/nats-server.conf"});
  if (options_.jetstream) {
    argv.insert(argv.end(), {"-js", "-sd", store_dir_});
  }
  if (!options_.user.empty())
    argv.insert(argv.end(), {"--user", options_.user, "--pass", options_.password});
  if (!options_.token.empty())
    argv.insert(argv.end(), {"--auth", options_.token});
  argv.insert(argv.end(), options_.extra_args.begin(), options_.extra_args.end());
  process_ = std::make_unique<child_process>(argv);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (!accepts(port_)) {
    if (!process_->running())
      throw std::runtime_error("nats-server exited at start: " + process_->output());
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("nats-server did not listen within 15 s: " + process_->output());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void nats_server::stop() {
  if (!process_)
    return;
  process_->signal(SIGTERM);
  if (!process_->wait(std::chrono::seconds(5)))
    process_->signal(SIGKILL);
  process_->wait(std::chrono::seconds(5));
  process_.reset();
}

std::string nats_server::output() const {
  return process_ ? process_->output() : std::string{};
}

} // namespace ganglion::test
