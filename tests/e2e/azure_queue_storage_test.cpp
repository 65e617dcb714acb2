// Argo's own corpus example event-sources/azure-queue-storage.yaml through the ganglion binary,
// its connection string (the example's secret) pointing at azurite: a message put into the
// example's queue `test` fires the sensor's HTTP trigger with the message's JSON (jsonBody), and
// is deleted from the queue. Skipped, saying so, where node or azurite is missing (failed
// under CI=true).

#include <cstdlib>

#include "azurite_server.hpp"
#include "engine_process.hpp"
#include "files.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// The corpus EventSource, and a sensor posting the message's `msg` to `sink`.
std::string manifests(const std::string& sink) {
  auto source =
    test::read_file(std::string{GANGLION_CORPUS_DIR} + "/event-sources/azure-queue-storage.yaml");
  return source + fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: azure-queue-storage
spec:
  dependencies:
    - name: test-dep
      eventSourceName: azure-queue-storage
      eventName: example
  triggers:
    - template:
        name: http-trigger
        http:
          url: {}
          method: POST
          payload:
            - src: {{dependencyName: test-dep, dataKey: body.msg}}
              dest: msg
)",
                              sink);
}

} // namespace

TEST(e2e_azure_queue_storage, the_corpus_example_fires_on_a_queue_message_and_deletes_it) {
  std::string why;
  if (test::azurite_queue_script(why).empty()) {
    if (std::getenv("CI"))
      FAIL() << why << " (CI=true: the machine must have it)";
    GTEST_SKIP() << why;
  }
  test::azurite_server azurite;
  azurite.create_queue("test");
  auto secrets = test::temp_dir();
  test::write_file(secrets + "/azure-secret/connectionstring", azurite.connection_string());
  test::http_sink sink;
  e2e::engine_process engine{manifests(sink.url("/queue")), secrets, true};
  azurite.put_message("test", R"({"msg": "hello from the queue"})");
  ASSERT_TRUE(sink.wait_for(1, 15s)) << engine.output();
  EXPECT_EQ(sink.requests()[0].body, R"({"msg":"hello from the queue"})");
  ASSERT_TRUE(test::eventually([&] { return azurite.message_count("test") == 0; }))
    << engine.output();
}
