// `validate` compiles every small language a manifest holds, with the compilers `run` uses: each
// test proves one field family is compiled and its failure located at the node.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

const std::string header = "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n"
                           "  name: s\nspec:\n  dependencies:\n    - name: dep\n"
                           "      eventSourceName: es\n      eventName: ev\n";
const std::string log_action = "  triggers:\n    - template:\n        name: t\n        log: {}\n";
const std::string dep = "spec.dependencies[0]";

// A sensor whose only dependency has `lines` (indented under the dependency) and a log trigger.
std::string with_dependency(const std::string& lines) {
  return header + lines + log_action;
}

// A sensor with one dependency and the http trigger action given by `http` (its fields).
std::string with_http(const std::string& http) {
  return header + "  triggers:\n    - template:\n        name: t\n        http:\n"
         + "          url: http://127.0.0.1:1/x\n" + http;
}

} // namespace

TEST(model_validate_compile, data_filter_path_is_a_gjson_path) {
  auto yaml = with_dependency("      filters:\n        data:\n"
                              "          - path: body.@pretty\n            type: string\n"
                              "            value: [a]\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, dep + ".filters.data[0].path", position_of(yaml, "path:"),
                             "gjson path \"body.@pretty\" does not compile"));
}

TEST(model_validate_compile, data_filter_template_is_a_go_template) {
  auto yaml = with_dependency("      filters:\n        data:\n"
                              "          - path: body.a\n            type: string\n"
                              "            value: [a]\n            template: \"{{ .Input \"\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, dep + ".filters.data[0].template", position_of(yaml, "template:"),
                             "Go template \"{{ .Input \" does not compile"));
}

TEST(model_validate_compile, data_filter_string_values_are_regexes) {
  auto yaml = with_dependency("      filters:\n        data:\n"
                              "          - path: body.a\n            type: string\n"
                              "            value:\n              - ok|fine\n"
                              "              - \"(a\"\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, dep + ".filters.data[0].value[1]", position_of(yaml, "\"(a\""),
                             "invalid regular expression \"(a\": missing )"));
  EXPECT_EQ(r.diagnostics.size(), 1u) << dump(r);
}

TEST(model_validate_compile, expr_filters_compile_the_expression_and_field_paths) {
  auto yaml = with_dependency("      filters:\n        exprs:\n"
                              "          - expr: \"a ==\"\n            fields:\n"
                              "              - name: a\n                path: \"b..0\"\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, dep + ".filters.exprs[0].expr", position_of(yaml, "expr:"),
                             "expression \"a ==\" does not compile at offset"));
  EXPECT_TRUE(has_diagnostic(r, dep + ".filters.exprs[0].fields[0].path",
                             position_of(yaml, "path:"), "gjson path \"b..0\" does not compile"));
}

TEST(model_validate_compile, filter_script_is_compiled_not_run) {
  // Running this script would never end; compiling it is instant.
  auto good = with_dependency("      filters:\n        script: \"while true do end\"\n");
  EXPECT_TRUE(clean(load(good)));
  auto yaml = with_dependency("      filters:\n        script: |\n          return (\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, dep + ".filters.script", position_of(yaml, "script:"),
                             "Lua script does not compile: script:2:"));
}

TEST(model_validate_compile, transform_jq_is_a_jq_program) {
  auto yaml = with_dependency("      transform:\n        jq: \".a | | .b\"\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, dep + ".transform.jq", position_of(yaml, "jq:"),
                             "jq program does not compile: jq: error: syntax error"));
  EXPECT_TRUE(clean(load(with_dependency("      transform:\n        jq: \".a = 1\"\n"))));
}

TEST(model_validate_compile, transform_script_is_a_lua_chunk) {
  auto yaml = with_dependency("      transform:\n        script: \"return {\"\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, dep + ".transform.script", position_of(yaml, "script:"),
                             "Lua script does not compile: script:1:"));
}

TEST(model_validate_compile, parameter_keys_are_gjson_and_dest_is_sjson) {
  auto yaml = with_http("          payload:\n"
                        "            - src: {dependencyName: dep, dataKey: \"a.@dig\"}\n"
                        "              dest: x\n"
                        "            - src: {dependencyName: dep, contextKey: id}\n"
                        "              dest: \"a|b\"\n");
  auto r = load(yaml);
  const std::string http = "spec.triggers[0].template.http";
  EXPECT_TRUE(has_diagnostic(r, http + ".payload[0].src.dataKey", position_of(yaml, "dataKey"),
                             "gjson path \"a.@dig\" does not compile"));
  EXPECT_TRUE(has_diagnostic(r, http + ".payload[1].dest", position_of(yaml, "dest: \"a|b\""),
                             "sjson dest \"a|b\" does not compile"));
}

TEST(model_validate_compile, parameter_template_without_fallback_is_an_error) {
  auto yaml = with_http("          parameters:\n"
                        "            - src: {dependencyName: dep, dataTemplate: \"{{ nope }}\"}\n"
                        "              dest: url\n"
                        "            - src:\n                dependencyName: dep\n"
                        "                contextTemplate: \"{{ .Input\"\n"
                        "                contextKey: id\n"
                        "              dest: method\n");
  auto r = load(yaml);
  const std::string http = "spec.triggers[0].template.http";
  EXPECT_TRUE(has_diagnostic(r, http + ".parameters[0].src.dataTemplate",
                             position_of(yaml, "dataTemplate"),
                             "Go template \"{{ nope }}\" does not compile"));
  // Argo falls back to contextKey when the template does not parse: run accepts it.
  EXPECT_TRUE(has_diagnostic(r, http + ".parameters[1].src.contextTemplate",
                             position_of(yaml, "contextTemplate"),
                             "does not compile, so the key is used instead",
                             severity::warning));
}

TEST(model_validate_compile, template_level_parameters_are_compiled) {
  auto yaml = with_http("      parameters:\n"
                        "        - src: {dependencyName: dep, dataKey: body}\n"
                        "          dest: \"http.#\"\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].parameters[0].dest",
                             position_of(yaml, "dest: \"http.#\""),
                             "sjson dest \"http.#\" does not compile"));
}

TEST(model_validate_compile, source_filter_expression_is_an_expression) {
  auto yaml = std::string{"apiVersion: argoproj.io/v1alpha1\nkind: EventSource\nmetadata:\n"
                          "  name: es\nspec:\n  webhook:\n    ev:\n      port: \"12000\"\n"
                          "      endpoint: /x\n      method: POST\n"
                          "      filter:\n        expression: \"a > (1\"\n"};
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.webhook.ev.filter.expression",
                             position_of(yaml, "expression"),
                             "expression \"a > (1\" does not compile at offset"));
}

TEST(model_validate_compile, parameters_of_kinds_ganglion_does_not_run_only_warn) {
  auto yaml = header + "  triggers:\n    - template:\n        name: t\n        pulsar:\n"
              + "          topic: t\n          url: pulsar://p:6650\n"
              + "          parameters:\n"
              + "            - src: {dependencyName: dep, dataTemplate: \"{{ nope }}\"}\n"
              + "              dest: subject\n";
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.pulsar.parameters[0].src.dataTemplate",
                             position_of(yaml, "dataTemplate"),
                             "Go template \"{{ nope }}\" does not compile", severity::warning));
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
}
