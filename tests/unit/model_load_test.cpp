// Loading manifests: files, directories, multi-document streams, YAML errors, kinds, locations,
// unknown fields and type checks.

#include <filesystem>
#include <fstream>
#include <tuple>

#include <unistd.h>

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

const char* webhook_source = R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: webhook
spec:
  webhook:
    example:
      port: "12000"
      endpoint: /example
      method: POST
)";

const char* log_sensor = R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: webhook
spec:
  dependencies:
    - name: dep
      eventSourceName: webhook
      eventName: example
  triggers:
    - template:
        name: log
        log: {}
)";

class temp_dir {
public:
  temp_dir() {
    path_ = std::filesystem::temp_directory_path()
            / ("ganglion-model-test-" + std::to_string(::getpid()) + "-"
               + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~temp_dir() { std::filesystem::remove_all(path_); }
  std::string write(const std::string& relative, const std::string& content) const {
    auto file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream{file} << content;
    return file.string();
  }
  std::string path() const { return path_.string(); }

private:
  std::filesystem::path path_;
};

} // namespace

TEST(model_load, multi_document_stream_keeps_every_document_with_its_kind_and_line) {
  auto r = load(std::string{webhook_source} + "---\n" + log_sensor
                + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n---\n");
  ASSERT_TRUE(clean(r));
  ASSERT_EQ(r.documents.size(), 3u);
  EXPECT_EQ(r.documents[0].kind, "EventSource");
  EXPECT_EQ(r.documents[0].name, "webhook");
  EXPECT_EQ(r.documents[0].api_version, "argoproj.io/v1alpha1");
  EXPECT_EQ(r.documents[0].where.line, 1);
  EXPECT_TRUE(std::holds_alternative<event_source>(r.documents[0].body));
  EXPECT_EQ(r.documents[1].kind, "Sensor");
  EXPECT_EQ(r.documents[1].where.line, 12);
  EXPECT_TRUE(std::holds_alternative<sensor>(r.documents[1].body));
  EXPECT_EQ(r.documents[2].kind, "ConfigMap");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(r.documents[2].body));
}

TEST(model_load, other_kinds_load_without_diagnostics_even_with_unknown_fields) {
  auto r = load("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r\n"
                "rules:\n  - apiGroups: [\"\"]\n    verbs: [get]\n");
  ASSERT_TRUE(clean(r));
  ASSERT_EQ(r.documents.size(), 1u);
  EXPECT_EQ(r.documents[0].kind, "Role");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(r.documents[0].body));
}

TEST(model_load, an_argo_kind_misspelt_is_an_error_at_kind_naming_the_kind_meant) {
  const std::pair<std::string, std::string> cases[] = {{"sensor", "Sensor"},
                                                        {"Sensr", "Sensor"},
                                                        {"EventSorce", "EventSource"},
                                                        {"eventbus", "EventBus"}};
  for (const auto& [kind, meant] : cases) {
    std::string yaml = log_sensor;
    yaml.replace(yaml.find("kind: Sensor"), 12, "kind: " + kind);
    auto r = load(yaml);
    EXPECT_TRUE(has_diagnostic(r, "kind", 2, 1,
                               "unknown kind \"" + kind
                                 + "\" of argoproj.io/v1alpha1; did you mean \"" + meant + "\"?"))
      << kind;
    EXPECT_TRUE(has_errors(r.diagnostics)) << kind;
  }
}

TEST(model_load, other_argo_kinds_and_misspelt_kinds_of_other_api_versions_are_skipped) {
  auto r = load("apiVersion: argoproj.io/v1alpha1\nkind: WorkflowTemplate\nmetadata:\n  name: w\n"
                "---\napiVersion: v1\nkind: Sensr\nmetadata:\n  name: s\n");
  EXPECT_TRUE(clean(r)) << dump(r);
  ASSERT_EQ(r.documents.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(r.documents[0].body));
}

TEST(model_load, yaml_syntax_error_is_a_located_diagnostic) {
  auto r = load("apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nspec:\n  a: [1, 2\n  b: 3\n");
  ASSERT_EQ(r.diagnostics.size(), 1u) << dump(r);
  const auto& d = r.diagnostics[0];
  EXPECT_EQ(d.level, severity::error);
  EXPECT_EQ(d.where.file, "test.yaml");
  EXPECT_EQ(d.where.line, 5);
  EXPECT_GT(d.where.column, 0);
  EXPECT_NE(d.message.find("YAML syntax error"), std::string::npos);
  EXPECT_TRUE(r.documents.empty());
}

TEST(model_load, argo_kinds_require_the_v1alpha1_api_version) {
  std::string yaml = log_sensor;
  yaml.replace(0, yaml.find('\n'), "apiVersion: argoproj.io/v1");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "apiVersion", 1, 1, "must be argoproj.io/v1alpha1"));
}

TEST(model_load, metadata_name_is_required) {
  auto r = load("apiVersion: argoproj.io/v1alpha1\nkind: EventBus\nmetadata: {}\nspec:\n"
                "  jetstream:\n    version: latest\n");
  EXPECT_TRUE(has_diagnostic(r, "metadata.name", 3, 1, "metadata.name is required"));
}

TEST(model_load, a_document_that_is_not_a_map_is_an_error) {
  auto r = load("- a\n- b\n");
  EXPECT_TRUE(has_diagnostic(r, "", 1, 1, "must be a map"));
}

TEST(model_load, duplicate_keys_are_errors_at_the_second_key) {
  auto r = load(std::string{log_sensor} + "  dependencies: []\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies", 14, 3, "duplicate key \"dependencies\""));
}

TEST(model_load, unknown_fields_warn_by_default_and_fail_when_strict) {
  std::string yaml = log_sensor;
  yaml.replace(yaml.find("        log: {}"), 15, "        openwhisk: {}\n        log: {}");
  auto relaxed = load(yaml);
  EXPECT_TRUE(has_diagnostic(relaxed, "spec.triggers[0].template.openwhisk", 13, 9,
                             "unknown field \"openwhisk\"", severity::warning));
  EXPECT_FALSE(has_errors(relaxed.diagnostics)) << dump(relaxed);
  auto strict = load(yaml, load_options{.strict = true});
  EXPECT_TRUE(has_diagnostic(strict, "spec.triggers[0].template.openwhisk", 13, 9,
                             "unknown field \"openwhisk\""));
  EXPECT_TRUE(has_errors(strict.diagnostics));
}

TEST(model_load, unknown_fields_name_the_known_field_they_misspell) {
  std::string yaml = log_sensor;
  yaml.replace(yaml.find("eventName"), 9, "eventname");
  yaml.replace(yaml.find("        log: {}"), 15, "        openwhisk: {}\n        log: {}");
  yaml.replace(yaml.find("  name: webhook"), 15, "  name: webhook\n  colour: red");
  auto r = load(yaml);
  auto [line, column] = position_of(yaml, "eventname");
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0].eventname", line, column,
                             R"(unknown field "eventname"; did you mean "eventName"?)",
                             severity::warning));
  std::tie(line, column) = position_of(yaml, "openwhisk");
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.openwhisk", line, column,
                             R"(unknown field "openwhisk"; did you mean "openWhisk"?)",
                             severity::warning));
  std::tie(line, column) = position_of(yaml, "colour");
  EXPECT_TRUE(has_diagnostic(r, "metadata.colour", line, column, R"(unknown field "colour")",
                             severity::warning));
  for (const auto& d : r.diagnostics) {
    if (d.path == "metadata.colour") {
      EXPECT_EQ(d.message.find("did you mean"), std::string::npos) << d.message;
    }
  }

  std::string typo = log_sensor;
  typo.replace(typo.find("  dependencies"), 14, "  dependancies");
  auto t = load(typo);
  std::tie(line, column) = position_of(typo, "dependancies");
  EXPECT_TRUE(has_diagnostic(t, "spec.dependancies", line, column,
                             R"(unknown field "dependancies"; did you mean "dependencies"?)",
                             severity::warning));
}

TEST(model_load, argo_fields_ganglion_does_not_run_are_accepted_silently) {
  auto r = load("apiVersion: argoproj.io/v1alpha1\nkind: EventSource\nmetadata:\n  name: k\n"
                "spec:\n  service:\n    ports:\n      - port: 12000\n        targetPort: 12000\n"
                "  template:\n    serviceAccountName: sa\n    container:\n"
                "      resources: {limits: {cpu: 100m}}\n"
                "  kafka:\n    k:\n      url: kafka:9092\n      topic: t\n      partition: \"0\"\n"
                "      connectionBackoff: {duration: 10s, steps: 5, factor: 2}\n");
  EXPECT_TRUE(clean(r));
}

TEST(model_load, scalar_type_mismatches_are_errors_with_location) {
  std::string yaml = log_sensor;
  yaml.replace(yaml.find("        log: {}"), 15, "        log:\n          intervalSeconds: abc");
  yaml += "  replicas: {a: 1}\n  eventBusName: [x]\n";
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.log.intervalSeconds", 14, 11,
                             "expected an integer, got \"abc\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.replicas", 15, 3, "expected an integer, got a map"));
  EXPECT_TRUE(has_diagnostic(r, "spec.eventBusName", 16, 3, "expected a string, got a list"));
}

TEST(model_load, a_value_of_the_wrong_shape_is_reported_once) {
  auto r = load("apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n  name: s\n"
                "spec:\n  dependencies:\n    - 42\n  triggers:\n    - template: [log]\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0]", 7, 7, "expected a map, got \"42\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template", 9, 7,
                             "expected a map, got a list"));
  // Not also "name is required", "trigger template must define exactly one action" …
  EXPECT_EQ(r.diagnostics.size(), 2u) << dump(r);
}

TEST(model_load, locations_cover_every_node_and_quote_odd_keys) {
  auto r = load(std::string{webhook_source}
                + "    \"dotted.name\":\n      port: \"13000\"\n      endpoint: /x\n"
                  "      method: POST\n");
  ASSERT_EQ(r.documents.size(), 1u) << dump(r);
  const auto& doc = r.documents[0];
  auto at = [&](const std::string& path) {
    auto it = doc.locations.find(path);
    return it == doc.locations.end() ? std::make_pair(0, 0)
                                     : std::make_pair(it->second.line, it->second.column);
  };
  EXPECT_EQ(at("spec.webhook.example.endpoint"), std::make_pair(9, 7));
  EXPECT_EQ(at("spec.webhook[\"dotted.name\"].port"), std::make_pair(12, 7));
  EXPECT_EQ(at("metadata.name"), std::make_pair(4, 3));
  // A missing node is located at its nearest existing ancestor.
  auto where = doc.locate("spec.webhook.example.filter.expression");
  EXPECT_EQ(where.line, 7);
  EXPECT_EQ(where.column, 5);
  EXPECT_EQ(where.file, "test.yaml");
}

TEST(model_load, sequence_items_are_located_at_the_item) {
  auto r = load(log_sensor);
  const auto& doc = r.documents.at(0);
  EXPECT_EQ(doc.locate("spec.dependencies[0]").line, 7);
  EXPECT_EQ(doc.locate("spec.dependencies[0]").column, 7);
  EXPECT_EQ(doc.locate("spec.triggers[0].template.name").line, 12);
}

TEST(model_load, directories_are_read_recursively_for_yaml_and_yml_only) {
  temp_dir dir;
  dir.write("a/source.yaml", webhook_source);
  dir.write("b/c/sensor.yml", log_sensor);
  dir.write("b/notes.txt", "kind: Sensor\n");
  auto r = load_manifests({dir.path()});
  ASSERT_TRUE(clean(r));
  ASSERT_EQ(r.documents.size(), 2u);
  EXPECT_EQ(r.documents[0].kind, "EventSource");
  EXPECT_NE(r.documents[0].where.file.find("source.yaml"), std::string::npos);
  EXPECT_EQ(r.documents[1].kind, "Sensor");
  EXPECT_NE(r.documents[1].where.file.find("sensor.yml"), std::string::npos);
}

TEST(model_load, a_mounted_config_map_loads_each_object_once_through_its_links) {
  // Kubernetes' atomic writer: the files in a timestamped directory, `..data` linking to it,
  // and a link per key through `..data`.
  namespace fs = std::filesystem;
  temp_dir dir;
  const std::string stamp = "..2026_12_01_22_00_00.123456789";
  dir.write(stamp + "/source.yaml", webhook_source);
  dir.write(stamp + "/sensor.yml", log_sensor);
  fs::create_directory_symlink(stamp, dir.path() + "/..data");
  fs::create_symlink("..data/source.yaml", dir.path() + "/source.yaml");
  fs::create_symlink("..data/sensor.yml", dir.path() + "/sensor.yml");
  auto r = load_manifests({dir.path()});
  ASSERT_TRUE(clean(r));
  ASSERT_EQ(r.documents.size(), 2u);
  EXPECT_EQ(r.documents[0].where.file, dir.path() + "/sensor.yml");
  EXPECT_EQ(r.documents[1].where.file, dir.path() + "/source.yaml");
}

TEST(model_load, two_objects_of_one_kind_and_name_are_an_error_naming_both) {
  std::string second = webhook_source;
  second.replace(second.find("example"), 7, "other");
  auto yaml = std::string{webhook_source} + "---\n" + second;
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(
    r, "metadata.name", position_of(yaml, "name: webhook", 2),
    R"(EventSource "webhook" is defined twice: here and at test.yaml:4:3)"));
  EXPECT_EQ(r.diagnostics.size(), 1u) << dump(r);

  auto other_namespace = std::string{log_sensor} + "---\n" + log_sensor;
  other_namespace.insert(other_namespace.rfind("  name: webhook"), "  namespace: b\n");
  EXPECT_TRUE(has_diagnostic(load(other_namespace), "metadata.name", 19, 3,
                             "Sensor \"webhook\" is defined twice: here and at test.yaml:4:3 "
                             "(in another namespace"));
}

TEST(model_load, the_same_name_in_two_files_is_an_error_naming_both_files) {
  temp_dir dir;
  auto first = dir.write("a.yaml", log_sensor);
  auto second = dir.write("b/again.yaml", std::string{"# the same sensor\n"} + log_sensor);
  auto r = load_manifests({dir.path()});
  ASSERT_EQ(r.diagnostics.size(), 1u) << dump(r);
  EXPECT_EQ(r.diagnostics[0].to_string(),
            second + ":5:3: metadata.name: Sensor \"webhook\" is defined twice: here and at "
              + first + ":4:3");
}

TEST(model_load, files_are_named_in_their_diagnostics) {
  temp_dir dir;
  auto file = dir.write("s.yaml", std::string{log_sensor} + "  bogus: 1\n");
  auto r = load_manifests({file});
  ASSERT_EQ(r.diagnostics.size(), 1u) << dump(r);
  EXPECT_EQ(r.diagnostics[0].where.file, file);
  EXPECT_EQ(r.diagnostics[0].to_string(),
            file + ":14:3: warning: spec.bogus: unknown field \"bogus\"");
}

TEST(model_load, a_missing_path_is_a_diagnostic_on_that_path) {
  auto r = load_manifests({"/nonexistent/ganglion/manifest.yaml"});
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].where.file, "/nonexistent/ganglion/manifest.yaml");
  EXPECT_EQ(r.diagnostics[0].level, severity::error);
  EXPECT_TRUE(r.documents.empty());
  // No line or column to give: the file is named alone, never `file:0:0:`.
  EXPECT_EQ(r.diagnostics[0].to_string().rfind("/nonexistent/ganglion/manifest.yaml: ", 0), 0u)
    << r.diagnostics[0].to_string();
}

TEST(model_load, an_empty_directory_is_an_error) {
  temp_dir dir;
  auto r = load_manifests({dir.path()});
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("no *.yaml"), std::string::npos);
}

TEST(model_load, an_empty_directory_is_no_error_when_the_options_allow_it) {
  temp_dir dir;
  load_options options;
  options.empty_directory_ok = true;
  auto r = load_manifests({dir.path()}, options);
  EXPECT_TRUE(r.diagnostics.empty()) << dump(r);
  EXPECT_TRUE(r.documents.empty());
}

TEST(model_load, empty_documents_and_comments_are_skipped) {
  auto r = load("# only a comment\n---\n---\n");
  EXPECT_TRUE(clean(r));
  EXPECT_TRUE(r.documents.empty());
}

TEST(model_load, diagnostic_text_has_the_file_line_column_path_form) {
  diagnostic d{severity::error, {"f.yaml", 3, 7}, "spec.x", "bad"};
  EXPECT_EQ(d.to_string(), "f.yaml:3:7: spec.x: bad");
  d.level = severity::warning;
  EXPECT_EQ(d.to_string(), "f.yaml:3:7: warning: spec.x: bad");
  EXPECT_EQ(d.without_level(), "f.yaml:3:7: spec.x: bad");
  EXPECT_TRUE(has_errors({diagnostic{}, d}));
  EXPECT_FALSE(has_errors({d}));
}

TEST(model_load, an_object_of_the_cluster_is_named_without_line_or_column) {
  auto result = load_object_text(
    R"({"apiVersion":"argoproj.io/v1alpha1","kind":"Sensor","metadata":{"name":"s",)"
    R"("namespace":"default","uid":"u","generation":2},"spec":{"dependencies":[)"
    R"({"name":"d","eventSourceName":"e"}],"triggers":[{"template":)"
    R"({"name":"t","log":{}}}]}})",
    "Sensor default/s");
  ASSERT_EQ(result.documents.size(), 1u);
  EXPECT_TRUE(result.documents[0].where.object);
  ASSERT_TRUE(has_errors(result.diagnostics));
  const auto& first = result.diagnostics.front();
  EXPECT_EQ(first.path.rfind("spec.dependencies[0]", 0), 0u) << first.to_string();
  EXPECT_EQ(first.to_string().rfind("Sensor default/s: spec.dependencies[0]", 0), 0u)
    << first.to_string();
}
