// Rules of the openwhisk kind: Argo's validateOpenWhiskTrigger. Every diagnostic is checked at
// its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(openwhisk_spec_rules, openwhisk_trigger_rules) {
  auto yaml =
    sensor_yaml("    - template:\n        name: a\n        openWhisk:\n"
                "          authToken: {name: t}\n"
                "          parameters:\n            - src: {dependencyName: nope, dataKey: x}\n"
                "              dest: actionName\n"
                "    - template:\n        name: b\n"
                "        openWhisk: {host: h, actionName: x, payload: []}\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.openWhisk";
  const auto ow = position_of(yaml, "openWhisk:");
  EXPECT_TRUE(has_diagnostic(r, a + ".actionName", ow, "actionName is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".host", ow, "host is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".authToken", position_of(yaml, "authToken"),
                             "authToken needs both name and key"));
  EXPECT_TRUE(has_diagnostic(r, a + ".payload", ow, "payload is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".parameters[0].src.dependencyName",
                             position_of(yaml, "dependencyName: nope"), "nope"));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.triggers[1]"), std::string::npos) << d.to_string();
}

TEST(openwhisk_spec_rules, argo_spells_the_key_openWhisk) {
  auto yaml = sensor_yaml("    - template:\n        name: a\n        openwhisk:\n"
                          "          host: h\n          actionName: x\n");
  auto r = load(yaml);
  EXPECT_TRUE(
    has_diagnostic(r, "spec.triggers[0].template.openwhisk", position_of(yaml, "openwhisk"),
                   R"(unknown field "openwhisk"; did you mean "openWhisk"?)", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template", position_of(yaml, "template:"),
                             "trigger template must define exactly one action"));
}
