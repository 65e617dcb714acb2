// Rules of the calendar kind that ganglion adds to Argo's calendar validate.go (Argo's own are
// in tests/unit/model_validate_source_test.cpp). Every diagnostic at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(calendar_spec_rules, an_interval_under_a_second_is_refused) {
  auto yaml = event_source_yaml("  calendar:\n    fast: {interval: 500ms}\n    ok: {interval: 1s}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.calendar.fast.interval", position_of(yaml, "interval"),
                             "interval \"500ms\" is shorter than 1s: Argo's calendar would fire "
                             "without pause; use 1s or more"));
  EXPECT_EQ(r.diagnostics.size(), 1u);
}

TEST(calendar_spec_rules, exclusion_dates_without_the_prefix_are_warned_and_bad_dates_refused) {
  auto yaml = event_source_yaml("  calendar:\n    c:\n      interval: 1h\n      exclusionDates:\n"
                                "        - \"20190102T150405Z\"\n"
                                "        - \"EXDATE:20190102T150405Z,20191302T000000Z\"\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.calendar.c.exclusionDates[0]",
                             position_of(yaml, "\"20190102"),
                             "ignored: an exclusion date must look like EXDATE:20060102T150405Z",
                             severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.calendar.c.exclusionDates[1]", position_of(yaml, "\"EXDATE"),
                             "invalid exclusion date \"20191302T000000Z\" (expected "
                             "20060102T150405Z)"));
}

TEST(calendar_spec_rules, catchup_max_duration_is_a_go_duration) {
  auto yaml = event_source_yaml("  calendar:\n    c:\n      interval: 1h\n      persistence:\n"
                                "        catchup: {enabled: true, maxDuration: soon}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.calendar.c.persistence.catchup.maxDuration",
                             position_of(yaml, "maxDuration"), "invalid duration \"soon\""));
}
