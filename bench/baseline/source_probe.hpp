#pragma once
// What every mode of ganglion-source-baseline shares: its settings, the pace of a publisher, the
// wait of a consumer and its report. Bodies and the tally are bus_probe's.

#include <cstdint>
#include <string>
#include <string_view>

#include "bus_probe.hpp"

namespace source_bench {

/// One run's settings, from the command line.
struct settings {
  std::string address;               ///< host:port (MQTT, Redis) or an amqp:// URL
  std::string name = "bench";        ///< MQTT topic, AMQP queue, Redis channel or stream
  std::string exchange = "bench";    ///< AMQP: the fanout exchange bound to the queue
  std::string routing_key = "hello"; ///< AMQP: the routing key of the binding and publishes
  std::int64_t count = 100000;       ///< messages
  std::size_t size = 256;            ///< bytes per message body
  double rate = 0;                   ///< publishers: messages/s (0: as fast as the client goes)
  int prefetch = 256;                ///< AMQP consumer: basic.qos prefetch
  int batch = 10;                    ///< Redis stream consumer: XREADGROUP COUNT
  double first_s = 30;               ///< consumers: how long the first message may take
  double idle_s = 3;                 ///< consumers: give up when nothing arrived for this long
};

/// host and port of "host:port".
struct host_port {
  std::string host;
  int port;
};

/// Splits "host:port"; throws on a malformed one.
host_port split_address(const std::string& address);

/// Keeps a publisher at `rate` messages/s: sleeps until message `i` is due (no-op at rate 0).
class pace {
public:
  explicit pace(double rate);
  /// Waits until message i (from 0) is due.
  void wait(std::int64_t i) const;

private:
  double rate_;
  std::int64_t start_ns_;
};

/// Counts one received payload; the first one starts the measured window (first → last).
void arrived(bus_bench::tally& t, bool& started, std::string_view payload);

/// Prints `ready` on stdout (the runner waits for it before it publishes or times a drain).
void say_ready();

/// Waits for the first message (s.first_s), then until all came or none for s.idle_s; prints
/// the tally's JSON line with `mode`. Returns the exit code: 0 all came, 1 some are missing.
int finish(bus_bench::tally& t, const settings& s, const char* mode);

/// Prints a publisher's JSON line (sent, seconds, events_per_s) for `mode`.
void publisher_report(const char* mode, std::int64_t sent, std::int64_t start_ns);

/// MQTT: publish s.count messages (QoS 0) to topic s.name at s.rate.
int mqtt_publish(const settings& s);
/// MQTT: subscribe to s.name (QoS 0, libmosquitto's own loop thread) and count.
int mqtt_consume(const settings& s);
/// AMQP: declare exchange, queue and binding, publish s.count messages, wait until queued.
int amqp_load(const settings& s);
/// AMQP: basic.consume s.name with manual acks and prefetch s.prefetch, ack each, count.
int amqp_consume(const settings& s);
/// Redis Pub/Sub: PUBLISH s.count messages to channel s.name at s.rate (pipelined).
int redis_publish(const settings& s);
/// Redis Pub/Sub: SUBSCRIBE s.name and count.
int redis_consume(const settings& s);
/// Redis stream: create Argo's consumer group on s.name, then XADD s.count entries.
int stream_load(const settings& s);
/// Redis stream: XREADGROUP COUNT s.batch + XACK in Argo's group and consumer, count.
int stream_consume(const settings& s);

} // namespace source_bench
