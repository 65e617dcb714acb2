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

#include <cstdio>
#include <exception>
#include <functional>
#include <utility>
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

} // namespace

int main(int argc, char** argv) {
  CLI::App cli{"raw MQTT, AMQP and Redis consumers, and the publishers that feed them or ganglion"};
  cli.require_subcommand(1);
  source_bench::settings s;
  using run = int (*)(const source_bench::settings&);
  std::vector<std::pair<CLI::App*, run>> modes{
    {cli.add_subcommand("mqtt-publish", "libmosquitto QoS 0 publisher"),
     source_bench::mqtt_publish},
    {cli.add_subcommand("mqtt", "libmosquitto subscriber (QoS 0)"), source_bench::mqtt_consume},
    {cli.add_subcommand("amqp-load", "librabbitmq: fill a queue"), source_bench::amqp_load},
    {cli.add_subcommand("amqp", "librabbitmq consumer, manual acks"), source_bench::amqp_consume},
    {cli.add_subcommand("redis-publish", "hiredis PUBLISH loop"), source_bench::redis_publish},
    {cli.add_subcommand("redis", "hiredis SUBSCRIBE reader"), source_bench::redis_consume},
    {cli.add_subcommand("redis-stream-load", "hiredis XADD loader"), source_bench::stream_load},
    {cli.add_subcommand("redis-stream", "hiredis XREADGROUP + XACK reader"),
     source_bench::stream_consume},
  };
  for (auto& [mode, _] : modes) {
    bool consumer = mode->get_name().find('-') == std::string::npos
                    || mode->get_name() == "redis-stream";
    common_options(mode, s, consumer);
  }
  modes[2].first->add_option("--exchange", s.exchange, "the fanout exchange bound to the queue");
  modes[2].first->add_option("--routing-key", s.routing_key, "binding and publish routing key");
  modes[3].first->add_option("--prefetch", s.prefetch, "basic.qos prefetch (ganglion's: 256)");
  modes[7].first->add_option("--batch", s.batch, "XREADGROUP COUNT (Argo's default: 10)");
  CLI11_PARSE(cli, argc, argv);
  try {
    for (auto& [mode, function] : modes)
      if (mode->parsed())
        return function(s);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ganglion-source-baseline: %s\n", e.what());
    return 2;
  }
}
