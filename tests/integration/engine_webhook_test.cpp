// The engine in-process with the HTTP transport: a real webhook request in, a real HTTP request
// out to a sink on loopback.

#include <gtest/gtest.h>
#include <fmt/format.h>

#include "eventually.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/core/kinds.hpp"
#include "ganglion/dsl/load.hpp"
#include "ganglion/http/transport.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

struct running_engine {
  std::shared_ptr<http::runtime> transport;
  std::unique_ptr<core::engine> engine;

  explicit running_engine(const std::string& manifests, core::engine_options options = {}) {
    http::runtime_options transport_options;
    transport_options.bind_host = "127.0.0.1";
    transport = std::make_shared<http::runtime>(transport_options);
    core::kinds kinds;
    http::register_transport(kinds.sources, kinds.triggers, transport);
    core::add_engine_triggers(kinds.triggers);
    dsl::load_options load;
    load.kinds = core::spec_steps(kinds);
    auto loaded = dsl::load_manifest_text(manifests, "test.yaml", load);
    for (const auto& d : loaded.diagnostics)
      ADD_FAILURE() << d.to_string();
    engine = std::make_unique<core::engine>(options, std::move(kinds.sources),
                                            std::move(kinds.triggers));
    engine->start(loaded.documents);
    EXPECT_TRUE(test::eventually([&] { return engine->ready(); }, 2s))
      << engine->status().to_json();
  }

  ~running_engine() { engine->stop(); }
};

std::string manifests(std::uint16_t port, const std::string& sink_url) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: hooks
spec:
  webhook:
    push:
      port: "{}"
      endpoint: /push
      method: POST
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: deploy
spec:
  dependencies:
    - name: push
      eventSourceName: hooks
      eventName: push
      filters:
        data:
          - path: body.ref
            type: string
            value: ["^refs/heads/main$"]
  triggers:
    - template:
        name: notify
        http:
          url: {}
          method: PUT
          headers:
            X-Source: ganglion
          payload:
            - src:
                dependencyName: push
                dataKey: body.ref
              dest: ref
            - src:
                dependencyName: push
                dataKey: body.commits.#
                useRawData: true
              dest: stats.commits
            - src:
                dependencyName: push
                dataKey: body.missing
                value: none
              dest: stats.note
            - src:
                dependencyName: push
                contextKey: source
              dest: source
)",
                     port, sink_url);
}

} // namespace

TEST(engine_webhook, a_matching_push_reaches_the_sink_with_its_payload) {
  test::http_sink sink;
  auto port = test::free_port();
  running_engine running{manifests(port, sink.url("/deploy"))};
  auto url = fmt::format("http://127.0.0.1:{}/push", port);
  auto skipped = test::http_request("POST", url, R"({"ref":"refs/heads/dev","commits":[]})",
                                    {"Content-Type: application/json"});
  EXPECT_EQ(skipped.status, 200);
  auto r = test::http_request("POST", url, R"({"ref":"refs/heads/main","commits":[1,2,3]})",
                              {"Content-Type: application/json"});
  EXPECT_EQ(r.status, 200) << r.error;
  ASSERT_TRUE(sink.wait_for(1, 10s));
  // The dev push was judged (rejected) and the main one fired: nothing else is coming.
  ASSERT_TRUE(test::eventually([&] {
    auto text = running.engine->metrics().render();
    return text.find(R"(ganglion_dependency_events_total{sensor="deploy",dependency="push",)"
                     R"(result="fail"} 1)")
             != std::string::npos
           && text.find(R"(ganglion_triggers_fired_total{sensor="deploy",trigger="notify"} 1)")
                != std::string::npos;
  })) << running.engine->metrics().render();
  auto requests = sink.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "PUT");
  EXPECT_EQ(requests[0].header("X-Source"), "ganglion");
  EXPECT_EQ(requests[0].body,
            R"({"ref":"refs/heads/main","stats":{"commits":3,"note":"none"},"source":"hooks"})");
  auto metrics = running.engine->metrics().render();
  EXPECT_NE(metrics.find(R"(ganglion_dependency_events_total{sensor="deploy",dependency="push",result="fail"} 1)"),
            std::string::npos)
    << metrics;
  EXPECT_NE(metrics.find(R"(ganglion_triggers_fired_total{sensor="deploy",trigger="notify"} 1)"),
            std::string::npos)
    << metrics;
}

TEST(engine_webhook, a_trigger_target_that_is_down_counts_as_failed_and_the_engine_goes_on) {
  auto dead_port = test::free_port();
  auto port = test::free_port();
  running_engine running{manifests(port, fmt::format("http://127.0.0.1:{}/x", dead_port))};
  auto r = test::http_request("POST", fmt::format("http://127.0.0.1:{}/push", port),
                              R"({"ref":"refs/heads/main","commits":[]})",
                              {"Content-Type: application/json"});
  EXPECT_EQ(r.status, 200);
  std::string metrics;
  test::eventually([&] {
    metrics = running.engine->metrics().render();
    return metrics.find(R"(ganglion_triggers_failed_total{sensor="deploy",trigger="notify"} 1)")
           != std::string::npos;
  });
  EXPECT_NE(metrics.find(R"(ganglion_triggers_failed_total{sensor="deploy",trigger="notify"} 1)"),
            std::string::npos)
    << metrics;
  EXPECT_NE(running.engine->status().to_json().find("Running"), std::string::npos);
}
