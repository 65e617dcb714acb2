// The binary end to end: template-level (`parameters`) and resource-level (`http.parameters`)
// parameters rewrite the HTTP trigger's request from the event.

#include "engine_process.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// The parameters sensor with `trigger` as its only trigger.
std::string parameters_sensor(const std::string& trigger) {
  return e2e::hook_sensor(trigger, "parameters");
}

} // namespace

TEST(e2e_parameters, template_parameter_appends_the_event_path_to_the_url) {
  test::http_sink sink;
  auto port = test::free_port();
  auto trigger = fmt::format(R"(    - template:
        name: routed
        http:
          url: {}
          method: POST
      parameters:
        - src:
            dependencyName: d
            dataKey: body.path
          dest: http.url
          operation: append
)",
                             sink.url("/base/"));
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"}) + parameters_sensor(trigger)};
  auto r = e2e::post(port, "example", R"({"path":"orders/17"})");
  EXPECT_EQ(r.status, 200) << r.error << r.body;
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  auto req = sink.requests().at(0);
  EXPECT_EQ(req.method, "POST");
  EXPECT_EQ(req.target, "/base/orders/17");

  EXPECT_EQ(e2e::post(port, "example", R"({"path":"users"})").status, 200);
  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  EXPECT_EQ(sink.requests().at(1).target, "/base/users");
}

TEST(e2e_parameters, resource_parameter_sets_a_header_and_the_method) {
  test::http_sink sink;
  auto port = test::free_port();
  auto trigger = fmt::format(R"(    - template:
        name: with-header
        http:
          url: {}
          headers:
            X-Static: one
          parameters:
            - src:
                dependencyName: d
                dataKey: body.id
              dest: headers.X-Id
            - src:
                dependencyName: d
                dataKey: body.verb
              dest: method
          payload:
            - src:
                dependencyName: d
                dataKey: body.id
              dest: id
)",
                             sink.url("/h"));
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"}) + parameters_sensor(trigger)};
  EXPECT_EQ(e2e::post(port, "example", R"({"id":"a-1","verb":"put"})").status, 200);
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  auto req = sink.requests().at(0);
  EXPECT_EQ(req.method, "PUT");
  EXPECT_EQ(req.target, "/h");
  EXPECT_EQ(req.header("X-Id"), "a-1");
  EXPECT_EQ(req.header("X-Static"), "one");
  EXPECT_EQ(req.body, R"({"id":"a-1"})");
}
