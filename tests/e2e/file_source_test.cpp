// The file and sftp sources through the binary, with manifests shaped like Argo's corpus
// examples: a file source whose directory is missing at start (Pending, saying which
// directory and why, until it is made) and then fires the sensor's HTTP trigger with Argo's
// event data; an sftp source against a real sshd.

#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "eventually.hpp"
#include "sshd_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// A Sensor `s` on `source`/`example` whose HTTP trigger posts the event data's `fields` to
/// `sink` (each under its own name).
std::string sink_sensor(const std::string& source, const std::string& sink,
                        const std::vector<std::string>& fields) {
  std::string payload;
  for (const auto& field : fields)
    payload += fmt::format("            - src: {{dependencyName: d, dataKey: {}}}\n"
                           "              dest: {}\n",
                           field, field.substr(field.rfind('.') + 1));
  return fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: s
spec:
  dependencies:
    - name: d
      eventSourceName: {}
      eventName: example
  triggers:
    - template:
        name: to-sink
        http:
          url: {}
          payload:
{})",
                     source, sink, payload);
}

std::string manifests(const std::string& directory, const std::string& sink) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: file
spec:
  file:
    example:
      watchPathConfig:
        directory: {}/
        path: x.txt
      eventType: CREATE
      metadata: {{team: a}}
)",
                     directory)
         + sink_sensor("file", sink, {"name", "op", "metadata.team"});
}

/// The phase and message /v1/status shows for source `name`.
std::pair<std::string, std::string> source_status(const e2e::engine_process& engine,
                                                  const std::string& name) {
  auto status = nlohmann::json::parse(engine.status(), nullptr, false);
  if (!status.is_object() || !status.contains("components"))
    return {};
  for (const auto& c : status["components"])
    if (c.value("kind", "") == "source" && c.value("name", "") == name)
      return {c.value("phase", ""), c.value("message", "")};
  return {};
}

} // namespace

TEST(e2e_file_source, a_missing_directory_is_pending_until_made_then_files_fire) {
  test::http_sink sink;
  auto directory = test::temp_dir() + "/test-data";
  e2e::engine_options options;
  options.wait_ready = false;
  e2e::engine_process engine{manifests(directory, sink.url("/s")), options};
  ASSERT_TRUE(test::eventually(
    [&] {
      auto [phase, message] = source_status(engine, "file/example");
      return phase == "Pending"
             && message.find("waiting for directory " + directory
                             + "/ (No such file or directory") != std::string::npos;
    },
    20s))
    << engine.status() << engine.output();

  std::filesystem::create_directory(directory);
  ASSERT_TRUE(test::eventually([&] { return source_status(engine, "file/example").first == "Running"; },
                               30s))
    << engine.status();
  test::write_file(directory + "/other.txt", "");
  test::write_file(directory + "/x.txt", "hello");
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests()[0].body,
            R"({"name":")" + directory + R"(/x.txt","op":"1","team":"a"})");
}

TEST(e2e_file_source, an_sftp_directory_fires_the_sensor) {
  if (auto why = test::sshd_server::unavailable(); !why.empty())
    GTEST_SKIP() << why;
  test::sshd_server server;
  test::http_sink sink;
  auto directory = test::temp_dir();
  auto secrets = test::temp_dir();
  test::write_file(secrets + "/username/username", test::sshd_server::user() + "\n");
  test::write_file(secrets + "/address/address", server.address());
  test::write_file(secrets + "/ssh/key", server.client_key() + server.host_public_key());
  auto manifest = fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: sftp
spec:
  sftp:
    example:
      username: {{key: username, name: username}}
      sshKeySecret: {{key: key, name: ssh}}
      address: {{key: address, name: address}}
      watchPathConfig:
        directory: {dir}/
        path: x.txt
      pollIntervalDuration: 200ms
      eventType: CREATE
)",
                              fmt::arg("dir", directory))
                  + sink_sensor("sftp", sink.url("/s"), {"name"});
  e2e::engine_process engine{manifest, secrets};
  ASSERT_TRUE(test::eventually([&] { return source_status(engine, "sftp/example").first == "Running"; },
                               20s))
    << engine.status();
  test::write_file(directory + "/x.txt", "hello");
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests()[0].body, R"({"name":"x.txt"})");
}
