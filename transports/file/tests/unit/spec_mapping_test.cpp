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
