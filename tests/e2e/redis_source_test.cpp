// The redis and redisStream sources through the ganglion binary, on manifests shaped like
// Argo's corpus examples (event-sources/redis.yaml, redis-streams.yaml) pointed at a local
// redis-server: a PUBLISH and an XADD each fire an HTTP trigger with Argo's event data.

#include "engine_process.hpp"
#include "redis_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// Runs `redis-cli -p <port> args...`; its output.
std::string redis_cli(const test::redis_server& server, std::vector<std::string> args) {
  std::vector<std::string> argv{"/usr/bin/redis-cli", "-p", std::to_string(server.port())};
  argv.insert(argv.end(), args.begin(), args.end());
  test::child_process cli{argv};
  cli.wait(10s);
  return cli.output();
}

std::string manifests(const std::string& address, const std::string& sink) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: redis
spec:
  redis:
    example:
      hostAddress: {address}
      db: 0
      channels:
        - FOO
  redisStream:
    stream:
      hostAddress: {address}
      db: 0
      streams:
        - FOO-S
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: redis-sensor
spec:
  dependencies:
    - name: pubsub
      eventSourceName: redis
      eventName: example
    - name: stream
      eventSourceName: redis
      eventName: stream
  triggers:
    - template:
        name: on-message
        conditions: pubsub
        http:
          url: {sink}
          method: POST
          payload:
            - src: {{dependencyName: pubsub, dataKey: body}}
              dest: body
            - src: {{dependencyName: pubsub, dataKey: channel}}
              dest: channel
    - template:
        name: on-entry
        conditions: stream
        http:
          url: {sink}
          method: POST
          payload:
            - src: {{dependencyName: stream, dataKey: values.n}}
              dest: n
            - src: {{dependencyName: stream, dataKey: stream}}
              dest: stream
)",
                     fmt::arg("address", address), fmt::arg("sink", sink));
}

} // namespace

TEST(e2e_redis, a_publish_and_an_xadd_fire_their_triggers) {
  test::redis_server server;
  redis_cli(server, {"XADD", "FOO-S", "*", "seed", "0"}); // Argo's group needs the stream
  test::http_sink sink;
  e2e::engine_process engine{manifests(server.address(), sink.url("/r"))};
  EXPECT_NE(redis_cli(server, {"PUBLISH", "FOO", "hello"}).find("1"), std::string::npos)
    << engine.output();
  redis_cli(server, {"XADD", "FOO-S", "*", "n", "7"});
  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  std::set<std::string> bodies;
  for (const auto& r : sink.requests())
    bodies.insert(r.body);
  EXPECT_EQ(bodies, (std::set<std::string>{R"({"body":"hello","channel":"FOO"})",
                                           R"({"n":"7","stream":"FOO-S"})"}));
}
