// YAML → the email kind's model (template.email): every Argo field lands in its struct field.

#include <gtest/gtest.h>

#include "ganglion/email/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace email = ganglion::email;
using namespace ganglion::dsl::testing;

TEST(email_spec_mapping, email_trigger_fields_are_modelled) {
  auto r = load(sensor_yaml("    - template:\n        name: a\n        email:\n"
                            "          username: mailer\n"
                            "          smtpPassword: {name: smtp, key: password}\n"
                            "          host: smtp.example.net\n          port: 587\n"
                            "          to: [a@example.com, b@example.com]\n"
                            "          from: bot@example.com\n          subject: Hi\n"
                            "          body: Hello\n"
                            "          parameters:\n"
                            "            - src: {dependencyName: d, dataKey: body.to}\n"
                            "              dest: to.-1\n"
                            "    - template:\n        name: b\n        email: {host: h}\n"));
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& s = only<sensor>(r);
  const auto& a = action_spec<email::trigger_spec>(s.spec.triggers.at(0).template_);
  EXPECT_EQ(a.username, "mailer");
  ASSERT_TRUE(a.smtp_password);
  EXPECT_EQ(a.smtp_password->name, "smtp");
  EXPECT_EQ(a.smtp_password->key, "password");
  EXPECT_EQ(a.host, "smtp.example.net");
  EXPECT_EQ(a.port, 587);
  EXPECT_EQ(a.to, (std::vector<std::string>{"a@example.com", "b@example.com"}));
  EXPECT_EQ(a.from, "bot@example.com");
  EXPECT_EQ(a.subject, "Hi");
  EXPECT_EQ(a.body, "Hello");
  EXPECT_EQ(s.spec.triggers.at(0).template_.actions.front().parameters.size(), 1u);
  const auto& b = action_spec<email::trigger_spec>(s.spec.triggers.at(1).template_);
  EXPECT_EQ(b.port, 0);
  EXPECT_FALSE(b.smtp_password);
  EXPECT_TRUE(b.to.empty());
}
