// The custom trigger's `spec` as FetchResource receives it: the bytes of Argo's
// ghodss/yaml.Marshal (go-yaml v2) for a map of strings.

#include <gtest/gtest.h>

#include "trigger/custom_spec_yaml.hpp"

using namespace ganglion::grpc::detail;

TEST(grpc_custom_spec_yaml, keys_in_go_yaml_order_one_line_each) {
  EXPECT_EQ(spec_yaml({{"url", "https://example.com/a.yaml"}, {"name", "build"}}),
            "name: build\nurl: https://example.com/a.yaml\n");
  EXPECT_EQ(spec_yaml({}), "{}\n");
}

TEST(grpc_custom_spec_yaml, strings_yaml_reads_as_other_types_are_double_quoted) {
  EXPECT_EQ(spec_yaml({{"a", "true"},
                       {"b", "3"},
                       {"c", ""},
                       {"d", "null"},
                       {"e", "1.5"},
                       {"f", "2024-01-02"},
                       {"g", "yes"},
                       {"h", "0x1F"},
                       {"i", "1e3"},
                       {"j", "~"},
                       {"k", ".inf"},
                       {"l", "1:30"}}),
            "a: \"true\"\nb: \"3\"\nc: \"\"\nd: \"null\"\ne: \"1.5\"\nf: \"2024-01-02\"\n"
            "g: \"yes\"\nh: \"0x1F\"\ni: \"1e3\"\nj: \"~\"\nk: \".inf\"\nl: \"1:30\"\n");
}

TEST(grpc_custom_spec_yaml, other_strings_stay_plain_or_single_quoted) {
  EXPECT_EQ(spec_yaml({{"a", "truth"},
                       {"b", "3 apples"},
                       {"c", "a: b"},
                       {"d", "-x"},
                       {"e", "#tag"},
                       {"f", "v1.2.3"},
                       {"g", "<<"}}),
            "a: truth\nb: 3 apples\nc: 'a: b'\nd: -x\ne: '#tag'\nf: v1.2.3\ng: <<\n");
}

TEST(grpc_custom_spec_yaml, keys_are_quoted_like_values) {
  EXPECT_EQ(spec_yaml({{"on", "x"}, {"2", "y"}}), "\"2\": \"y\"\n\"on\": x\n");
}

TEST(grpc_custom_spec_yaml, several_lines_stay_one_string) {
  EXPECT_EQ(spec_yaml({{"script", "a\nb"}}), "script: \"a\\nb\"\n");
}

TEST(grpc_custom_spec_yaml, go_yaml_key_order_compares_numbers_by_value) {
  EXPECT_TRUE(go_yaml_key_less("item2", "item10"));
  EXPECT_FALSE(go_yaml_key_less("item10", "item2"));
  EXPECT_TRUE(go_yaml_key_less("a", "b"));
  EXPECT_TRUE(go_yaml_key_less("a", "ab"));
  EXPECT_TRUE(go_yaml_key_less("a_b", "ab")); // a non-letter before a letter
  EXPECT_TRUE(go_yaml_key_less("A", "a"));
  EXPECT_TRUE(go_yaml_key_less("a1", "a01"));
}

TEST(grpc_custom_spec_yaml, the_spec_after_template_parameters) {
  EXPECT_EQ(spec_of_custom_json(R"({"serverURL":"x:1","spec":{"url":"u","n":"1"}})"),
            (std::map<std::string, std::string>{{"n", "1"}, {"url", "u"}}));
  EXPECT_TRUE(spec_of_custom_json(R"({"serverURL":"x:1"})").empty());
  EXPECT_THROW(spec_of_custom_json(R"({"spec":{"n":1}})"), std::runtime_error);
  EXPECT_THROW(spec_of_custom_json(R"({"spec":"x"})"), std::runtime_error);
}
