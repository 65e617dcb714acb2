// The signal kit's Python signal service (examples/signals/python) behind a generic event
// source, driven through the binary: Argo's event data, the bearer token, TLS.

#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "eventually.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// examples/signals/python/signal_service.py, started with run.sh on a free port.
class python_signal_service {
public:
  /// Starts the service with `--listen 127.0.0.1:0` and `flags`; waits for `listening on`.
  explicit python_signal_service(const std::vector<std::string>& flags) {
    std::vector<std::string> argv{GANGLION_SOURCE_DIR "/examples/signals/python/run.sh",
                                  "signal_service.py", "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    process_ = std::make_unique<test::child_process>(
      argv, std::vector<std::pair<std::string, std::string>>{{"GANGLION_SIGNALS_STUBS", stubs()}});
    std::string line;
    test::eventually(
      [&] {
        line = listening_line();
        return !line.empty() || !process_->running();
      },
      30s);
    if (line.empty()) {
      ADD_FAILURE() << "signal_service.py printed no `listening on` line:\n" << output();
      return;
    }
    port_ = static_cast<std::uint16_t>(std::stoi(line.substr(line.rfind(':') + 1)));
  }

  /// Stops the service with SIGTERM when it still runs.
  ~python_signal_service() {
    if (process_->running()) {
      process_->signal(SIGTERM);
      process_->wait(10s);
    }
  }

  /// Stops the service with SIGTERM; it must exit with 0.
  void stop() {
    process_->signal(SIGTERM);
    EXPECT_EQ(process_->wait(10s), 0) << output();
  }

  /// The port it listens on (0 when it did not start).
  std::uint16_t port() const { return port_; }

  /// What it wrote to stdout and stderr.
  std::string output() const { return process_->output(); }

private:
  /// The generated Python stubs, shared by the services of this test process.
  static std::string stubs() {
    static const std::string dir = test::temp_dir() + "/stubs";
    return dir;
  }

  /// The complete `listening on HOST:PORT` line, "" until it was written.
  std::string listening_line() const {
    auto out = output();
    auto at = out.find("listening on ");
    auto end = at == std::string::npos ? at : out.find('\n', at);
    return end == std::string::npos ? "" : out.substr(at, end - at);
  }

  std::unique_ptr<test::child_process> process_;
  std::uint16_t port_ = 0;
};

/// A generic EventSource `signals` whose events are the (name, YAML fields) pairs in `events`.
std::string generic_source(const std::vector<std::pair<std::string, std::string>>& events) {
  std::string out = R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: signals
spec:
  generic:
)";
  for (const auto& [name, fields] : events)
    out += fmt::format("    {}:\n{}", name, fields);
  return out;
}

/// The fields of a generic event served at `url`; `extra` is more YAML lines.
std::string generic_fields(const std::string& url, const std::string& extra = {}) {
  return fmt::format("      url: {}\n      config: \"key: value\"\n{}", url, extra);
}

/// A Sensor `name` on signals/<event> whose http trigger posts to `url` the event's body, its
/// CloudEvent type and subject, and its metadata when `with_metadata` (Argo leaves out an empty
/// one: the parameter would not resolve).
std::string sink_sensor(const std::string& name, const std::string& event, const std::string& url,
                        bool with_metadata = false) {
  std::string metadata = R"(            - src:
                dependencyName: d
                dataKey: metadata
                useRawData: true
              dest: metadata
)";
  return fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: {}
spec:
  dependencies:
    - name: d
      eventSourceName: signals
      eventName: {}
  triggers:
    - template:
        name: to-sink
        http:
          url: {}
          payload:
            - src:
                dependencyName: d
                dataKey: body
                useRawData: true
              dest: body
            - src:
                dependencyName: d
                contextKey: type
              dest: type
            - src:
                dependencyName: d
                contextKey: subject
              dest: subject
{})",
                     name, event, url, with_metadata ? metadata : "");
}

/// The JSON bodies the sink received.
std::vector<nlohmann::json> bodies(const test::http_sink& sink) {
  std::vector<nlohmann::json> out;
  for (const auto& r : sink.requests())
    out.push_back(nlohmann::json::parse(r.body, nullptr, false));
  return out;
}

/// The `/v1/status` component of source signals/<event>; null when absent.
nlohmann::json source_status(const e2e::engine_process& engine, const std::string& event) {
  auto status = nlohmann::json::parse(engine.status(), nullptr, false);
  if (status.is_discarded() || !status.contains("components"))
    return nullptr;
  for (const auto& c : status["components"])
    if (c.value("kind", "") == "source" && c.value("name", "") == "signals/" + event)
      return c;
  return nullptr;
}

/// Standard base64 of `bytes` (how Argo's event data carries a body without jsonBody).
std::string base64(const std::string& bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t n = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size())
      n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size())
      n |= static_cast<unsigned char>(bytes[i + 2]);
    out += digits[(n >> 18) & 63];
    out += digits[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? digits[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? digits[n & 63] : '=';
  }
  return out;
}

} // namespace

TEST(e2e_signals_python, events_arrive_with_argos_data_layout) {
  python_signal_service service{{"--interval-ms", "50", "--count", "3"}};
  ASSERT_NE(service.port(), 0);
  auto url = fmt::format("127.0.0.1:{}", service.port());
  test::http_sink sink;
  e2e::engine_process engine{
    generic_source({{"example", generic_fields(url, "      insecure: true\n      jsonBody: true\n"
                                                    "      metadata:\n        origin: e2e\n")},
                    {"raw", generic_fields(url, "      insecure: true\n")}})
    + sink_sensor("json", "example", sink.url("/json"), true)
    + sink_sensor("raw", "raw", sink.url("/raw"))};
  ASSERT_TRUE(sink.wait_for(6, 20s)) << engine.output() << service.output();

  std::set<int> json_seqs;
  std::set<std::string> raw_bodies;
  for (const auto& r : sink.requests()) {
    auto body = nlohmann::json::parse(r.body, nullptr, false);
    ASSERT_FALSE(body.is_discarded()) << r.body;
    EXPECT_EQ(body.value("type", ""), "generic") << r.body;
    if (r.target == "/json") {
      // jsonBody: the payload is the body, as JSON; metadata passes through.
      EXPECT_EQ(body.value("subject", ""), "example") << r.body;
      EXPECT_EQ(body["metadata"], nlohmann::json({{"origin", "e2e"}})) << r.body;
      const auto& payload = body["body"];
      ASSERT_TRUE(payload.is_object()) << r.body;
      EXPECT_EQ(payload.value("source", ""), "example");
      EXPECT_EQ(payload.value("config", ""), "key: value");
      EXPECT_EQ(payload.value("replica", ""), url);
      json_seqs.insert(payload.value("seq", 0));
    } else {
      // Without jsonBody the body is the payload's bytes, base64 (Go's []byte in JSON).
      EXPECT_EQ(body.value("subject", ""), "raw") << r.body;
      raw_bodies.insert(body.value("body", ""));
    }
  }
  EXPECT_EQ(json_seqs, (std::set<int>{1, 2, 3}));
  std::set<std::string> expected_raw;
  for (int seq = 1; seq <= 3; ++seq)
    expected_raw.insert(base64(fmt::format(
      R"({{"seq":{},"source":"raw","config":"key: value","replica":"{}"}})", seq, url)));
  EXPECT_EQ(raw_bodies, expected_raw);

  // After --count events the streams stay open: no reconnect, no event sent twice. Kept: an
  // open stream that stays quiet is the behaviour; no later event can mark it.
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(sink.requests().size(), 6u) << service.output();
  engine.stop();
  // The engine cancelled both streams when it stopped.
  EXPECT_TRUE(test::eventually(
    [&] {
      auto out = service.output();
      return out.find("stream ended: example") != std::string::npos
             && out.find("stream ended: raw") != std::string::npos;
    },
    10s))
    << service.output();
  service.stop();
}

TEST(e2e_signals_python, a_bearer_token_lets_events_in_and_a_wrong_one_ends_in_error) {
  python_signal_service service{{"--interval-ms", "100", "--token", "s3cret"}};
  ASSERT_NE(service.port(), 0);
  auto url = fmt::format("127.0.0.1:{}", service.port());
  auto secrets = test::temp_dir();
  test::write_file(secrets + "/signal-auth/token", "s3cret");
  test::write_file(secrets + "/stale-auth/token", "0ld");
  auto auth = [](const std::string& secret) {
    return fmt::format(
      "      insecure: true\n      jsonBody: true\n      authSecret:\n        name: {}\n"
      "        key: token\n",
      secret);
  };
  test::http_sink sink;
  e2e::engine_process engine{generic_source({{"good", generic_fields(url, auth("signal-auth"))},
                                             {"bad", generic_fields(url, auth("stale-auth"))}})
                               + sink_sensor("good", "good", sink.url("/good")),
                             secrets};
  ASSERT_TRUE(sink.wait_for(2, 20s)) << engine.output() << service.output();
  for (const auto& body : bodies(sink))
    EXPECT_EQ(body["body"].value("source", ""), "good") << body.dump();

  // The wrong token: three refused attempts (1 s, then 2 s apart), then phase Error for good.
  nlohmann::json bad;
  EXPECT_TRUE(test::eventually(
    [&] {
      bad = source_status(engine, "bad");
      return bad.is_object() && bad.value("phase", "") == "Error";
    },
    20s))
    << engine.status() << engine.output();
  EXPECT_NE(bad.value("lastError", "").find("UNAUTHENTICATED"), std::string::npos) << bad.dump();
  EXPECT_NE(bad.value("lastError", "").find("invalid bearer token"), std::string::npos)
    << bad.dump();
  EXPECT_NE(service.output().find("stream refused: bad: invalid bearer token"), std::string::npos)
    << service.output();
  // The good stream goes on.
  auto seen = sink.requests().size();
  EXPECT_TRUE(sink.wait_for(seen + 2, 10s)) << engine.output();
  auto good = source_status(engine, "good");
  EXPECT_EQ(good.is_object() ? good.value("phase", "") : "", "Running") << engine.status();
}

TEST(e2e_signals_python, tls_with_a_certificate_the_engine_is_told_to_trust) {
  auto dir = test::temp_dir();
  auto cert = dir + "/cert.pem";
  auto key = dir + "/key.pem";
  test::child_process openssl{{"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                               "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
                               "-addext", "subjectAltName=DNS:localhost"}};
  ASSERT_EQ(openssl.wait(30s), 0) << openssl.output();

  python_signal_service service{
    {"--interval-ms", "100", "--tls-cert", cert, "--tls-key", key, "--replica-name", "tls"}};
  ASSERT_NE(service.port(), 0);
  auto manifests =
    generic_source({{"example", generic_fields(fmt::format("localhost:{}", service.port()),
                                               "      insecure: false\n      jsonBody: true\n")}});
  test::http_sink sink;
  {
    e2e::engine_process engine{manifests + sink_sensor("tls", "example", sink.url("/tls")),
                               {},
                               true,
                               {"--grpc-ca-file", cert}};
    ASSERT_TRUE(sink.wait_for(2, 20s)) << engine.output() << service.output();
    for (const auto& body : bodies(sink))
      EXPECT_EQ(body["body"].value("replica", ""), "tls") << body.dump();
  }

  // Without --grpc-ca-file the system's CAs do not know the certificate: the source fails
  // (Pending, never Running, then Error), so the engine never becomes ready.
  e2e::engine_options options;
  options.wait_ready = false;
  e2e::engine_process untrusting{manifests, options};
  nlohmann::json status;
  EXPECT_TRUE(test::eventually(
    [&] {
      status = source_status(untrusting, "example");
      return status.is_object() && status.value("phase", "") == "Error";
    },
    30s))
    << untrusting.status() << untrusting.output();
}
