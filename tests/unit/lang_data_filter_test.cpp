// Data and context filters: the cases of Argo's filter_data_test.go and filter_ctx_test.go.

#include <gtest/gtest.h>

#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/filter/filter_eval.hpp"

namespace {

using ganglion::dsl::compile_error;
using ganglion::dsl::compiled_data_filter;
using ganglion::dsl::compiled_data_filters;
using ganglion::dsl::data_filter;
using ganglion::dsl::event_view;
using ganglion::dsl::filter_outcome;

data_filter filter(std::string path, std::string type, std::vector<std::string> values,
                   std::string comparator = "") {
  data_filter f;
  f.path = std::move(path);
  f.type = std::move(type);
  f.value = std::move(values);
  f.comparator = std::move(comparator);
  return f;
}

class data_filter_test : public ::testing::Test {
protected:
  // Runs the filters on `data` parsed as the sensor does.
  filter_outcome run(const std::vector<data_filter>& filters, std::string_view data,
                     const std::string& op = "") {
    event_view e;
    e.datacontenttype = "application/json";
    e.data_raw = data;
    if (!data.empty()) {
      auto parsed = parser_.parse(std::string(data));
      if (!parsed.error()) {
        e.data = parsed.value_unsafe();
        e.data_is_json = true;
      }
    }
    return compiled_data_filters(filters, op).evaluate(e);
  }

  bool passes(const data_filter& f, std::string_view data) {
    auto out = run({f}, data);
    EXPECT_EQ(out.error, "");
    return out.pass;
  }

  simdjson::dom::parser parser_;
};

TEST_F(data_filter_test, nil_data_passes_and_invalid_data_errors) {
  auto f = filter("k", "string", {"v"});
  EXPECT_TRUE(run({f}, "").pass);
  auto bad = run({f}, "a");
  EXPECT_FALSE(bad.pass);
  EXPECT_EQ(bad.error, "data filter error (event data not valid JSON)");
  EXPECT_TRUE(run({}, R"({"k": "v"})").pass);
}

TEST_F(data_filter_test, a_path_past_its_budget_is_a_cut_off_error) {
  std::string path = "{a:@values,b:@values}";
  for (int i = 0; i < 39; ++i)
    path += "|{a:@values,b:@values}";
  for (const std::string op : {"", "or"}) {
    auto out = run({filter(path, "string", {"v"})}, R"({"x":"0123456789"})", op);
    EXPECT_FALSE(out.pass);
    EXPECT_TRUE(out.cut_off) << op;
    EXPECT_NE(out.error.find("exceeded its evaluation budget"), std::string::npos) << out.error;
  }
  auto fine = run({filter("x", "string", {"0123"})}, R"({"x":"0123456789"})");
  EXPECT_TRUE(fine.pass);
  EXPECT_FALSE(fine.cut_off);
}

TEST_F(data_filter_test, string_equal_and_not_equal) {
  EXPECT_TRUE(passes(filter("k", "string", {"v"}), R"({"k": "v"})"));
  EXPECT_TRUE(passes(filter("k", "string", {"v"}, "="), R"({"k": "v"})"));
  EXPECT_TRUE(passes(filter("k", "string", {"b"}, "!="), R"({"k": "v"})"));
  EXPECT_FALSE(passes(filter("k", "string", {"v"}, "!="), R"({"k": "v"})"));
  EXPECT_FALSE(passes(filter("k", "string", {"a"}), R"({"k": "v"})"));
}

TEST_F(data_filter_test, string_regex_is_unanchored) {
  EXPECT_TRUE(passes(filter("action", "string", {"open"}), R"({"action": "reopened"})"));
  EXPECT_FALSE(passes(filter("action", "string", {"^open"}), R"({"action": "reopened"})"));
  EXPECT_TRUE(passes(filter("action", "string", {"opened|closed"}), R"({"action": "closed"})"));
}

TEST_F(data_filter_test, string_other_comparators_never_match) {
  EXPECT_FALSE(passes(filter("k", "string", {"v"}, ">"), R"({"k": "v"})"));
  EXPECT_FALSE(passes(filter("k", "string", {"a"}, "<="), R"({"k": "v"})"));
}

TEST_F(data_filter_test, string_of_numbers_bools_objects_and_multipaths) {
  EXPECT_TRUE(passes(filter("n", "string", {"^42$"}), R"({"n": 42})"));
  EXPECT_TRUE(passes(filter("n", "string", {"^1\\.5$"}), R"({"n": 1.50})"));
  EXPECT_TRUE(passes(filter("b", "string", {"^true$"}), R"({"b": true})"));
  EXPECT_TRUE(passes(filter("o", "string", {R"(^\{"a")"}), R"({"o": {"a": 1}})"));
  EXPECT_TRUE(passes(filter(R"([k,k1.a.#(k2=="v2").k2])", "string", {R"(\bv\b.*\bv2\b)"}, "="),
                     R"({"k": "v", "k1": {"a": [{"k2": "v2"}]}})"));
  EXPECT_TRUE(passes(filter(R"([k,k1.a.#(k2=="v2").k2,,k1.a.#(k2=="v3").k2])", "string",
                            {R"((\bz\b.*\bv2\b)|(\bv\b.*(\bv2\b.*\bv3\b)))"}),
                     R"({"k": "v", "k1": {"a": [{"k2": "v2"}, {"k2": "v3"}]}})"));
}

TEST_F(data_filter_test, number_from_string_and_number_data) {
  for (const char* data : {R"({"k": "1.0"})", R"({"k": 1.0})"})
    EXPECT_TRUE(passes(filter("k", "number", {"1.0"}), data)) << data;
  for (const char* data : {R"({"k": "2.0"})", R"({"k": 2.0})"}) {
    EXPECT_TRUE(passes(filter("k", "number", {"1.0"}, ">"), data)) << data;
    EXPECT_TRUE(passes(filter("k", "number", {"1.0"}, ">="), data)) << data;
    EXPECT_FALSE(passes(filter("k", "number", {"1.0"}, "<="), data)) << data;
    EXPECT_FALSE(passes(filter("k", "number", {"1.0"}, "<"), data)) << data;
  }
  for (const char* data : {R"({"k": "1.0"})", R"({"k": 1.0})"})
    EXPECT_FALSE(passes(filter("k", "number", {"1.0"}, "!="), data)) << data;
  for (const char* data : {R"({"k": "5.0"})", R"({"k": 5})"})
    EXPECT_TRUE(passes(filter("k", "number", {"5.0"}, "="), data)) << data;
  EXPECT_TRUE(passes(filter("k", "number", {"10.0"}), R"({"k": 10.0})"));
}

TEST_F(data_filter_test, numbers_in_go_syntax_as_validate_reads_them) {
  // strconv.ParseFloat, the one validate uses: hex floats and `_` between digits.
  EXPECT_TRUE(passes(filter("k", "number", {"0x1p3"}), R"({"k": 8})"));
  EXPECT_TRUE(passes(filter("k", "number", {"0x1p3"}), R"({"k": "0x1p3"})"));
  EXPECT_TRUE(passes(filter("k", "number", {"1_0.5"}), R"({"k": 10.5})"));
  EXPECT_FALSE(passes(filter("k", "number", {"0x1p3"}), R"({"k": 3})"));
  EXPECT_THROW(compiled_data_filter(filter("k", "number", {"1__0"})), compile_error);
}

TEST_F(data_filter_test, number_coercion_of_non_numbers) {
  EXPECT_TRUE(passes(filter("k", "number", {"0"}), R"({"k": "abc"})"));
  EXPECT_TRUE(passes(filter("k", "number", {"1"}), R"({"k": true})"));
}

TEST_F(data_filter_test, values_are_ored_including_the_not_equal_quirk) {
  EXPECT_TRUE(passes(filter("k", "number", {"1", "2"}, "!="), R"({"k": 1})"));
  EXPECT_TRUE(passes(filter("k", "number", {"3", "7"}), R"({"k": 7})"));
  EXPECT_TRUE(passes(filter("k", "string", {"x", "y"}, "!="), R"({"k": "x"})"));
}

TEST_F(data_filter_test, bool_ignores_the_comparator) {
  EXPECT_TRUE(passes(filter("k", "bool", {"true"}), R"({"k": true})"));
  EXPECT_TRUE(passes(filter("k", "bool", {"T"}, "!="), R"({"k": true})"));
  EXPECT_TRUE(passes(filter("k", "bool", {"false"}), R"({"k": "False"})"));
  EXPECT_TRUE(passes(filter("k", "bool", {"1"}), R"({"k": 5})"));
  EXPECT_TRUE(passes(filter("k", "bool", {"0"}), R"({"k": null})"));
  EXPECT_FALSE(passes(filter("k", "bool", {"false"}), R"({"k": true})"));
}

TEST_F(data_filter_test, multiple_filters_under_and_and_or) {
  constexpr const char* data = R"({"k": true, "k1": {"k": 3.14, "k2": "hello, world"}})";
  std::vector<data_filter> fails = {filter("k", "string", {"v"}), filter("k1.k", "number", {"2.14"}),
                                    filter("k1.k2", "string", {"hello,world", "hello there"})};
  EXPECT_FALSE(run(fails, data).pass);
  std::vector<data_filter> all = {
    filter("k", "bool", {"true"}), filter("k1.k", "number", {"3.14"}),
    filter("k1.k2", "string", {"hello,world", "hello, world", "hello there"})};
  EXPECT_TRUE(run(all, data, "and").pass);
  std::vector<data_filter> one = {filter("k", "bool", {"false"}), filter("k1.k", "number", {"3.14"}),
                                  filter("k1.k2", "string", {"hello,world", "hello there"})};
  EXPECT_TRUE(run(one, data, "or").pass);
  EXPECT_FALSE(run(one, data, "and").pass);
}

TEST_F(data_filter_test, missing_path_errors_in_and_mode) {
  auto out = run({filter("nope", "string", {"v"}), filter("k", "string", {"v"})}, R"({"k": "v"})");
  EXPECT_FALSE(out.pass);
  EXPECT_EQ(out.error, "data filter error (path 'nope' does not exist)");
}

TEST_F(data_filter_test, missing_path_is_recorded_in_or_mode) {
  auto pass = run({filter("nope", "string", {"v"}), filter("k", "string", {"v"})},
                  R"({"k": "v"})", "or");
  EXPECT_TRUE(pass.pass);
  EXPECT_EQ(pass.error, "");
  auto fail = run({filter("nope", "string", {"v"}), filter("gone", "number", {"1"}),
                   filter("k", "string", {"x"})},
                  R"({"k": "v"})", "or");
  EXPECT_FALSE(fail.pass);
  EXPECT_EQ(fail.error, "data filter errors [path 'nope' does not exist / path 'gone' does not exist]");
}

TEST_F(data_filter_test, single_filter_evaluate) {
  compiled_data_filter f(filter("body.action", "string", {"opened|closed"}));
  event_view e;
  e.data_raw = R"({"body": {"action": "opened"}})";
  EXPECT_TRUE(f.evaluate(e).pass);
  e.data_raw = R"({"body": {}})";
  EXPECT_EQ(f.evaluate(e).error, "data filter error (path 'body.action' does not exist)");
  EXPECT_EQ(f.describe(), R"(body.action (string) = "opened|closed")");
  compiled_data_filter n(filter("n", "number", {"1", "2"}, ">="));
  EXPECT_EQ(n.describe(), R"(n (number) >= "1" or "2")");
}

TEST(data_filter_compile, rejects_bad_filters_at_load) {
  EXPECT_THROW(compiled_data_filter(filter("k", "string", {"(unclosed"})), compile_error);
  EXPECT_THROW(compiled_data_filter(filter("k", "number", {"one"})), compile_error);
  EXPECT_THROW(compiled_data_filter(filter("k", "bool", {"yes"})), compile_error);
  EXPECT_THROW(compiled_data_filter(filter("k", "object", {"x"})), compile_error);
  EXPECT_THROW(compiled_data_filter(filter("", "string", {"x"})), compile_error);
  EXPECT_THROW(compiled_data_filter(filter("k", "string", {})), compile_error);
  EXPECT_THROW(compiled_data_filter(filter("k", "number", {"1"}, "=~")), compile_error);
  auto templated = filter("k", "string", {"x"});
  templated.template_ = "{{ .Input | b64decode }}";
  try {
    compiled_data_filter f(templated);
    ADD_FAILURE();
  } catch (const compile_error& e) {
    EXPECT_EQ(e.offset(), 12u);
    EXPECT_NE(std::string(e.what()).find("function \"b64decode\" not defined"), std::string::npos)
      << e.what();
  }
  try {
    compiled_data_filters({filter("k", "string", {"v"}), filter("k", "string", {"[z-a]"})}, "");
    ADD_FAILURE();
  } catch (const compile_error& e) {
    EXPECT_NE(std::string(e.what()).find("data[1]"), std::string::npos) << e.what();
  }
}

data_filter templated(std::string path, std::string type, std::vector<std::string> values,
                      std::string tmpl, std::string comparator = "") {
  auto f = filter(std::move(path), std::move(type), std::move(values), std::move(comparator));
  f.template_ = std::move(tmpl);
  return f;
}

// filter_data_test.go: the templated output is compared as a JSON string, typed by `type`.
TEST_F(data_filter_test, template_output_is_compared_by_type) {
  const char* data = R"({"k": "dmFsdWU=", "n": "My4xNA==", "b": "dHJ1ZQ==", "i": 7})";
  EXPECT_TRUE(passes(templated("k", "string", {"VALUE"}, "{{ b64dec .Input | upper }}"), data));
  EXPECT_FALSE(passes(templated("k", "string", {"value"}, "{{ b64dec .Input | upper }}"), data));
  EXPECT_TRUE(passes(templated("n", "number", {"3.13"}, "{{ b64dec .Input }}", ">"), data));
  EXPECT_FALSE(passes(templated("n", "number", {"3.15"}, "{{ b64dec .Input }}", ">"), data));
  EXPECT_TRUE(passes(templated("k", "string", {"other"}, "{{ b64dec .Input }}", "!="), data));
  EXPECT_FALSE(passes(templated("k", "string", {"value"}, "{{ b64dec .Input }}", "!="), data));
  EXPECT_TRUE(passes(templated("k", "string", {"^va.+e$"}, "{{ b64dec .Input }}"), data));
  EXPECT_TRUE(passes(templated("b", "bool", {"true"}, "{{ b64dec .Input }}"), data));
  EXPECT_TRUE(passes(templated("i", "number", {"8"}, "{{ add (atoi .Input) 1 }}"), data));
}

TEST_F(data_filter_test, template_failures_are_filter_errors) {
  const char* data = R"({"k": "v", "other": "x"})";
  auto empty = run({templated("k", "string", {"v"}, "{{ if false }}x{{ end }}")}, data);
  EXPECT_FALSE(empty.pass);
  EXPECT_EQ(empty.error,
            "data filter error (template '{{ if false }}x{{ end }}' evaluated to empty string or "
            "no value)");
  auto no_value = run({templated("k", "string", {"v"}, "{{ .Missing }}")}, data);
  EXPECT_NE(no_value.error.find("evaluated to empty string or no value"), std::string::npos);
  auto failed = run({templated("k", "string", {"v"}, "{{ div 1 0 }}")}, data);
  EXPECT_FALSE(failed.pass);
  EXPECT_NE(failed.error.find("integer divide by zero"), std::string::npos) << failed.error;
  auto either = run({templated("k", "string", {"v"}, "{{ div 1 0 }}"),
                     filter("other", "string", {"x"})},
                    data, "or");
  EXPECT_TRUE(either.pass);
}

TEST(context_filter, non_empty_fields_must_match) {
  ganglion::dsl::event_context expected;
  event_view e;
  e.type = "webhook";
  e.subject = "example";
  e.source = "webhook-source";
  e.datacontenttype = "application/json";
  EXPECT_TRUE(evaluate_context_filter(expected, e).pass);
  expected.type = "webhook";
  expected.source = "webhook-source";
  expected.id = "ignored";
  expected.time = "ignored";
  EXPECT_TRUE(evaluate_context_filter(expected, e).pass);
  expected.subject = "other";
  EXPECT_FALSE(evaluate_context_filter(expected, e).pass);
  expected.subject.clear();
  expected.datacontenttype = "text/plain";
  EXPECT_FALSE(evaluate_context_filter(expected, e).pass);
}

} // namespace

// Literal alternatives ("opened|synchronize") are matched by substring search instead of RE2;
// the result must be the regex's: unanchored, any alternative, empty alternative matches all.
TEST_F(data_filter_test, literal_alternatives_match_like_the_regex) {
  EXPECT_TRUE(passes(filter("a", "string", {"opened|synchronize"}), R"({"a":"opened"})"));
  EXPECT_TRUE(passes(filter("a", "string", {"opened|synchronize"}), R"({"a":"synchronize"})"));
  EXPECT_TRUE(passes(filter("a", "string", {"opened|synchronize"}), R"({"a":"reopened"})"));
  EXPECT_FALSE(passes(filter("a", "string", {"opened|synchronize"}), R"({"a":"closed"})"));
  EXPECT_FALSE(passes(filter("a", "string", {"opened|synchronize"}), R"({"a":"OPENED"})"));
  EXPECT_TRUE(passes(filter("a", "string", {"closed|"}), R"({"a":"anything"})"));
  EXPECT_TRUE(passes(filter("a", "string", {"42"}), R"({"a":1042})"));
  EXPECT_FALSE(passes(filter("a", "string", {"opened|synchronize"}, "!="), R"({"a":"opened"})"));
  EXPECT_TRUE(passes(filter("a", "string", {"opened|synchronize"}, "!="), R"({"a":"closed"})"));
  // Metacharacters keep the regex: "o.ened" is not a literal.
  EXPECT_TRUE(passes(filter("a", "string", {"o.ened"}), R"({"a":"opened"})"));
  EXPECT_FALSE(passes(filter("a", "string", {"^opened$"}), R"({"a":"reopened"})"));
}

// Plain key/index paths take a direct walk; it must agree with gjson on duplicate keys
// (first match that leads somewhere), indexes, and scalars in the way.
TEST_F(data_filter_test, plain_paths_walk_like_gjson) {
  EXPECT_TRUE(passes(filter("a.b", "string", {"^x$"}), R"({"a":1,"a":{"b":"x"}})"));
  EXPECT_TRUE(passes(filter("list.1.id", "number", {"7"}), R"({"list":[{"id":1},{"id":7}]})"));
  EXPECT_TRUE(passes(filter("obj.1", "string", {"^one$"}), R"({"obj":{"1":"one"}})"));
  auto missing = run({filter("a.b.c", "string", {"x"})}, R"({"a":{"b":"scalar"}})");
  EXPECT_FALSE(missing.pass);
  EXPECT_NE(missing.error.find("does not exist"), std::string::npos);
}
