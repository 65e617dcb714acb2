// YAML → the openwhisk kind's model (template.openWhisk): every Argo field lands in its struct
// field, with OpenWhisk's defaults.

#include <gtest/gtest.h>

#include "ganglion/openwhisk/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace openwhisk = ganglion::openwhisk;
using namespace ganglion::dsl::testing;

TEST(openwhisk_spec_mapping, openwhisk_trigger_fields_are_modelled) {
  auto r =
    load(sensor_yaml("    - template:\n        name: a\n        openWhisk:\n"
                     "          host: https://ow.example:3233\n"
                     "          version: v2\n          namespace: guest\n"
                     "          authToken: {name: ow, key: token}\n"
                     "          actionName: hello\n"
                     "          payload:\n"
                     "            - src: {dependencyName: d, dataKey: body.x}\n"
                     "              dest: x\n"
                     "    - template:\n        name: b\n        openWhisk:\n"
                     "          host: ow:3233\n          actionName: hi\n"
                     "          authToken: {name: ow, key: token}\n          payload: []\n"));
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& s = only<sensor>(r);
  const auto& a = action_spec<openwhisk::trigger_spec>(s.spec.triggers.at(0).template_);
  EXPECT_EQ(a.host, "https://ow.example:3233");
  EXPECT_EQ(a.version, "v2");
  EXPECT_EQ(a.namespace_, "guest");
  ASSERT_TRUE(a.auth_token);
  EXPECT_EQ(a.auth_token->name, "ow");
  EXPECT_EQ(a.auth_token->key, "token");
  EXPECT_EQ(a.action_name, "hello");
  EXPECT_EQ(s.spec.triggers.at(0).template_.actions.front().payload.size(), 1u);
  const auto& b = action_spec<openwhisk::trigger_spec>(s.spec.triggers.at(1).template_);
  EXPECT_EQ(b.version, "v1");
  EXPECT_EQ(b.namespace_, "_");
}
