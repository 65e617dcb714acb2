// `validate` is the single gate: it compiles every small language `run` compiles and reports
// each failure at file:line:col; what it accepts, `run` starts; a kind's check step refuses a
// configuration in both, with the same message.

#include "engine_process.hpp"
#include "eventually.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// A sensor on hooks/example; `dependency` is appended to its dependency `d` (indented under
/// it), `triggers` are the items of its triggers list.
std::string sensor_with(const std::string& dependency, const std::string& triggers) {
  return R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: s
spec:
  dependencies:
    - name: d
      eventSourceName: hooks
      eventName: example
)" + dependency
         + "  triggers:\n" + triggers;
}

const std::string log_trigger = "    - template:\n        name: audit\n        log: {}\n";

struct validated {
  int code = -1;
  std::string output;
};

validated validate(const std::string& file) {
  test::child_process p{{GANGLION_BINARY, "validate", "-f", file}};
  auto code = p.wait(20s);
  return {code ? *code : -1, p.output()};
}

} // namespace

TEST(e2e_validate_gate, validate_reports_every_compile_error_at_its_node) {
  auto dir = test::temp_dir();
  auto file = dir + "/m.yaml";
  test::write_file(file, e2e::webhook_source("hooks", 12000, {"example"})
                           + sensor_with(R"(      filters:
        data:
          - path: body.@pretty
            type: string
            value: ["(open"]
          - path: body.b
            type: string
            value: [x]
            template: "{{ .Input "
        script: "return ("
      transform:
        jq: ".a | | .b"
)",
                                         log_trigger));
  auto v = validate(file);
  EXPECT_EQ(v.code, 1) << v.output;
  const std::string at = file + ":";
  const std::string dep = "spec.dependencies[0]";
  for (const auto& expected :
       {at + "23:13: " + dep + ".filters.data[0].path: gjson path \"body.@pretty\" does not "
                               "compile",
        at + "25:21: " + dep + ".filters.data[0].value[0]: invalid regular expression \"(open\"",
        at + "29:13: " + dep + ".filters.data[1].template: Go template \"{{ .Input \" does not "
                              "compile",
        at + "30:9: " + dep + ".filters.script: Lua script does not compile: script:1:",
        at + "32:9: " + dep + ".transform.jq: jq program does not compile"})
    EXPECT_NE(v.output.find(expected), std::string::npos) << expected << "\n" << v.output;
  EXPECT_NE(v.output.find("5 error(s)"), std::string::npos) << v.output;
}

TEST(e2e_validate_gate, what_validate_accepts_run_starts_and_fires) {
  auto port = test::free_port();
  auto manifests = e2e::webhook_source("hooks", port, {"example"}) + sensor_with(R"(      filters:
        data:
          - path: body.action
            type: string
            value: ["open(ed)?"]
            template: "{{ .Input | upper | lower }}"
        exprs:
          - expr: n > 1
            fields:
              - name: n
                path: body.n
        script: "return event.body.n == 2"
      transform:
        jq: ".body.seen = true"
)",
                                                                                  log_trigger);
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml", manifests);
  auto v = validate(dir + "/m.yaml");
  ASSERT_EQ(v.code, 0) << v.output;
  EXPECT_NE(v.output.find("0 error(s), 0 warning(s)"), std::string::npos) << v.output;

  e2e::engine_process engine{manifests};
  EXPECT_EQ(e2e::post(port, "example", R"({"action":"opened","n":2})").status, 200);
  EXPECT_TRUE(test::eventually([&] {
    return engine.output().find("\"seen\":true") != std::string::npos;
  })) << engine.output();
  EXPECT_EQ(engine.output().find("cannot run"), std::string::npos) << engine.output();
}

TEST(e2e_validate_gate, a_kinds_check_step_refuses_in_validate_and_run_with_one_message) {
  auto port = test::free_port();
  auto manifests = e2e::webhook_source("hooks", port, {"example"})
                   + sensor_with("", "    - template:\n        name: ftp\n        http:\n"
                                     "          url: ftp://127.0.0.1/x\n"
                                     + log_trigger);
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml", manifests);
  auto v = validate(dir + "/m.yaml");
  const std::string why = "spec.triggers[0].template.http: invalid http trigger url "
                          "'ftp://127.0.0.1/x': the scheme must be http or https";
  EXPECT_NE(v.output.find(dir + "/m.yaml:24:9: warning: " + why), std::string::npos)
    << v.output;

  e2e::engine_process engine{manifests};
  ASSERT_TRUE(test::eventually([&] {
    return engine.output().find("trigger s/ftp will not run: ") != std::string::npos;
  })) << engine.output();
  EXPECT_NE(engine.output().find(why), std::string::npos) << engine.output();
}
