// YAML → the resource source's model (spec.resource.<event>): every Argo field lands in its
// struct field, with Argo's defaults.

#include <gtest/gtest.h>

#include "ganglion/kubernetes/resource_spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;
using ganglion::kubernetes::resource_event_spec;

TEST(resource_spec_mapping, every_field_is_modelled) {
  auto r = load(event_source_yaml(R"(  resource:
    workflows:
      namespace: argo-events
      group: argoproj.io
      version: v1alpha1
      resource: workflows
      eventTypes: [ADD, UPDATE, DELETE]
      metadata: {team: a}
      filter:
        prefix: my-
        afterStart: true
        createdBy: "2019-04-06T12:52:11+02:00"
        labels:
          - {key: app, operation: "==", value: my-workflow}
          - {key: tier, operation: in, value: "a,b"}
        fields:
          - {key: metadata.name, operation: "!=", value: "^x"}
)"));
  ASSERT_TRUE(clean(r));
  const auto& spec = event_spec<resource_event_spec>(only<event_source>(r), "resource", "workflows");
  EXPECT_EQ(spec.namespace_, "argo-events");
  EXPECT_EQ(spec.group, "argoproj.io");
  EXPECT_EQ(spec.version, "v1alpha1");
  EXPECT_EQ(spec.resource, "workflows");
  EXPECT_EQ(spec.event_types, (std::vector<std::string>{"ADD", "UPDATE", "DELETE"}));
  EXPECT_EQ(spec.metadata.at("team"), "a");
  ASSERT_TRUE(spec.filter);
  EXPECT_EQ(spec.filter->prefix, "my-");
  EXPECT_TRUE(spec.filter->after_start);
  ASSERT_TRUE(spec.filter->created_by);
  // 12:52:11+02:00 is 10:52:11 UTC.
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::seconds>(
              spec.filter->created_by->time_since_epoch()).count(),
            1554547931);
  ASSERT_EQ(spec.filter->labels.size(), 2u);
  EXPECT_EQ(spec.filter->labels[1].key, "tier");
  EXPECT_EQ(spec.filter->labels[1].operation, "in");
  EXPECT_EQ(spec.filter->labels[1].value, "a,b");
  ASSERT_EQ(spec.filter->fields.size(), 1u);
  EXPECT_EQ(spec.filter->fields[0].key, "metadata.name");
  EXPECT_EQ(spec.filter->fields[0].operation, "!=");
  EXPECT_EQ(spec.filter->fields[0].value, "^x");
}

TEST(resource_spec_mapping, defaults_are_argos) {
  auto r = load(event_source_yaml("  resource:\n    pods:\n      version: v1\n"
                                  "      resource: pods\n      eventTypes: [ADD]\n"));
  ASSERT_TRUE(clean(r));
  const auto& spec = event_spec<resource_event_spec>(only<event_source>(r), "resource", "pods");
  EXPECT_EQ(spec.namespace_, ""); // every namespace
  EXPECT_EQ(spec.group, "");      // the core group
  EXPECT_FALSE(spec.filter);
  EXPECT_TRUE(spec.metadata.empty());
}

TEST(resource_spec_mapping, an_empty_created_by_is_no_filter) {
  auto r = load(event_source_yaml("  resource:\n    pods:\n      version: v1\n"
                                  "      resource: pods\n      eventTypes: [ADD]\n"
                                  "      filter: {createdBy: \"\", prefix: p}\n"));
  ASSERT_TRUE(clean(r));
  const auto& spec = event_spec<resource_event_spec>(only<event_source>(r), "resource", "pods");
  ASSERT_TRUE(spec.filter);
  EXPECT_FALSE(spec.filter->created_by);
  EXPECT_FALSE(spec.filter->after_start);
}

TEST(resource_spec_mapping, the_corpus_example_loads_clean) {
  auto r = load(event_source_yaml(R"(  resource:
    example:
      namespace: argo-events
      group: argoproj.io
      version: v1alpha1
      resource: workflows
      eventTypes:
        - ADD
      filter:
        afterStart: true
        labels:
          - key: app
            operation: "=="
            value: my-workflow
)"));
  EXPECT_TRUE(clean(r));
}
