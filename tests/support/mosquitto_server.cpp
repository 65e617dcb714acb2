#include "mosquitto_server.hpp"

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

mosquitto_server::mosquitto_server() : mosquitto_server(mosquitto_server_options{}) {}

mosquitto_server::mosquitto_server(mosquitto_server_options options)
  : options_(std::move(options)), port_(free_port()), dir_(temp_dir()) {
  std::string config = "listener " + std::to_string(port_) + " 127.0.0.1\n"
                       "persistence true\npersistence_location " + dir_ + "/data/\n"
                       "log_dest stdout\nlog_type error\nlog_type warning\nlog_type notice\n"
                       "log_type information\n"
                       // As root, mosquitto drops to user `mosquitto`, who cannot write dir_.
                       + (::geteuid() == 0 ? "user root\n" : "");
  write_file(dir_ + "/data/.keep", "");
  if (!options_.user.empty()) {
    write_file(dir_ + "/passwd", "");
    child_process passwd{{"/usr/bin/mosquitto_passwd", "-b", dir_ + "/passwd", options_.user,
                          options_.password}};
    auto code = passwd.wait(std::chrono::seconds(30));
    if (!code || *code != 0)
      throw std::runtime_error("mosquitto_passwd failed: " + passwd.output());
    config += "allow_anonymous false\npassword_file " + dir_ + "/passwd\n";
  } else {
    config += "allow_anonymous true\n";
  }
  if (!options_.cert_file.empty())
    config += "certfile " + options_.cert_file + "\nkeyfile " + options_.key_file + "\n";
  config += options_.extra_config;
  write_file(dir_ + "/mosquitto.conf", config);
  start();
}

mosquitto_server::~mosquitto_server() {
  stop();
}

std::string mosquitto_server::url() const {
  return (options_.cert_file.empty() ? "tcp://127.0.0.1:" : "ssl://127.0.0.1:")
         + std::to_string(port_);
}

void mosquitto_server::start() {
  process_ = std::make_unique<child_process>(
    std::vector<std::string>{"/usr/sbin/mosquitto", "-c", dir_ + "/mosquitto.conf"});
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (!accepts(port_)) {
    if (!process_->running())
      throw std::runtime_error("mosquitto exited at start: " + process_->output());
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("mosquitto did not listen within 15 s: " + process_->output());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void mosquitto_server::stop() {
  if (!process_)
    return;
  process_->signal(SIGTERM);
  if (!process_->wait(std::chrono::seconds(5)))
    process_->signal(SIGKILL);
  process_->wait(std::chrono::seconds(5));
  process_.reset();
}

std::string mosquitto_server::output() const {
  return process_ ? process_->output() : std::string{};
}

} // namespace ganglion::test
