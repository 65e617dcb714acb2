// ganglion-loadgen: the command line, wiring the HTTP driver, the schedulers, the sink and the
// report together.

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "body_template.hpp"
#include "http_driver.hpp"
#include "http_target.hpp"
#include "options.hpp"
#include "report.hpp"
#include "runner.hpp"
#include "seq_table.hpp"
#include "sink.hpp"

namespace {

using namespace ganglion::loadgen;

constexpr int exit_failed = 1;
constexpr int exit_usage = 2;

std::string read_body(const options& o) {
  if (o.body_text)
    return *o.body_text;
  if (o.body_file.empty())
    return std::string(default_body());
  std::ifstream in(o.body_file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool write_json(const std::string& path, const run_results& r) {
  std::ofstream out(path);
  out << to_json(r).dump(2) << '\n';
  return static_cast<bool>(out);
}

int run(const options& o) {
  http_target target;
  std::string head;
  try {
    target = parse_http_url(o.url);
    head = request_head(target, o.headers);
  } catch (const target_error& e) {
    fmt::print(stderr, "ganglion-loadgen: {}\n", e.what());
    return exit_usage;
  }
  body_template body(read_body(o));
  http_request_spec spec;
  spec.head = std::move(head);
  spec.body = &body;
  spec.timeout = std::chrono::nanoseconds(static_cast<std::int64_t>(o.timeout * 1e9));
  try {
    spec.endpoint = probe(target);
  } catch (const target_error& e) {
    fmt::print(stderr, "ganglion-loadgen: {}\n", e.what());
    return exit_failed;
  }

  std::unique_ptr<seq_table> table;
  std::unique_ptr<sink> receiver;
  std::string sink_url;
  if (!o.sink.empty()) {
    std::pair<std::string, std::uint16_t> address;
    try {
      address = split_host_port(o.sink);
    } catch (const std::exception& e) {
      fmt::print(stderr, "ganglion-loadgen: --sink {}\n", e.what());
      return exit_usage;
    }
    const auto& [host, port] = address;
    try {
      table = std::make_unique<seq_table>();
      receiver = std::make_unique<sink>(host, port, *table);
      auto shown = host.find(':') == std::string::npos ? host : "[" + host + "]";
      sink_url = fmt::format("http://{}:{}{}", shown, receiver->port(), o.sink_path);
    } catch (const std::exception& e) {
      fmt::print(stderr, "ganglion-loadgen: {}\n", e.what());
      return exit_failed;
    }
    fmt::print(stderr, "sink listening on {}\n", sink_url);
  }

  run_plan plan;
  plan.connections = o.connections;
  plan.threads = o.threads;
  plan.duration_s = o.duration;
  plan.warmup_s = o.warmup;
  plan.rate = o.rate;
  plan.timeout_s = o.timeout;
  plan.progress = !o.quiet;
  auto make_driver = [&spec](boost::asio::io_context& io, std::size_t connections) {
    return std::unique_ptr<driver>(std::make_unique<http_driver>(io, spec, connections));
  };
  auto results = run_load(plan, make_driver, table.get());
  results.url = o.url;
  if (receiver) {
    results.e2e = drain_sink(*receiver, *table, results.requests.ok, o.drain);
    results.e2e->sink_url = sink_url;
  }

  std::fputs(format_table(results).c_str(), stdout);
  std::fflush(stdout);
  if (!o.json_file.empty() && !write_json(o.json_file, results)) {
    fmt::print(stderr, "ganglion-loadgen: cannot write {}\n", o.json_file);
    return exit_failed;
  }
  if (results.all_failed()) {
    fmt::print(stderr, "ganglion-loadgen: every request to {} failed ({} errors)\n",
               target.authority(), results.requests.errors);
    return exit_failed;
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  auto parsed = parse_command_line(argc, argv);
  if (auto* status = std::get_if<int>(&parsed))
    return *status;
  return run(std::get<options>(parsed));
}
