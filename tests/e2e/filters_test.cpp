// Filter kinds through the binary: exprs, time windows, filtersLogicalOperator.

#include <ctime>

#include "engine_process.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

std::string sensor_with_filters(const std::string& filters, const std::string& sink_url,
                                const std::string& extra_dependency_fields = {}) {
  return fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: f
spec:
  dependencies:
    - name: d
      eventSourceName: hooks
      eventName: example
{}      filters:
{}
  triggers:
    - template:
        name: t
        http:
          url: {}
          payload:
            - src:
                dependencyName: d
                dataKey: body.id
              dest: id
)", extra_dependency_fields, filters, sink_url);
}

/// HH:MM:SS of now (UTC) shifted by `hours`.
std::string utc_clock(int hours) {
  auto t = std::time(nullptr) + hours * 3600;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char out[16];
  std::strftime(out, sizeof out, "%H:%M:%S", &tm);
  return out;
}

/// The /metrics line counting the events dependency f/d judged `result`.
std::string evaluated(const std::string& result, int n) {
  return e2e::dependency_events("f", "d", result, n);
}

/// The /metrics line counting the firings of trigger f/t that reached the sink.
std::string fired(int n) {
  return e2e::triggers_fired("f", "t", n);
}

std::vector<std::string> ids_received(const test::http_sink& sink) {
  std::vector<std::string> ids;
  for (const auto& r : sink.requests())
    ids.push_back(r.body);
  return ids;
}

} // namespace

TEST(e2e_filters, exprs_filter_binds_fields_and_evaluates_the_expression) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"})
                             + sensor_with_filters(R"(        exprs:
          - expr: amount >= 100 && currency == "EUR"
            fields:
              - name: amount
                path: body.amount
              - name: currency
                path: body.currency
)",
                                                   sink.url("/x"))};
  EXPECT_EQ(e2e::post(port, "example", R"({"id":"1","amount":50,"currency":"EUR"})").status, 200);
  EXPECT_EQ(e2e::post(port, "example", R"({"id":"2","amount":150,"currency":"USD"})").status, 200);
  EXPECT_EQ(e2e::post(port, "example", R"({"id":"3","amount":150,"currency":"EUR"})").status, 200);
  // Every event was judged and the one firing reached the sink: nothing else can come.
  ASSERT_TRUE(engine.wait_metric(evaluated("fail", 2))) << engine.metrics();
  ASSERT_TRUE(engine.wait_metric(fired(1))) << engine.metrics() << engine.output();
  EXPECT_EQ(ids_received(sink), std::vector<std::string>{R"({"id":"3"})"});
}

TEST(e2e_filters, time_filter_passes_inside_the_window_only) {
  test::http_sink inside_sink;
  test::http_sink outside_sink;
  auto inside_port = test::free_port();
  auto outside_port = test::free_port();
  auto time_filter = [](int from, int to) {
    return fmt::format("        time:\n          start: \"{}\"\n          stop: \"{}\"\n",
                       utc_clock(from), utc_clock(to));
  };
  e2e::engine_process inside{e2e::webhook_source("hooks", inside_port, {"example"})
                             + sensor_with_filters(time_filter(-1, 1), inside_sink.url("/in"))};
  e2e::engine_process outside{e2e::webhook_source("hooks", outside_port, {"example"})
                              + sensor_with_filters(time_filter(1, 2), outside_sink.url("/out"))};
  EXPECT_EQ(e2e::post(inside_port, "example", R"({"id":"now"})").status, 200);
  EXPECT_EQ(e2e::post(outside_port, "example", R"({"id":"now"})").status, 200);
  EXPECT_TRUE(inside_sink.wait_for(1, 10s)) << inside.output();
  ASSERT_TRUE(outside.wait_metric(evaluated("fail", 1))) << outside.metrics();
  EXPECT_NE(outside.metrics().find(fired(0)), std::string::npos) << outside.metrics();
  EXPECT_TRUE(outside_sink.requests().empty());
}

TEST(e2e_filters, or_operator_passes_when_any_filter_kind_passes) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{
    e2e::webhook_source("hooks", port, {"example"})
    + sensor_with_filters(R"(        data:
          - path: body.kind
            type: string
            value: ["^urgent$"]
        exprs:
          - expr: size > 10
            fields:
              - name: size
                path: body.size
)",
                          sink.url("/or"), "      filtersLogicalOperator: or\n")};
  EXPECT_EQ(e2e::post(port, "example", R"({"id":"a","kind":"urgent","size":1})").status, 200);
  EXPECT_EQ(e2e::post(port, "example", R"({"id":"b","kind":"normal","size":50})").status, 200);
  EXPECT_EQ(e2e::post(port, "example", R"({"id":"c","kind":"normal","size":1})").status, 200);
  ASSERT_TRUE(engine.wait_metric(evaluated("fail", 1))) << engine.metrics();
  ASSERT_TRUE(engine.wait_metric(fired(2))) << engine.metrics() << engine.output();
  EXPECT_EQ(ids_received(sink), (std::vector<std::string>{R"({"id":"a"})", R"({"id":"b"})"}));
}

TEST(e2e_filters, transform_runs_before_the_filters_and_shapes_the_payload) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{
    e2e::webhook_source("hooks", port, {"example"})
    + sensor_with_filters(R"(        script: |
          return event.body.total > 100
)",
                          sink.url("/t"),
                          "      transform:\n"
                          "        jq: '.body.total = (.body.items | map(.price) | add) | "
                          ".body.id = \"order-\" + .body.id'\n")};
  auto first = e2e::post(port, "example", R"({"id":"1","items":[{"price":30},{"price":40}]})");
  EXPECT_EQ(first.status, 200) << first.error << first.body;
  EXPECT_EQ(e2e::post(port, "example", R"({"id":"2","items":[{"price":80},{"price":40}]})").status,
            200);
  ASSERT_TRUE(engine.wait_metric(evaluated("fail", 1))) << engine.metrics();
  ASSERT_TRUE(engine.wait_metric(fired(1))) << engine.metrics() << engine.output();
  EXPECT_EQ(ids_received(sink), std::vector<std::string>{R"({"id":"order-2"})"});
}
