// Rules of the file kind: Argo's file validate.go and WatchPathConfig.Validate, plus warnings
// where Argo accepts an event that never fires. Every diagnostic at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(file_spec_rules, event_type_and_directory_are_required) {
  auto yaml = event_source_yaml("  file:\n    f:\n      watchPathConfig: {path: a}\n");
  auto r = load(yaml);
  const auto f = position_of(yaml, "f:");
  EXPECT_TRUE(has_diagnostic(r, "spec.file.f.eventType", f, "eventType is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.file.f.watchPathConfig.directory",
                             position_of(yaml, "watchPathConfig"), "directory is required"));
}

TEST(file_spec_rules, watch_path_config_rules) {
  auto yaml = event_source_yaml("  file:\n    f:\n      eventType: CREATE\n"
                                "      watchPathConfig: {directory: tmp, path: /a, pathRegexp: \"(\"}\n"
                                "    g:\n      eventType: CREATE\n"
                                "      watchPathConfig: {directory: /tmp/}\n");
  auto r = load(yaml);
  const std::string at = "spec.file.f.watchPathConfig";
  EXPECT_TRUE(has_diagnostic(r, at + ".directory", position_of(yaml, "directory"),
                             "directory must be an absolute path"));
  EXPECT_TRUE(has_diagnostic(r, at, position_of(yaml, "watchPathConfig"),
                             "path or pathRegexp, not both"));
  EXPECT_TRUE(has_diagnostic(r, at + ".path", position_of(yaml, "path:"),
                             "path must be relative to directory"));
  EXPECT_TRUE(has_diagnostic(r, at + ".pathRegexp", position_of(yaml, "pathRegexp"),
                             "invalid regular expression"));
  EXPECT_TRUE(has_diagnostic(r, "spec.file.g.watchPathConfig",
                             position_of(yaml, "watchPathConfig", 2),
                             "watchPathConfig needs path or pathRegexp"));
}

TEST(file_spec_rules, an_event_type_argo_never_fires_is_a_warning) {
  auto yaml = event_source_yaml("  file:\n    f:\n      eventType: create\n"
                                "      watchPathConfig: {directory: /tmp/, path: a}\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.file.f.eventType", position_of(yaml, "eventType"),
                             "eventType \"create\" never fires", severity::warning));
}

TEST(file_spec_rules, a_path_under_a_directory_without_trailing_slash_is_a_warning) {
  auto yaml = event_source_yaml("  file:\n    f:\n      eventType: CREATE\n"
                                "      watchPathConfig: {directory: /tmp, path: a}\n"
                                "    polled:\n      eventType: CREATE\n      polling: true\n"
                                "      watchPathConfig: {directory: /tmp, path: a}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.file.f.watchPathConfig.directory",
                             position_of(yaml, "directory"), "never matches", severity::warning));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.file.polled"), std::string::npos) << d.to_string();
}

TEST(file_spec_rules, sftp_needs_credentials_an_address_and_a_valid_interval) {
  auto yaml = event_source_yaml("  sftp:\n    s:\n      eventType: WRITE\n"
                                "      watchPathConfig: {directory: /d/, path: a}\n"
                                "      pollIntervalDuration: soon\n"
                                "    both:\n      eventType: CREATE\n"
                                "      username: {name: u, key: k}\n"
                                "      address: {name: a, key: k}\n"
                                "      password: {name: p, key: k}\n"
                                "      sshKeySecret: {name: s}\n"
                                "      watchPathConfig: {directory: /d/, path: a}\n");
  auto r = load(yaml);
  const auto s = position_of(yaml, "s:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.sftp.s.username", s, "username is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sftp.s.address", s, "address is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sftp.s", s, "needs password or sshKeySecret"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sftp.s.pollIntervalDuration",
                             position_of(yaml, "pollIntervalDuration"), "invalid duration \"soon\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.sftp.s.eventType", position_of(yaml, "eventType"),
                             "the events are CREATE, REMOVE", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.sftp.both.password", position_of(yaml, "password"),
                             "ignored: sshKeySecret is given", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.sftp.both.sshKeySecret.key", position_of(yaml, "sshKeySecret"),
                             "key is required"));
}

TEST(file_spec_rules, the_argo_sftp_example_is_clean) {
  auto yaml = event_source_yaml("  sftp:\n    example:\n"
                                "      username: {key: username, name: username}\n"
                                "      password: {key: password, name: password}\n"
                                "      address: {key: address, name: address}\n"
                                "      watchPathConfig: {directory: /test-data/, path: x.txt}\n"
                                "      pollIntervalDuration: 10s\n      eventType: CREATE\n");
  auto r = load(yaml);
  EXPECT_TRUE(clean(r)) << dump(r);
}
