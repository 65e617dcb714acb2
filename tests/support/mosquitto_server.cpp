#include "mosquitto_server.hpp"

#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <utility>

#include "files.hpp"
#include "http_sink.hpp"
#include "server_process.hpp"

namespace ganglion::test {

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
  wait_until_accepting(*process_, port_, "mosquitto");
}

void mosquitto_server::stop() {
  stop_server_process(process_);
}

std::string mosquitto_server::output() const {
  return process_ ? process_->output() : std::string{};
}

} // namespace ganglion::test
