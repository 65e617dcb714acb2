// Argo Events' tutorials whose pages state what the trigger produces, run from the corpus copy
// of their Sensors (tests/conformance/argo-events): each creates the object the page shows,
// checked field by field, through `ganglion run` against the test API server and through the
// `ganglion test` dry run (no cluster).
//
// 01-introduction (examples/sensors/webhook.yaml): the Workflow's message is the event body.
// 02-parameterization, sensor-01 … sensor-05: the Workflow's message is `webhook`, the body's
// message, the default value, the message prepended, and (template parameters rewriting the
// resource's parameters) the body's message again.
// 04-standard-k8s-resources, sensor-pod and sensor-deployment: the Pod (the Deployment's Pod)
// echoes the whole event (its context, its data in base64).
// 06-trigger-conditions, sensor-01: the webhook's condition alone creates `group-1-` printing the
// body's message (the minio dependency has no source here, and its trigger waits).

#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "eventually.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

/// One step of a tutorial: the Sensor file, the body `curl` posts, the object it creates and
/// the value the page shows, at a JSON pointer of that object.
struct tutorial_step {
  std::string name;
  std::string sensor; ///< relative to the corpus's examples/
  std::string body;
  std::string api_version;
  std::string kind;
  std::string pointer;
  std::string value; ///< a JSON document when it starts with `{`
};

/// gtest names a step by its name, not its bytes.
void PrintTo(const tutorial_step& step, std::ostream* out) {
  *out << step.name;
}

const std::vector<tutorial_step>& tutorial_steps() {
  static const std::string workflow_message = "/spec/arguments/parameters/0/value";
  static const std::string first = R"({"message":"this is my first webhook"})";
  static const std::vector<tutorial_step> steps{
    {"t01_webhook", "sensors/webhook.yaml", first, "argoproj.io/v1alpha1", "Workflow",
     workflow_message, first},
    {"t02_sensor_01", "tutorials/02-parameterization/sensor-01.yaml", first,
     "argoproj.io/v1alpha1", "Workflow", workflow_message, "webhook"},
    {"t02_sensor_02", "tutorials/02-parameterization/sensor-02.yaml", first,
     "argoproj.io/v1alpha1", "Workflow", workflow_message, "this is my first webhook"},
    {"t02_sensor_03", "tutorials/02-parameterization/sensor-03.yaml", first,
     "argoproj.io/v1alpha1", "Workflow", workflow_message, "wow! a default value."},
    {"t02_sensor_04", "tutorials/02-parameterization/sensor-04.yaml", R"({"message":"hey!!"})",
     "argoproj.io/v1alpha1", "Workflow", workflow_message, "hey!!hello world"},
    {"t02_sensor_05", "tutorials/02-parameterization/sensor-05.yaml",
     R"({"dependencyName":"test-dep","dataKey":"body.message",)"
     R"("dest":"spec.arguments.parameters.0.value","message":"amazing!!"})",
     "argoproj.io/v1alpha1", "Workflow", workflow_message, "amazing!!"},
    {"t04_pod", "tutorials/04-standard-k8s-resources/sensor-pod.yaml", R"({"message":"ok"})", "v1",
     "Pod", "/spec/containers/0/args/0",
     R"({"context":{"type":"webhook","source":"webhook","subject":"example"}})"},
    {"t04_deployment", "tutorials/04-standard-k8s-resources/sensor-deployment.yaml",
     R"({"message":"ok"})", "apps/v1", "Deployment", "/spec/template/spec/containers/0/args/0",
     R"({"context":{"type":"webhook","source":"webhook","subject":"example"}})"},
    {"t06_sensor_01", "tutorials/06-trigger-conditions/sensor-01.yaml", first,
     "argoproj.io/v1alpha1", "Workflow", "/spec/templates/0/container/args/0",
     "this is my first webhook"},
  };
  return steps;
}

std::string sensor_file(const tutorial_step& step) {
  return test::read_file(std::string{GANGLION_CORPUS_DIR} + "/" + step.sensor);
}

std::string decode_base64(const std::string& text) {
  static const std::string alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (char c : text) {
    auto at = alphabet.find(c);
    if (at == std::string::npos)
      break;
    bits = (bits << 6) | static_cast<unsigned>(at);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xff));
    }
  }
  return out;
}

/// Checks the value the page shows at `step.pointer` of `object`: the same string, or for a
/// JSON value, the same fields (an event's data compared after base64 decoding).
void expect_value(const tutorial_step& step, const json& object, const std::string& body) {
  auto at = json::json_pointer{step.pointer};
  ASSERT_TRUE(object.contains(at)) << object.dump(2);
  auto actual = object.at(at);
  ASSERT_TRUE(actual.is_string()) << actual;
  if (step.value.empty() || step.value.front() != '{') {
    EXPECT_EQ(actual.get<std::string>(), step.value) << object.dump(2);
    return;
  }
  auto got = json::parse(actual.get<std::string>());
  auto expected = json::parse(step.value);
  if (expected.contains("context")) {
    // Argo's whole event: its context, and its data as base64 of the webhook's JSON.
    for (const auto& [key, value] : expected["context"].items())
      EXPECT_EQ(got["context"][key], value) << key << " in " << got.dump(2);
    auto data = json::parse(decode_base64(got.value("data", "")), nullptr, false);
    ASSERT_FALSE(data.is_discarded()) << got.dump(2);
    EXPECT_EQ(data["body"], json::parse(body)) << data.dump(2);
    return;
  }
  EXPECT_EQ(got, expected) << object.dump(2);
}

/// The JSON object a dry run prints under a firing trigger: the lines from one that is `{`
/// to the `}` at its indentation, the indentation taken off.
std::string printed_object(const std::string& out) {
  std::istringstream lines{out.substr(std::min(out.find(" fires:"), out.size()))};
  std::string line;
  std::string indent;
  std::string object;
  bool inside = false;
  while (std::getline(lines, line)) {
    auto first = line.find_first_not_of(' ');
    if (!inside && first != std::string::npos && line.substr(first) == "{") {
      inside = true;
      indent = line.substr(0, first);
    }
    if (!inside)
      continue;
    object += line.substr(std::min(indent.size(), line.size())) + "\n";
    if (line == indent + "}")
      break;
  }
  return object;
}

class e2e_tutorials : public ::testing::TestWithParam<tutorial_step> {};

TEST_P(e2e_tutorials, run_creates_the_object_the_tutorial_states) {
  const auto& step = GetParam();
  test::kube::api_server api;
  api.add_resource("argoproj.io", "v1alpha1", "Workflow", "workflows", true, true);
  auto kubeconfig = test::temp_dir() + "/kubeconfig";
  test::write_file(kubeconfig, api.kubeconfig({}, std::nullopt, "argo-events"));
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("webhook", port, {"example"}) + "---\n"
                               + sensor_file(step),
                             {}, true, {"--kubeconfig", kubeconfig}};
  ASSERT_EQ(e2e::post(port, "example", step.body).status, 200);
  std::vector<json> made;
  ASSERT_TRUE(test::eventually([&] {
    made = api.list(step.api_version, step.kind, "argo-events");
    return !made.empty();
  })) << engine.output();
  ASSERT_EQ(made.size(), 1u);
  expect_value(step, made[0], step.body);
}

TEST_P(e2e_tutorials, the_dry_run_renders_the_object_the_tutorial_states) {
  const auto& step = GetParam();
  auto dir = test::temp_dir();
  test::write_file(dir + "/sensor.yaml", sensor_file(step));
  test::write_file(dir + "/body.json", step.body);
  test::write_file(dir + "/source.yaml", e2e::webhook_source("webhook", 12000, {"example"}));
  test::child_process run{{GANGLION_BINARY, "test", "-f", dir + "/sensor.yaml", "-f",
                           dir + "/source.yaml", "--body", dir + "/body.json", "--source",
                           "webhook", "--subject", "example"}};
  ASSERT_EQ(run.wait(30s), 0) << run.output();
  auto out = run.output();
  auto object = json::parse(printed_object(out), nullptr, false);
  ASSERT_FALSE(object.is_discarded()) << out;
  EXPECT_EQ(object.value("kind", ""), step.kind) << out;
  expect_value(step, object, step.body);
}

INSTANTIATE_TEST_SUITE_P(argo, e2e_tutorials, ::testing::ValuesIn(tutorial_steps()),
                         [](const auto& info) { return info.param.name; });

} // namespace
