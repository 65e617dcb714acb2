// Rules of the email kind: Argo's validateEmailTrigger. Every diagnostic is checked at its path
// and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(email_spec_rules, email_trigger_rules) {
  auto yaml =
    sensor_yaml("    - template:\n        name: a\n        email:\n          port: 70000\n"
                "          smtpPassword: {name: smtp}\n"
                "          parameters:\n            - src: {dependencyName: nope, dataKey: x}\n"
                "              dest: body\n"
                "    - template:\n        name: b\n        email: {host: h, port: 0}\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.email";
  EXPECT_TRUE(has_diagnostic(r, a + ".host", position_of(yaml, "email:"), "host is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".port", position_of(yaml, "port: 70000"),
                             "port must be between 0 and 65535"));
  EXPECT_TRUE(has_diagnostic(r, a + ".smtpPassword.key", position_of(yaml, "smtpPassword"),
                             "key is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".parameters[0].src.dependencyName",
                             position_of(yaml, "dependencyName: nope"), "nope"));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.triggers[1]"), std::string::npos) << d.to_string();
}
