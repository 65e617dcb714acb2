// The mqtt source through the ganglion binary: a manifest shaped like Argo's corpus example
// (tests/conformance/argo-events/examples/event-sources/mqtt.yaml) pointed at a mosquitto
// broker on loopback, and a sensor whose http trigger receives each message's body.

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "mosquitto_server.hpp"
#include "mqtt_publisher.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

std::string mqtt_manifests(const std::string& url, const std::string& sink) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: mqtt
spec:
  mqtt:
    example:
      url: {url}
      topic: bar
      jsonBody: true
      clientId: "2345"
      connectionBackoff:
        duration: 10s
        steps: 5
        factor: 2
        jitter: 0.2
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: mqtt
spec:
  dependencies:
    - name: reading
      eventSourceName: mqtt
      eventName: example
  triggers:
    - template:
        name: forward
        http:
          url: {sink}
          method: POST
          payload:
            - src: {{dependencyName: reading, dataKey: body.celsius}}
              dest: celsius
            - src: {{dependencyName: reading, dataKey: topic}}
              dest: topic
)",
                     fmt::arg("url", url), fmt::arg("sink", sink));
}

TEST(e2e_mqtt, a_published_message_fires_the_sensor_with_argo_event_data) {
  test::mosquitto_server broker;
  test::http_sink sink;
  // Ready once the source is subscribed (it is Pending until then).
  e2e::engine_process engine{mqtt_manifests(broker.url(), sink.url("/readings"))};
  test::mqtt_publisher client{broker.port()};
  ASSERT_TRUE(client.publish("bar", R"({"celsius": 21.5})"));
  ASSERT_TRUE(sink.wait_for(1, 15s)) << engine.output();
  auto body = nlohmann::json::parse(sink.requests().at(0).body);
  EXPECT_EQ(body["celsius"], "21.5"); // payload values are strings, as in Argo
  EXPECT_EQ(body["topic"], "bar");
  EXPECT_TRUE(engine.wait_metric(
    R"(ganglion_events_accepted_total{eventsource="mqtt",event="example"} 1)"))
    << engine.metrics();
}

} // namespace
