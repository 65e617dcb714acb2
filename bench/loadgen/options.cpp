#include "options.hpp"

#include <cstdio>
#include <map>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace ganglion::loadgen {

namespace {

/// Accepts `10`, `10s`, `500ms`, `2m` for a number of seconds.
CLI::Validator seconds_with_unit() {
  return CLI::AsNumberWithUnit(std::map<std::string, double>{{"ms", 0.001}, {"s", 1}, {"m", 60}},
                               CLI::AsNumberWithUnit::CASE_SENSITIVE, "UNIT");
}

void add_duration(CLI::App& app, const std::string& name, double& value,
                  const std::string& help) {
  app.add_option(name, value, help)
    ->transform(seconds_with_unit())
    ->check(CLI::NonNegativeNumber)
    ->type_name("DURATION")
    ->default_str(fmt::format("{}s", value));
}

} // namespace

std::variant<options, int> parse_command_line(int argc, char** argv) {
  options o;
  CLI::App app{"ganglion-loadgen: drives an HTTP webhook with POSTs over keep-alive connections "
               "and reports throughput and latency percentiles; with --sink it also measures "
               "end-to-end latency to the requests a trigger sends back"};
  app.add_option("--url", o.url, "Webhook URL (http:// only)")->required();
  app.add_option("-c,--connections", o.connections, "Keep-alive connections")
    ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
    ->capture_default_str();
  app.add_option("-t,--threads", o.threads, "io threads, each with its share of the connections")
    ->check(CLI::Range(std::size_t{1}, std::size_t{256}))
    ->capture_default_str();
  add_duration(app, "-d,--duration", o.duration, "Measured time, after the warmup (10s, 500ms, 2m)");
  add_duration(app, "--warmup", o.warmup, "Time sent but not counted, before the measurement");
  app.add_option("-r,--rate", o.rate,
                 "Requests per second over all connections (open loop); 0: closed loop, each "
                 "connection sends as soon as its previous reply arrived")
    ->check(CLI::NonNegativeNumber)
    ->capture_default_str();
  auto* body_file = app.add_option("--body", o.body_file,
                                   "File with the request body; {{seq}} and {{send_ns}} are "
                                   "replaced per request")
                      ->check(CLI::ExistingFile);
  app.add_option("--body-text", o.body_text, "The request body as text (same placeholders)")
    ->excludes(body_file);
  app.add_option("-H,--header", o.headers,
                 "Extra header 'Name: value' (repeatable; Content-Type defaults to "
                 "application/json)");
  app.add_option("--sink", o.sink,
                 "Start the end-to-end sink on HOST:PORT (port 0: any free port); point the "
                 "trigger under test at it");
  app.add_option("--sink-path", o.sink_path,
                 "Path shown in the sink URL (the sink accepts every path)")
    ->capture_default_str();
  add_duration(app, "--drain", o.drain,
               "With --sink: how long to wait for arrivals after sending stopped");
  add_duration(app, "--timeout", o.timeout, "A reply later than this counts as a timeout");
  app.add_option("--json", o.json_file, "Also write the results as JSON to this file");
  app.add_flag("-q,--quiet", o.quiet, "No progress line");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    auto status = app.exit(e);
    return status == 0 ? 0 : 2;
  }
  if (o.threads > o.connections) {
    std::fputs("--threads: at most one thread per connection\n", stderr);
    return 2;
  }
  if (o.timeout <= 0) {
    std::fputs("--timeout: must be positive\n", stderr);
    return 2;
  }
  return o;
}

} // namespace ganglion::loadgen
