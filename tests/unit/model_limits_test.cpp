// What a manifest file may cost (load_options): file size, nesting depth, nodes with aliases
// expanded ("billion laughs"), recursive aliases; and deeply nested input of every shape.

#include <cstdint>
#include <filesystem>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "model_test_support.hpp"
#include "files.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

/// Nine levels of ten-fold aliases: 10^9 nodes once expanded.
std::string billion_laughs() {
  std::string out = "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: &a [";
  for (int i = 0; i < 10; ++i)
    out += i == 0 ? "\"x\"" : ",\"x\"";
  out += "]\n";
  for (char level = 'b'; level <= 'i'; ++level) {
    out += fmt::format("  {0}: &{0} [", level);
    for (int i = 0; i < 10; ++i)
      out += fmt::format("{}*{}", i == 0 ? "" : ",", static_cast<char>(level - 1));
    out += "]\n";
  }
  return out;
}

/// `depth` nested flow lists as the value of `data`: the document is depth + 1 levels deep.
std::string nested_lists(int depth) {
  return "apiVersion: v1\nkind: ConfigMap\ndata: " + std::string(depth, '[')
         + std::string(depth, ']') + "\n";
}

/// Every diagnostic's message, for messages whose position is not the point of the test.
bool has_message(const load_result& r, std::string_view message) {
  for (const auto& d : r.diagnostics)
    if (d.message.find(message) != std::string::npos && d.level == severity::error)
      return true;
  return false;
}

} // namespace

TEST(model_limits, a_billion_laughs_is_refused_at_the_alias_that_crosses_the_limit) {
  auto yaml = billion_laughs();
  auto r = load(yaml);
  // The file holds 123 469 nodes up to f's list; each *e adds 111 111: the 8th crosses 10^6.
  EXPECT_TRUE(has_diagnostic(r, "", position_of(yaml, "*e", 8),
                             "alias expansion exceeds 1000000 nodes (alias *e)"));
  EXPECT_EQ(r.diagnostics.size(), 1u) << dump(r);
  EXPECT_TRUE(r.documents.empty());
}

TEST(model_limits, the_node_limit_counts_plain_nodes_too) {
  auto r = load(nested_lists(3), load_options{.max_nodes = 6});
  EXPECT_TRUE(has_diagnostic(r, "", 3, 7, "the file has more than 6 YAML nodes"));
  EXPECT_TRUE(clean(load(nested_lists(3), load_options{.max_nodes = 10})));
}

TEST(model_limits, the_nodes_of_every_document_of_a_file_count_together) {
  std::string yaml;
  for (int i = 0; i < 3; ++i)
    yaml += "---\nk: [1, 2, 3]\n";
  EXPECT_TRUE(clean(load(yaml, load_options{.max_nodes = 18})));
  auto r = load(yaml, load_options{.max_nodes = 17});
  // The 18th node is the third document's `3` (line 6, column 11).
  EXPECT_TRUE(has_diagnostic(r, "", 6, 11, "the file has more than 17 YAML nodes"));
  EXPECT_EQ(r.diagnostics.size(), 1u) << dump(r);
  EXPECT_TRUE(r.documents.empty()) << "the documents before the one crossing the limit go too";
}

TEST(model_limits, nesting_is_limited_to_max_depth_levels) {
  EXPECT_TRUE(clean(load(nested_lists(99))));
  // The 100th '[' opens level 101; "data: " ends at column 6.
  auto r = load(nested_lists(100));
  EXPECT_TRUE(has_diagnostic(r, "", 3, 106, "nesting deeper than 100 levels"));
  EXPECT_TRUE(has_diagnostic(load(nested_lists(10), load_options{.max_depth = 5}), "", 3, 11,
                             "nesting deeper than 5 levels"));
}

TEST(model_limits, an_alias_counts_at_the_depth_of_what_it_expands_to) {
  auto yaml = "apiVersion: v1\nkind: ConfigMap\nx: &deep " + std::string(60, '[')
              + std::string(60, ']') + "\ny: " + std::string(40, '[') + "*deep"
              + std::string(40, ']') + "\n";
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "", position_of(yaml, "*deep"),
                             "alias *deep expands to nesting deeper than 100 levels"));
}

TEST(model_limits, a_recursive_alias_is_refused_at_the_alias) {
  auto r = load("apiVersion: v1\nkind: ConfigMap\ndata: &a\n  self: *a\n");
  ASSERT_EQ(r.diagnostics.size(), 1u) << dump(r);
  EXPECT_TRUE(has_diagnostic(r, "", 4, 9, "recursive alias *a"));
}

TEST(model_limits, a_comma_after_a_document_is_an_error_not_a_hang) {
  // yaml-cpp 0.7 starts empty documents at such a ',' for ever (found by manifest_fuzz).
  for (const std::string yaml : {"[a],", "apiVersion: v1\n---\n{kind: Sensor} ,\n", "'a',"}) {
    auto r = load(yaml);
    ASSERT_EQ(r.diagnostics.size(), 1u) << dump(r);
    EXPECT_TRUE(has_diagnostic(r, "", position_of(yaml, ","),
                               "',' outside a flow collection")) << dump(r);
  }
}

TEST(model_limits, deeply_nested_input_of_any_shape_is_an_error_not_a_crash) {
  const int depth = 100'000;
  EXPECT_TRUE(has_message(load(std::string(depth, '[')), "nesting deeper than 100 levels"));
  EXPECT_TRUE(has_message(load(std::string(depth, '{')), "nesting deeper than 100 levels"));
  std::string block;
  for (int i = 0; i < depth; ++i)
    block += "- ";
  EXPECT_TRUE(has_message(load(block + "x\n"), "nesting deeper than 100 levels"));
  std::string keys;
  for (int i = 0; i < depth; ++i)
    keys += "{k: [";
  EXPECT_TRUE(has_message(load(keys), "nesting deeper than 100 levels"));
}

TEST(model_limits, random_deep_input_never_crashes) {
  const std::vector<std::string> pieces{"[", "{", "{k: ", "[a, ", "- ", "]", "}", ",", ": ",
                                        "&x ", "*x ", "\n", "\"", "? ", "!t "};
  std::mt19937 random{20261201};
  for (int round = 0; round < 100; ++round) {
    std::uniform_int_distribution<std::size_t> pick{0, pieces.size() - 1};
    std::uniform_int_distribution<int> length{1, 20'000};
    std::string text;
    // Mostly openers, so that many inputs nest far beyond the limit.
    for (int n = length(random); n > 0; --n)
      text += pieces[random() % 4 == 0 ? pick(random) : random() % 4];
    auto r = load(text);
    for (const auto& d : r.diagnostics)
      EXPECT_EQ(d.where.file, "test.yaml") << d.to_string();
  }
}

TEST(model_limits, a_nested_string_field_is_limited_too) {
  auto r = load("apiVersion: argoproj.io/v1alpha1\nkind: EventBus\nmetadata:\n  name: b\n"
                "spec:\n  jetstream:\n    streamConfig: \""
                + std::string(5000, '[') + "\"\n");
  EXPECT_TRUE(has_message(r, "streamConfig: nesting deeper than 100 levels")) << dump(r);
}

TEST(model_limits, a_file_larger_than_the_limit_is_refused_before_it_is_parsed) {
  auto small = load_options{.max_file_bytes = 64};
  auto text = "apiVersion: v1\nkind: ConfigMap\ndata: {a: b}\n" + std::string(40, '#');
  auto r = load(text, small);
  EXPECT_TRUE(has_diagnostic(r, "", 0, 0,
                             fmt::format("the file has {} bytes, more than the limit of 64 bytes",
                                         text.size())));
  EXPECT_TRUE(r.documents.empty());

  auto dir = ganglion::test::temp_dir();
  auto file = dir + "/huge.yaml";
  // Not YAML at all: refused by its size alone.
  ganglion::test::write_file(file, std::string((std::size_t{2} << 20) + 1, '['));
  auto huge = load_manifests({file});
  ASSERT_EQ(huge.diagnostics.size(), 1u) << dump(huge);
  EXPECT_EQ(huge.diagnostics[0].to_string(),
            file + ": the file has 2097153 bytes, more than the limit of 2097152 bytes");
}
