// ganglion-source-baseline: the raw-client baselines of the mqtt, amqp, redis and redisStream
// source figures of `make bench`, and the publishers and loaders that feed the same messages to
// ganglion. A consumer prints `ready` once it consumes, then one JSON line: events, seconds and
// events_per_s from its first message to its last, missing, duplicates. A publisher or loader
// prints one JSON line: sent, seconds, events_per_s.
//
//   mqtt-publish       --address H:P   QoS 0 publishes to --name at --rate (libmosquitto)
//   mqtt               --address H:P   subscribe to --name, QoS 0
//   amqp-load          --address URL   exchange.declare (fanout) + queue.declare + queue.bind,
//                                      --count publishes, waits until the queue holds them
//   amqp               --address URL   basic.consume --name, manual acks, prefetch 256
//   redis-publish      --address H:P   pipelined PUBLISH to channel --name at --rate (hiredis)
//   redis              --address H:P   SUBSCRIBE --name
//   redis-stream-load  --address H:P   XGROUP CREATE argo-events-cg 0 MKSTREAM, pipelined XADD
//   redis-stream       --address H:P   XREADGROUP COUNT 10 + XACK as argo-events-worker

#include <csignal>
#include <cstdio>
#include <exception>
#include <vector>

#include <CLI/CLI.hpp>

#include "source_probe.hpp"

namespace {

/// The options of every mode; publishers also take --rate, consumers the timeouts.
void common_options(CLI::App* mode, source_bench::settings& s, bool consumer) {
  mode->add_option("--address", s.address, "host:port, or the amqp:// URL")->required();
  mode->add_option("--name", s.name, "topic, queue, channel or stream");
  mode->add_option("--count", s.count, "messages")->check(CLI::Range(1, 100'000'000));
  mode->add_option("--size", s.size, "bytes per message body")->check(CLI::Range(64, 1 << 20));
  if (consumer) {
    mode->add_option("--first-timeout", s.first_s, "seconds the first message may take");
    mode->add_option("--idle-timeout", s.idle_s, "seconds without a message before giving up");
  } else {
    mode->add_option("--rate", s.rate, "messages/s (0: as fast as the client goes)");
  }
}

/// One mode: its subcommand name, help, function and whether it consumes.
struct mode {
  const char* name;
  const char* help;
  int (*run)(const source_bench::settings&);
  bool consumer;
};

constexpr mode modes[] = {
  {"mqtt-publish", "libmosquitto QoS 0 publisher", source_bench::mqtt_publish, false},
  {"mqtt", "libmosquitto subscriber (QoS 0)", source_bench::mqtt_consume, true},
  {"amqp-load", "librabbitmq: fill a queue", source_bench::amqp_load, false},
  {"amqp", "librabbitmq consumer, manual acks", source_bench::amqp_consume, true},
  {"redis-publish", "hiredis PUBLISH loop", source_bench::redis_publish, false},
  {"redis", "hiredis SUBSCRIBE reader", source_bench::redis_consume, true},
  {"redis-stream-load", "hiredis XADD loader", source_bench::stream_load, false},
  {"redis-stream", "hiredis XREADGROUP + XACK reader", source_bench::stream_consume, true},
};

} // namespace

int main(int argc, char** argv) {
  // A consumer's socket is shut down to wake its reader once the count is reached; a reader
  // still sending its last XACK then gets EPIPE, not a signal that kills the report's exit.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App cli{"raw MQTT, AMQP and Redis consumers, and the publishers that feed them or ganglion"};
  cli.require_subcommand(1);
  source_bench::settings s;
  std::vector<CLI::App*> apps;
  for (const auto& m : modes) {
    apps.push_back(cli.add_subcommand(m.name, m.help));
    common_options(apps.back(), s, m.consumer);
  }
  apps[2]->add_option("--exchange", s.exchange, "the fanout exchange bound to the queue");
  apps[2]->add_option("--routing-key", s.routing_key, "binding and publish routing key");
  apps[3]->add_option("--prefetch", s.prefetch, "basic.qos prefetch (ganglion's: 256)");
  apps[7]->add_option("--batch", s.batch, "XREADGROUP COUNT (Argo's default: 10)");
  CLI11_PARSE(cli, argc, argv);
  try {
    for (std::size_t i = 0; i < apps.size(); ++i)
      if (apps[i]->parsed())
        return modes[i].run(s);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ganglion-source-baseline: %s\n", e.what());
    return 2;
  }
}
