// ganglion-bus-baseline: the raw-client baselines of the bus figures of `make bench`, and the
// load generator that drives ganglion through each bus. Every mode sends --count events of
// --size bytes stamped with their send time and prints one JSON line: events, seconds,
// events_per_s, p50/p90/p99/max_ms (send → receive), missing, duplicates.
//
//   jetstream      --url U   js_PublishAsync (MaxPending 4096) to stream <topic>, a durable
//                            pull consumer (Fetch 512, ack each) on another thread
//   nats-pipeline  --url U   core NATS publish to --in, receive on --out (ganglion between)
//   kafka          --bootstrap B   idempotent producer (acks=all, linger 5 ms) to <topic>, a
//                            consumer assigned at the end on another thread
//   kafka-pipeline --bootstrap B   produce to --in, consume --out (ganglion between)
//
// --window W keeps at most W events sent but not received (pipelines: 4096 unless given).

#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>

#include "bus_probe.hpp"

namespace {

/// The options every mode takes; pipelines also take --in and --out.
void common_options(CLI::App* mode, bus_bench::settings& s, double& idle_s, bool pipeline) {
  mode->add_option("--count", s.count, "events to send")->check(CLI::Range(1, 100'000'000));
  mode->add_option("--size", s.size, "bytes per event body")->check(CLI::Range(32, 1 << 20));
  mode->add_option("--idle-timeout", idle_s, "seconds without progress before giving up");
  mode->add_option("--window", s.window,
                   "events sent but not yet received at most (0: no limit; pipelines: 4096)");
  if (pipeline) {
    mode->add_option("--in", s.in, "subject or topic the generator sends to");
    mode->add_option("--out", s.out, "subject or topic the generator receives on");
  } else {
    mode->add_option("--topic", s.topic, "raw stream (JetStream) or topic (Kafka) name");
  }
}

} // namespace

int main(int argc, char** argv) {
  CLI::App cli{"raw bus clients and ganglion's bus load generator"};
  cli.require_subcommand(1);
  bus_bench::settings s;
  double idle_s = 10;
  auto* js = cli.add_subcommand("jetstream", "raw cnats: async publish + durable pull consumer");
  auto* np = cli.add_subcommand("nats-pipeline", "core NATS to --in, back on --out via ganglion");
  auto* kf = cli.add_subcommand("kafka", "raw librdkafka: produce + consume (assign)");
  auto* kp = cli.add_subcommand("kafka-pipeline", "Kafka to --in, back on --out via ganglion");
  for (auto* mode : {js, np})
    mode->add_option("--url", s.url, "NATS server URL")->required();
  for (auto* mode : {kf, kp})
    mode->add_option("--bootstrap", s.url, "Kafka bootstrap servers")->required();
  common_options(js, s, idle_s, false);
  common_options(np, s, idle_s, true);
  common_options(kf, s, idle_s, false);
  common_options(kp, s, idle_s, true);
  CLI11_PARSE(cli, argc, argv);
  // Pipelines default to a window: core NATS has no back-pressure (an unbounded burst through
  // ganglion is dropped, not measured), and the Kafka mock keeps only 5 MiB per partition.
  for (auto* mode : {np, kp})
    if (mode->parsed() && mode->get_option("--window")->count() == 0)
      s.window = 4096;
  s.idle = std::chrono::milliseconds(static_cast<std::int64_t>(idle_s * 1000));

  try {
    if (js->parsed())
      return bus_bench::run_jetstream(s);
    if (np->parsed())
      return bus_bench::run_nats_pipeline(s);
    if (kf->parsed())
      return bus_bench::run_kafka(s);
    return bus_bench::run_kafka_pipeline(s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ganglion-bus-baseline: %s\n", e.what());
    return 2;
  }
}
