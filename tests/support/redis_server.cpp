#include "redis_server.hpp"

#include <utility>

#include "files.hpp"
#include "http_sink.hpp"
#include "server_process.hpp"

namespace ganglion::test {

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
  wait_until_accepting(*process_, port_, "redis-server");
}

void redis_server::stop() {
  stop_server_process(process_);
}

std::string redis_server::output() const {
  return process_ ? process_->output() : std::string{};
}

} // namespace ganglion::test
