// YAML → the file transport's models (spec.file.<event>, spec.sftp.<event>): every Argo field
// lands in its struct field, with Argo's defaults.

#include <gtest/gtest.h>

#include "ganglion/file/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace file = ganglion::file;
using namespace ganglion::dsl::testing;

TEST(file_spec_mapping, file_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  file:
    example:
      watchPathConfig:
        directory: /test-data/
        path: x.txt
      eventType: CREATE
      polling: true
      metadata: {team: a, zone: b}
      filter: {expression: "true"}
    regex:
      watchPathConfig: {directory: /bin/, pathRegexp: "([a-z]+).txt"}
      eventType: WRITE
      metadata: {}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& f = event_spec<file::event_spec>(es, "file", "example");
  EXPECT_EQ(f.event_type, "CREATE");
  EXPECT_EQ(f.watch_path.directory, "/test-data/");
  EXPECT_EQ(f.watch_path.path, "x.txt");
  EXPECT_EQ(f.watch_path.path_regexp, "");
  EXPECT_TRUE(f.polling);
  ASSERT_TRUE(f.metadata);
  EXPECT_EQ(f.metadata->at("zone"), "b");
  EXPECT_EQ(es.spec.find("file", "example")->filter->expression, "true");
  const auto& g = event_spec<file::event_spec>(es, "file", "regex");
  EXPECT_EQ(g.watch_path.path_regexp, "([a-z]+).txt");
  EXPECT_FALSE(g.polling);
  ASSERT_TRUE(g.metadata); // `{}`: Argo writes "metadata":{} rather than null
  EXPECT_TRUE(g.metadata->empty());
}

TEST(file_spec_mapping, absent_metadata_stays_absent) {
  auto r = load(event_source_yaml("  file:\n    f:\n      eventType: REMOVE\n"
                                  "      watchPathConfig: {directory: /d/, path: a}\n"));
  ASSERT_TRUE(clean(r)) << dump(r);
  EXPECT_FALSE(event_spec<file::event_spec>(only<event_source>(r), "file", "f").metadata);
}

TEST(file_spec_mapping, sftp_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: sftp}
spec:
  sftp:
    example:
      username: {key: username, name: username}
      password: {key: password, name: password}
      address: {key: address, name: address}
      watchPathConfig:
        directory: /test-data/
        path: x.txt
      pollIntervalDuration: 10s
      eventType: CREATE
      metadata: {a: b}
    keyed:
      username: {key: username, name: username}
      sshKeySecret: {key: key, name: ssh}
      address: {key: address, name: address}
      watchPathConfig: {directory: /d/, pathRegexp: "\\.csv$"}
      eventType: REMOVE
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& s = event_spec<file::sftp_event_spec>(es, "sftp", "example");
  EXPECT_EQ(s.event_type, "CREATE");
  EXPECT_EQ(s.watch_path.directory, "/test-data/");
  EXPECT_EQ(s.watch_path.path, "x.txt");
  EXPECT_EQ(s.username->name, "username");
  EXPECT_EQ(s.password->key, "password");
  EXPECT_EQ(s.address->name, "address");
  EXPECT_FALSE(s.ssh_key_secret);
  EXPECT_EQ(s.poll_interval_duration, "10s");
  EXPECT_EQ(s.metadata->at("a"), "b");
  const auto& k = event_spec<file::sftp_event_spec>(es, "sftp", "keyed");
  EXPECT_EQ(k.ssh_key_secret->name, "ssh");
  EXPECT_FALSE(k.password);
  EXPECT_EQ(k.watch_path.path_regexp, "\\.csv$");
  EXPECT_EQ(k.poll_interval_duration, ""); // 10 s at run time
  EXPECT_FALSE(k.metadata);
}
