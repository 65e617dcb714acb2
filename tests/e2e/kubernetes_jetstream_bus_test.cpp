// Cluster mode on Argo's managed JetStream EventBus (`spec.jetstream`, deployed by Argo's
// controller): ganglion connects where the EventBus's status says the server is, logs in with
// the client-auth Secret Argo wrote and verifies the server against the CA of Argo's server
// Secret, all read from the EventBus's namespace; the EventSource's event fires the Sensor
// through that server. A server the CA did not sign, and a bus without a status (its Service
// name does not resolve here), stop `run` with the reason.

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "http_sink.hpp"
#include "kube/api_server.hpp"
#include "kube/text.hpp"
#include "nats_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

/// A self-signed certificate for 127.0.0.1 in `dir`: cert.pem and key.pem.
void make_certificate(const std::string& dir) {
  test::write_file(dir + "/.keep", "");
  test::child_process openssl{{"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                               "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem", "-days", "1",
                               "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"}};
  auto code = openssl.wait(30s);
  ASSERT_TRUE(code.has_value());
  ASSERT_EQ(*code, 0) << openssl.output();
}

json secret(const std::string& name, const std::string& key, const std::string& value) {
  return {{"apiVersion", "v1"},
          {"kind", "Secret"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"data", {{key, test::kube::base64_encode(value)}}}};
}

/// EventBus `default` as Argo's controller leaves it: `spec.jetstream`, and `status.config`
/// naming the server `url` when given.
json managed_bus(const std::string& url) {
  json bus{{"apiVersion", "argoproj.io/v1alpha1"},
           {"kind", "EventBus"},
           {"metadata", {{"name", "default"}, {"namespace", "default"}}},
           {"spec", {{"jetstream", {{"version", "latest"}}}}}};
  if (!url.empty())
    bus["status"] = {
      {"config",
       {{"jetstream",
         {{"url", url},
          {"accessSecret", {{"name", "eventbus-default-js-client-auth"}, {"key", "client-auth"}}},
          {"streamConfig", "maxMsgs: 1000"}}}}}};
  return bus;
}

json event_source(std::uint16_t port) {
  return {{"apiVersion", "argoproj.io/v1alpha1"},
          {"kind", "EventSource"},
          {"metadata", {{"name", "hooks"}, {"namespace", "default"}}},
          {"spec",
           {{"webhook",
             {{"example",
               {{"port", std::to_string(port)}, {"endpoint", "/example"}, {"method", "POST"}}}}}}}};
}

json sensor(const std::string& url) {
  json trigger{{"template", {{"name", "t"}, {"http", {{"url", url}, {"method", "POST"}}}}}};
  return {
    {"apiVersion", "argoproj.io/v1alpha1"},
    {"kind", "Sensor"},
    {"metadata", {{"name", "s"}, {"namespace", "default"}}},
    {"spec",
     {{"dependencies",
       json::array({{{"name", "d"}, {"eventSourceName", "hooks"}, {"eventName", "example"}}})},
      {"triggers", json::array({trigger})}}}};
}

/// A JetStream server as Argo's controller runs one: TLS with `tls_dir`'s certificate, and
/// the user and password of its client-auth Secret.
std::unique_ptr<test::nats_server> argo_server(const std::string& tls_dir) {
  test::nats_server_options options;
  options.user = "argo";
  options.password = "s3cret";
  options.extra_args = {"--tls", "--tlscert", tls_dir + "/cert.pem", "--tlskey",
                        tls_dir + "/key.pem"};
  return std::make_unique<test::nats_server>(options);
}

/// The Secrets Argo's controller writes beside the bus; the CA is `ca_dir`'s certificate.
void put_argo_secrets(test::kube::api_server& server, const std::string& ca_dir) {
  server.put(
    secret("eventbus-default-js-client-auth", "client-auth", "username: argo\npassword: s3cret"));
  server.put(
    secret("eventbus-default-js-server", "ca-cert", test::read_file(ca_dir + "/cert.pem")));
}

std::string kubeconfig(const test::kube::api_server& server) {
  auto path = test::temp_dir() + "/kubeconfig";
  test::write_file(path, server.kubeconfig());
  return path;
}

} // namespace

TEST(e2e_kubernetes_jetstream_bus, the_managed_bus_is_reached_with_argos_secrets_and_ca) {
  auto tls = test::temp_dir();
  make_certificate(tls);
  auto nats = argo_server(tls);
  test::kube::api_server server;
  test::http_sink sink;
  auto port = test::free_port();
  put_argo_secrets(server, tls);
  server.put(managed_bus(nats->url()));
  server.put(event_source(port));
  server.put(sensor(sink.url("/fired")));
  e2e::engine_options options;
  options.manifest_file = false;
  options.extra_args = {"--from-cluster", "--kubeconfig", kubeconfig(server)};
  e2e::engine_process engine{"", options};

  ASSERT_EQ(e2e::post(port, "example", R"({"msg":"a"})").status, 200) << engine.output();
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  auto output = engine.output();
  EXPECT_NE(output.find("EventBus default/default: NATS JetStream that Argo's controller "
                        "deployed, at "
                        + nats->url()
                        + " (Secret eventbus-default-js-client-auth key client-auth, TLS "
                          "verified with Secret eventbus-default-js-server key ca-cert)"),
            std::string::npos)
    << output;
  EXPECT_NE(output.find("JetStream bus at " + nats->url()), std::string::npos) << output;
  EXPECT_EQ(output.find("embedded bus"), std::string::npos) << output;
  engine.stop();
}

TEST(e2e_kubernetes_jetstream_bus, a_server_argos_ca_did_not_sign_or_no_status_stops_run) {
  auto tls = test::temp_dir();
  auto other = test::temp_dir();
  make_certificate(tls);
  make_certificate(other);
  auto nats = argo_server(tls);
  test::kube::api_server server;
  put_argo_secrets(server, other);
  server.put(managed_bus(nats->url()));
  server.put(event_source(test::free_port()));
  auto config = kubeconfig(server);
  auto run = [&] {
    test::child_process p{{GANGLION_BINARY, "run", "--from-cluster", "--kubeconfig", config,
                           "--data-dir", test::temp_dir() + "/data"}};
    auto code = p.wait(60s);
    EXPECT_EQ(code, 1) << p.output();
    return p.output();
  };
  auto unsigned_server = run();
  EXPECT_NE(unsigned_server.find("cannot open the EventBus: EventBus default/default: the "
                                 "JetStream server Argo's controller deployed (--bus-url names "
                                 "another): "),
            std::string::npos)
    << unsigned_server;

  server.put(managed_bus(""));
  auto no_status = run();
  EXPECT_NE(no_status.find("at nats://eventbus-default-js-svc.default.svc:4222 (Secret "
                           "eventbus-default-js-client-auth key client-auth"),
            std::string::npos)
    << no_status;
  EXPECT_NE(no_status.find("cannot open the EventBus: EventBus default/default: the JetStream "
                           "server Argo's controller deployed"),
            std::string::npos)
    << no_status;
}
