// Every refusal `run` can make at load time is one `validate` reports: the same object at the
// same file:line:col and YAML path. Manifest errors (`run` starts nothing), objects `run` will
// not run, and dependencies no loaded EventSource serves (warnings in both).

#include <algorithm>
#include <map>
#include <sstream>

#include "engine_process.hpp"
#include "eventually.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// One way `run` refuses at load time: the files to load, the one that holds the problem and
/// where in it (`needle`: the first text at the node), and the node's YAML path.
struct refusal_case {
  std::string name;
  std::map<std::string, std::string> files; ///< file name → YAML text
  std::string file;                         ///< the file with the problem
  std::string needle;                       ///< text that starts at the reported node
  std::string path;                         ///< the reported YAML path
  bool error = false; ///< a manifest error (run starts nothing) rather than a warning
};

/// A Sensor `s` whose dependency `d` waits for `source`/`event` (`fields` appended to it) and
/// whose triggers are `triggers` (items of `triggers:`).
std::string sensor_on(const std::string& source, const std::string& event,
                      const std::string& triggers, const std::string& fields = {}) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: s
spec:
  dependencies:
    - name: d
      eventSourceName: {}
      eventName: {}
{}  triggers:
{})",
                     source, event, fields, triggers);
}

const std::string log_trigger = "    - template:\n        name: audit\n        log: {}\n";

std::vector<refusal_case> refusal_cases() {
  auto port = [] { return test::free_port(); };
  auto hooks = [](std::uint16_t p, const std::string& extra = {}) {
    return e2e::webhook_source("hooks", p, {"example"}, extra);
  };
  std::vector<refusal_case> out;
  {
    auto sensor = sensor_on("hooks", "example", log_trigger);
    sensor.replace(sensor.find("kind: Sensor"), 12, "kind: Sensr");
    out.push_back({"misspelt kind",
                   {{"a.yaml", hooks(port())}, {"b.yaml", sensor}},
                   "b.yaml",
                   "kind: Sensr",
                   "kind",
                   true});
  }
  out.push_back({"filter that does not compile",
                 {{"a.yaml", hooks(port()) + "---\n"
                               + sensor_on("hooks", "example", log_trigger,
                                           "      filters:\n        data:\n          - path: "
                                           "body.@pretty\n            type: string\n"
                                           "            value: [x]\n")}},
                 "a.yaml",
                 "path: body.@pretty",
                 "spec.dependencies[0].filters.data[0].path",
                 true});
  out.push_back({"two objects of one name",
                 {{"a.yaml", hooks(port())}, {"b.yaml", hooks(port())}},
                 "b.yaml",
                 "name: hooks",
                 "metadata.name",
                 true});
  out.push_back(
    {"trigger kind not run yet",
     {{"a.yaml", hooks(port())},
      {"b.yaml", sensor_on("hooks", "example", e2e::unrun_trigger("mail") + log_trigger)}},
     "b.yaml",
     "pulsar:",
     "spec.triggers[0].template.pulsar"});
  out.push_back({"source kind not run yet",
                 {{"a.yaml", R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: gh
spec:
  mns:
    push:
      queue: q
      endpoint: http://127.0.0.1:1
)"}},
                 "a.yaml",
                 "push:",
                 "spec.mns.push"});
  out.push_back({"secret without --secrets-dir",
                 {{"a.yaml", hooks(port(), "      authSecret: {name: auth, key: token}\n")}},
                 "a.yaml",
                 "authSecret:",
                 "spec.webhook.example.authSecret"});
  {
    auto shared = port();
    out.push_back({"one endpoint served twice",
                   {{"a.yaml", e2e::webhook_source("first", shared, {"example"})},
                    {"b.yaml", e2e::webhook_source("second", shared, {"example"})}},
                   "b.yaml",
                   "endpoint: /example",
                   "spec.webhook.example.endpoint"});
  }
  out.push_back({"a kind's check step",
                 {{"a.yaml", hooks(port())},
                  {"b.yaml", sensor_on("hooks", "example",
                                       "    - template:\n        name: ftp\n        http:\n"
                                       "          url: ftp://127.0.0.1/x\n")}},
                 "b.yaml",
                 "http:",
                 "spec.triggers[0].template.http"});
  out.push_back({"unknown eventSourceName",
                 {{"a.yaml", hooks(port())}, {"b.yaml", sensor_on("hoks", "example", log_trigger)}},
                 "b.yaml",
                 "eventSourceName: hoks",
                 "spec.dependencies[0].eventSourceName"});
  out.push_back({"unknown eventName",
                 {{"a.yaml", hooks(port())}, {"b.yaml", sensor_on("hooks", "exmple", log_trigger)}},
                 "b.yaml",
                 "eventName: exmple",
                 "spec.dependencies[0].eventName"});
  return out;
}

/// `<file>:<line>:<col>: ` of the first `needle` in `text`.
std::string location_of(const std::string& file, const std::string& text,
                        const std::string& needle) {
  auto at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  auto line_start = text.rfind('\n', at);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  return fmt::format("{}:{}:{}: ", file, line, at - line_start + 1);
}

/// True when a line of `output` names `location` and then `path: `.
bool names(const std::string& output, const std::string& location, const std::string& path) {
  std::istringstream lines{output};
  for (std::string line; std::getline(lines, line);) {
    auto at = line.find(location);
    if (at != std::string::npos
        && line.find(path + ": ", at + location.size()) != std::string::npos)
      return true;
  }
  return false;
}

} // namespace

TEST(e2e_validate_matches_run, every_load_time_refusal_of_run_is_reported_by_validate_there) {
  for (const auto& c : refusal_cases()) {
    SCOPED_TRACE(c.name);
    auto dir = test::temp_dir();
    for (const auto& [file, text] : c.files)
      test::write_file(dir + "/" + file, text);
    auto where = location_of(dir + "/" + c.file, c.files.at(c.file), c.needle);

    test::child_process validate{{GANGLION_BINARY, "validate", "-f", dir}};
    EXPECT_EQ(validate.wait(20s), c.error ? 1 : 0) << validate.output();
    EXPECT_TRUE(names(validate.output(), where, c.path)) << where << c.path << "\n"
                                                         << validate.output();

    test::child_process run{{GANGLION_BINARY, "run", "-f", dir, "--in-memory", "--webhook-host",
                             "127.0.0.1", "--no-watch"}};
    EXPECT_TRUE(test::eventually([&] { return names(run.output(), where, c.path); }))
      << where << c.path << "\n"
      << run.output();
    if (c.error) {
      EXPECT_EQ(run.wait(20s), 1) << run.output();
      EXPECT_NE(run.output().find("nothing was started"), std::string::npos) << run.output();
    }
  }
}

TEST(e2e_validate_matches_run, an_unknown_dependency_stays_a_warning_with_strict) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml", e2e::webhook_source("hooks", test::free_port(), {"example"})
                                      + "---\n" + sensor_on("hoks", "example", log_trigger));
  test::child_process validate{{GANGLION_BINARY, "validate", "-f", dir, "--strict"}};
  EXPECT_EQ(validate.wait(20s), 0) << validate.output();
  EXPECT_NE(validate.output().find("warning: spec.dependencies[0].eventSourceName: no loaded "
                                   "EventSource is named \"hoks\"; did you mean \"hooks\"?"),
            std::string::npos)
    << validate.output();
  EXPECT_NE(validate.output().find("0 error(s), 1 warning(s)"), std::string::npos)
    << validate.output();
}

TEST(e2e_validate_matches_run, a_misspelt_kind_fails_validate_even_without_strict) {
  auto dir = test::temp_dir();
  for (const std::string kind : {"sensor", "EventSorce"}) {
    test::write_file(dir + "/m.yaml", "apiVersion: argoproj.io/v1alpha1\nkind: " + kind
                                        + "\nmetadata:\n  name: x\nspec: {}\n");
    test::child_process validate{{GANGLION_BINARY, "validate", "-f", dir}};
    EXPECT_EQ(validate.wait(20s), 1) << validate.output();
    EXPECT_NE(validate.output().find(dir + "/m.yaml:2:1: kind: unknown kind \"" + kind + "\""),
              std::string::npos)
      << validate.output();
  }
}

TEST(e2e_validate_matches_run, an_empty_directory_is_refused_without_from_cluster) {
  auto dir = test::temp_dir();
  test::child_process run{{GANGLION_BINARY, "run", "-f", dir, "--in-memory", "--no-watch"}};
  EXPECT_EQ(run.wait(20s), 1) << run.output();
  EXPECT_NE(run.output().find(dir), std::string::npos) << run.output();
  EXPECT_NE(run.output().find("no *.yaml or *.yml file in the directory"), std::string::npos)
    << run.output();
}
