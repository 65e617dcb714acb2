#include "nats_server.hpp"

#include <stdexcept>
#include <utility>

#include "files.hpp"
#include "http_sink.hpp"
#include "server_process.hpp"

namespace ganglion::test {

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
  wait_listening(*process_, port_, "nats-server");
}

void nats_server::stop() {
  stop_process(process_);
}

std::string nats_server::output() const {
  return process_ ? process_->output() : std::string{};
}

} // namespace ganglion::test
