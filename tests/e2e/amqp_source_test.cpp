// The amqp source end to end through the ganglion binary: Argo's corpus example (pointed at a
// RabbitMQ broker of the test's, its user from --secrets-dir) → embedded bus → sensor → HTTP
// trigger → a real HTTP sink.

#include <nlohmann/json.hpp>

#include "amqp_client.hpp"
#include "engine_process.hpp"
#include "rabbitmq_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

std::string manifests(std::uint16_t port, const std::string& sink) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: amqp
spec:
  amqp:
    example:
      url: amqp://127.0.0.1:{port}
      jsonBody: true
      exchangeName: test
      exchangeType: fanout
      routingKey: hello
      connectionBackoff:
        duration: 1s
        steps: 5
        factor: 2
        jitter: 0.2
      exchangeDeclare:
        durable: true
        autoDelete: false
        internal: false
        noWait: false
      queueDeclare:
        name: "my-queue-name"
        durable: false
        autoDelete: false
        exclusive: true
        noWait: false
      queueBind:
        noWait: false
      consume:
        consumerTag: "my-consumer-tag"
        exclusive: false
        noLocal: false
        noWait: false
      auth:
        username:
          name: my-secret
          key: username
        password:
          name: my-secret
          key: password
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: forward
spec:
  dependencies:
    - name: msg
      eventSourceName: amqp
      eventName: example
  triggers:
    - template:
        name: to-sink
        http:
          url: {sink}
          method: POST
          payload:
            - src: {{dependencyName: msg, dataKey: body.n}}
              dest: n
            - src: {{dependencyName: msg, dataKey: messageId}}
              dest: id
            - src: {{dependencyName: msg, dataKey: routingKey}}
              dest: key
)",
                     fmt::arg("port", port), fmt::arg("sink", sink));
}

TEST(e2e_amqp_source, a_published_message_fires_the_trigger_with_argos_event_data) {
  test::rabbitmq_server broker;
  test::http_sink sink;
  auto secrets = test::temp_dir();
  test::write_file(secrets + "/my-secret/username", "guest\n");
  test::write_file(secrets + "/my-secret/password", "guest\n");
  e2e::engine_process engine{manifests(broker.port(), sink.url("/hook")), secrets};
  test::amqp_client client{broker.port()};
  test::message_properties p;
  p.message_id = "order-7";
  client.publish("test", "hello", R"({"n": 7})", p);
  ASSERT_TRUE(sink.wait_for(1, 15s)) << engine.output();
  auto body = nlohmann::json::parse(sink.requests()[0].body);
  EXPECT_EQ(body["n"], "7") << body; // a dataKey payload value is a string, as in Argo
  EXPECT_EQ(body["id"], "order-7") << body;
  EXPECT_EQ(body["key"], "hello") << body;
  EXPECT_TRUE(engine.wait_metric(
    R"(ganglion_events_accepted_total{eventsource="amqp",event="example"} 1)"))
    << engine.metrics();
}

} // namespace
