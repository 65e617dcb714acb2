#include "rabbitmq_server.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "files.hpp"
#include "http_sink.hpp"
#include "server_process.hpp"

namespace ganglion::test {

namespace {

std::string random_suffix() {
  std::mt19937_64 random{std::random_device{}()};
  return std::to_string(random() % 1000000000);
}

} // namespace

rabbitmq_server::rabbitmq_server(rabbitmq_server_options options)
  : port_(free_port()), dist_port_(free_port()), epmd_port_(free_port()), dir_(temp_dir()),
    node_("ganglion-" + random_suffix() + "@localhost") {
  write_file(dir_ + "/enabled_plugins", "");
  std::string config = "log.console = true\nlog.file = false\n";
  if (!options.tls_key_file.empty()) {
    tls_port_ = free_port();
    config += "listeners.ssl.default = 127.0.0.1:" + std::to_string(tls_port_) + "\n"
              + "ssl_options.certfile = " + options.tls_cert_file + "\n"
              + "ssl_options.keyfile = " + options.tls_key_file + "\n"
              + "ssl_options.verify = verify_none\nssl_options.fail_if_no_peer_cert = false\n";
  }
  write_file(dir_ + "/rabbitmq.conf", config);
  start();
}

rabbitmq_server::~rabbitmq_server() {
  kill();
  epmd_.reset(); // SIGKILL and reaped
}

std::string rabbitmq_server::url() const {
  return "amqp://guest:guest@127.0.0.1:" + std::to_string(port_) + "/";
}

void rabbitmq_server::start() {
  if (!epmd_ || !epmd_->running()) {
    // The broker's epmd, in the foreground as a child of the test (the broker would otherwise
    // start one as a daemon that outlives it).
    epmd_ = std::make_unique<child_process>(
      std::vector<std::string>{"epmd", "-port", std::to_string(epmd_port_), "-address",
                               "127.0.0.1"});
    wait_until_accepting(*epmd_, {epmd_port_}, "epmd", std::chrono::seconds(10));
  }
  std::vector<std::pair<std::string, std::string>> env{
    {"HOME", dir_},
    {"RABBITMQ_NODENAME", node_},
    {"RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1"},
    {"RABBITMQ_NODE_PORT", std::to_string(port_)},
    {"RABBITMQ_DIST_PORT", std::to_string(dist_port_)},
    {"ERL_EPMD_PORT", std::to_string(epmd_port_)},
    {"ERL_EPMD_ADDRESS", "127.0.0.1"},
    {"RABBITMQ_MNESIA_BASE", dir_ + "/mnesia"},
    {"RABBITMQ_LOG_BASE", dir_ + "/log"},
    {"RABBITMQ_CONFIG_FILE", dir_ + "/rabbitmq"},
    {"RABBITMQ_ENABLED_PLUGINS_FILE", dir_ + "/enabled_plugins"},
    {"RABBITMQ_PLUGINS_EXPAND_DIR", dir_ + "/plugins-expand"},
    {"RABBITMQ_CONF_ENV_FILE", dir_ + "/rabbitmq-env.conf"},
    // The start script then execs the VM (one process to signal) instead of waiting on it.
    {"RABBITMQ_ALLOW_INPUT", "1"},
    {"RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS", "-noinput"},
  };
  broker_ = std::make_unique<child_process>(
    std::vector<std::string>{"/usr/lib/rabbitmq/bin/rabbitmq-server"}, std::move(env));
  std::vector<std::uint16_t> ports{port_};
  if (tls_port_ != 0)
    ports.push_back(tls_port_);
  wait_until_accepting(*broker_, ports, "rabbitmq-server", std::chrono::seconds(60));
}

void rabbitmq_server::stop() {
  if (!broker_)
    return;
  broker_->signal(SIGTERM);
  if (!broker_->wait(std::chrono::seconds(20)))
    broker_->signal(SIGKILL);
  broker_->wait(std::chrono::seconds(5));
  broker_.reset();
}

void rabbitmq_server::kill() {
  if (!broker_)
    return;
  broker_->signal(SIGKILL);
  broker_->wait(std::chrono::seconds(5));
  broker_.reset();
}

std::string rabbitmq_server::output() const {
  return broker_ ? broker_->output() : std::string{};
}

} // namespace ganglion::test
