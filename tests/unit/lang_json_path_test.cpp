// gjson path syntax, with the examples of tidwall/gjson SYNTAX.md as expected values.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <simdjson.h>

#include "ganglion/dsl/budget_exceeded.hpp"
#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/path/json_eval.hpp"
#include "ganglion/dsl/path/json_path.hpp"

namespace {

using ganglion::dsl::compile_error;
using ganglion::dsl::json_kind;
using ganglion::dsl::json_path;

constexpr const char* syntax_doc = R"({
  "name": {"first": "Tom", "last": "Anderson"},
  "age":37,
  "children": ["Sara","Alex","Jack"],
  "fav.movie": "Deer Hunter",
  "friends": [
    {"first": "Dale", "last": "Murphy", "age": 44, "nets": ["ig", "fb", "tw"]},
    {"first": "Roger", "last": "Craig", "age": 68, "nets": ["fb", "tw"]},
    {"first": "Jane", "last": "Murphy", "age": 47, "nets": ["ig", "tw"]}
  ]
})";

class json_path_test : public ::testing::Test {
protected:
  ganglion::dsl::path_result get(std::string_view json, std::string_view path) {
    root_ = parser_.parse(std::string(json)).value();
    return ganglion::dsl::evaluate(json_path::compile(path), root_);
  }

  // The result as minified JSON, or "<missing>".
  std::string raw(std::string_view path, std::string_view json = syntax_doc) {
    auto r = get(json, path);
    return r.exists() ? r.raw() : "<missing>";
  }

  std::string str(std::string_view path, std::string_view json = syntax_doc) {
    return get(json, path).string_value();
  }

  simdjson::dom::parser parser_;
  simdjson::dom::element root_;
};

TEST_F(json_path_test, basic_keys_and_indexes) {
  EXPECT_EQ(str("name.last"), "Anderson");
  EXPECT_EQ(str("name.first"), "Tom");
  EXPECT_EQ(raw("age"), "37");
  EXPECT_EQ(raw("children"), R"(["Sara","Alex","Jack"])");
  EXPECT_EQ(str("children.0"), "Sara");
  EXPECT_EQ(str("children.1"), "Alex");
  EXPECT_EQ(str("friends.1.first"), "Roger");
  EXPECT_EQ(raw("friends.1.nets"), R"(["fb","tw"])");
}

TEST_F(json_path_test, missing_paths_do_not_exist) {
  EXPECT_EQ(raw("name.middle"), "<missing>");
  EXPECT_EQ(raw("children.3"), "<missing>");
  EXPECT_EQ(raw("age.years"), "<missing>");
  EXPECT_EQ(raw("children.first"), "<missing>");
  EXPECT_EQ(get(syntax_doc, "nope").kind(), json_kind::null);
}

TEST_F(json_path_test, null_exists) {
  auto r = get(R"({"a":null})", "a");
  EXPECT_TRUE(r.exists());
  EXPECT_EQ(r.kind(), json_kind::null);
  EXPECT_EQ(r.string_value(), "");
  EXPECT_EQ(r.raw(), "null");
}

TEST_F(json_path_test, wildcards) {
  EXPECT_EQ(str("child*.2"), "Jack");
  EXPECT_EQ(str("c?ildren.0"), "Sara");
  EXPECT_EQ(str("*.last"), "Anderson");
  // A wildcard key whose first match lacks the rest of the path tries the next match.
  EXPECT_EQ(raw("a*.y", R"({"ab":{"x":1},"ac":{"y":2}})"), "2");
}

TEST_F(json_path_test, escapes) {
  EXPECT_EQ(str(R"(fav\.movie)"), "Deer Hunter");
  EXPECT_EQ(raw(R"(a\*)", R"({"ab":2,"a*":1})"), "1");
  EXPECT_EQ(raw(R"(a\|b)", R"({"a|b":3})"), "3");
}

TEST_F(json_path_test, array_length_and_mapping) {
  EXPECT_EQ(raw("friends.#"), "3");
  EXPECT_EQ(str("friends.#"), "3");
  EXPECT_EQ(raw("friends.#.age"), "[44,68,47]");
  EXPECT_EQ(raw("friends.#.nets.0"), R"(["ig","fb","ig"])");
  EXPECT_EQ(raw("friends.#.middle"), "[]");
}

TEST_F(json_path_test, queries) {
  EXPECT_EQ(str(R"(friends.#(last=="Murphy").first)"), "Dale");
  EXPECT_EQ(raw(R"(friends.#(last=="Murphy")#.first)"), R"(["Dale","Jane"])");
  EXPECT_EQ(raw("friends.#(age>45)#.last"), R"(["Craig","Murphy"])");
  EXPECT_EQ(raw("friends.#(age>=68)#.first"), R"(["Roger"])");
  EXPECT_EQ(raw("friends.#(age!=44)#.first"), R"(["Roger","Jane"])");
  EXPECT_EQ(str(R"(friends.#(first%"D*").last)"), "Murphy");
  EXPECT_EQ(str(R"(friends.#(first!%"D*").last)"), "Craig");
  EXPECT_EQ(str(R"(children.#(!%"*a*"))"), "Alex");
  EXPECT_EQ(raw(R"(children.#(%"*a*")#)"), R"(["Sara","Jack"])");
  EXPECT_EQ(raw(R"(friends.#(nets.#(=="fb"))#.first)"), R"(["Dale","Roger"])");
  EXPECT_EQ(raw(R"(friends.#(last=="Nobody").first)"), "<missing>");
  EXPECT_EQ(raw(R"(friends.#(last=="Nobody")#)"), "[]");
  EXPECT_EQ(raw("friends.#(nets)#.first"), R"(["Dale","Roger","Jane"])");
}

TEST_F(json_path_test, tilde_queries) {
  constexpr const char* vals = R"({"vals": [
    {"a": 1, "b": "data"}, {"a": 2, "b": true}, {"a": 3, "b": false}, {"a": 4, "b": "0"},
    {"a": 5, "b": 0}, {"a": 6, "b": "1"}, {"a": 7, "b": 1}, {"a": 8, "b": "true"},
    {"a": 9, "b": false}, {"a": 10, "b": null}, {"a": 11}]})";
  EXPECT_EQ(raw("vals.#(b==~true)#.a", vals), "[2,6,7,8]");
  EXPECT_EQ(raw("vals.#(b==~false)#.a", vals), "[3,4,5,9,10,11]");
  EXPECT_EQ(raw("vals.#(b==~null)#.a", vals), "[10,11]");
  EXPECT_EQ(raw("vals.#(b==~*)#.a", vals), "[1,2,3,4,5,6,7,8,9,10]");
  EXPECT_EQ(raw("vals.#(b!=~*)#.a", vals), "[11]");
}

TEST_F(json_path_test, dot_versus_pipe) {
  EXPECT_EQ(str("friends.0.first"), "Dale");
  EXPECT_EQ(str("friends|0.first"), "Dale");
  EXPECT_EQ(str("friends.0|first"), "Dale");
  EXPECT_EQ(str("friends|0|first"), "Dale");
  EXPECT_EQ(raw("friends|#"), "3");
  EXPECT_EQ(raw(R"(friends.#(last="Murphy")#|first)"), "<missing>");
  EXPECT_EQ(raw(R"(friends.#(last="Murphy")#.0)"), "[]");
  EXPECT_EQ(str(R"(friends.#(last="Murphy")#|0.first)"), "Dale");
  EXPECT_EQ(raw(R"(friends.#(last="Murphy")#.#)"), "[]");
  EXPECT_EQ(raw(R"(friends.#(last="Murphy")#|#)"), "2");
  EXPECT_EQ(raw("friends.#.first|1"), R"("Roger")");
}

TEST_F(json_path_test, modifiers) {
  EXPECT_EQ(raw("children.@reverse"), R"(["Jack","Alex","Sara"])");
  EXPECT_EQ(str("children.@reverse.0"), "Jack");
  EXPECT_EQ(raw("name.@reverse"), R"({"last":"Anderson","first":"Tom"})");
  EXPECT_EQ(str("@this.name.first"), "Tom");
  EXPECT_EQ(raw("name.@keys"), R"(["first","last"])");
  EXPECT_EQ(raw("name.@values"), R"(["Tom","Anderson"])");
  EXPECT_EQ(raw("@flatten", "[1,[2],[3,4],[5,[6,7]]]"), "[1,2,3,4,5,[6,7]]");
  EXPECT_EQ(raw(R"(@flatten:{"deep":true})", "[1,[2],[3,4],[5,[6,7]]]"), "[1,2,3,4,5,6,7]");
  EXPECT_EQ(raw("@join", R"([{"first":"Tom","age":37},{"age":41}])"),
            R"({"first":"Tom","age":41})");
  EXPECT_EQ(raw("name.@tostr"), R"("{\"first\":\"Tom\",\"last\":\"Anderson\"}")");
  EXPECT_EQ(raw("s.@fromstr.id", R"({"s":"{\"id\":1023}"})"), "1023");
  EXPECT_EQ(raw("friends.#.@this.age"), "[44,68,47]");
}

TEST_F(json_path_test, multipaths_and_literals) {
  EXPECT_EQ(raw("[name.first,age]"), R"(["Tom",37])");
  EXPECT_EQ(raw(R"({name.first,age,"the_murphys":friends.#(last="Murphy")#.first})"),
            R"({"first":"Tom","age":37,"the_murphys":["Dale","Jane"]})");
  EXPECT_EQ(raw(R"({name.first,age,"company":!"Happysoft","employed":!true})"),
            R"({"first":"Tom","age":37,"company":"Happysoft","employed":true})");
  EXPECT_EQ(raw("{children.#,n:age}"), R"({"_":3,"n":37})");
  EXPECT_EQ(raw("[name.first,nope]"), R"(["Tom"])");
  EXPECT_EQ(raw("[name.first,age].1"), "37");
  EXPECT_EQ(raw("!3.5"), "3.5");
}

TEST_F(json_path_test, argo_regex_multipath_strings) {
  // filter_data_test.go: "string filter Regex" and "Regex2".
  EXPECT_EQ(str(R"([k,k1.a.#(k2=="v2").k2])", R"({"k": "v", "k1": {"a": [{"k2": "v2"}]}})"),
            R"(["v","v2"])");
  EXPECT_EQ(str(R"([k,k1.a.#(k2=="v2").k2,,k1.a.#(k2=="v3").k2])",
                R"({"k": "v", "k1": {"a": [{"k2": "v2"}, {"k2": "v3"}]}})"),
            R"(["v","v2","v3"])");
}

TEST_F(json_path_test, string_conversions_follow_gjson) {
  EXPECT_EQ(str("n", R"({"n": 1.0})"), "1");
  EXPECT_EQ(str("n", R"({"n": 3.14})"), "3.14");
  EXPECT_EQ(str("n", R"({"n": 1e3})"), "1000");
  EXPECT_EQ(str("n", R"({"n": -12})"), "-12");
  EXPECT_EQ(str("n", R"({"n": 18446744073709551615})"), "18446744073709551615");
  EXPECT_EQ(str("b", R"({"b": true})"), "true");
  EXPECT_EQ(str("b", R"({"b": false})"), "false");
  EXPECT_EQ(str("o", R"({"o": {"a": [1, 2]}})"), R"({"a":[1,2]})");
}

TEST_F(json_path_test, float_and_bool_conversions_follow_gjson) {
  EXPECT_DOUBLE_EQ(get(R"({"v":"1.5"})", "v").float_value(), 1.5);
  EXPECT_DOUBLE_EQ(get(R"({"v":"abc"})", "v").float_value(), 0);
  EXPECT_DOUBLE_EQ(get(R"({"v":true})", "v").float_value(), 1);
  EXPECT_DOUBLE_EQ(get(R"({"v":{"a":1}})", "v").float_value(), 0);
  EXPECT_TRUE(get(R"({"v":"TRUE"})", "v").bool_value());
  EXPECT_TRUE(get(R"({"v":"t"})", "v").bool_value());
  EXPECT_FALSE(get(R"({"v":"yes"})", "v").bool_value());
  EXPECT_TRUE(get(R"({"v":2})", "v").bool_value());
  EXPECT_FALSE(get(R"({"v":0})", "v").bool_value());
  EXPECT_FALSE(get(R"({"v":null})", "v").bool_value());
}

TEST(json_path_compile, rejects_bad_paths_with_offsets) {
  auto offset_of = [](std::string_view text) -> std::size_t {
    try {
      json_path::compile(text);
    } catch (const compile_error& e) {
      return e.offset();
    }
    ADD_FAILURE() << "compiled: " << text;
    return 0;
  };
  EXPECT_EQ(offset_of(""), 0u);
  EXPECT_EQ(offset_of("a..b"), 2u);
  EXPECT_EQ(offset_of("a."), 1u);
  EXPECT_EQ(offset_of("a|"), 2u);
  EXPECT_EQ(offset_of(R"(friends.#(last=="x")"), 8u);
  EXPECT_EQ(offset_of("children.@pretty"), 9u);
  EXPECT_EQ(offset_of("[a,b"), 0u);
  EXPECT_EQ(offset_of("!nope"), 1u);
  EXPECT_THROW(json_path::compile("..a"), compile_error);
}

// Each `{a:@values,b:@values}` doubles what the previous one built: 40 of them would build
// terabytes. A fuzzer found the shape (json_path_fuzz, 14 s for a 4 KB path before the budget).
TEST_F(json_path_test, a_path_that_builds_geometrically_is_cut_off_by_its_budget) {
  std::string path = "{a:@values,b:@values}";
  for (int i = 0; i < 39; ++i)
    path += "|{a:@values,b:@values}";
  try {
    get(R"({"x":"0123456789"})", path);
    FAIL() << "the path was not cut off";
  } catch (const ganglion::dsl::budget_exceeded& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("path '{a:@values,b:@values}|"), std::string::npos) << what;
    EXPECT_NE(what.find("(" + std::to_string(path.size()) + " bytes)"), std::string::npos) << what;
    EXPECT_NE(what.find("built more than 4 MiB of JSON"), std::string::npos) << what;
  }
  // A few levels are well inside the budget, and give gjson's answer.
  const char* pair = R"([["s"],["s"]])";
  EXPECT_EQ(raw("{a:@values,b:@values}|{a:@values,b:@values}", R"({"x":"s"})"),
            fmt::format(R"({{"a":{0},"b":{0}}})", pair));
  std::string ten = "{a:@values,b:@values}";
  for (int i = 0; i < 9; ++i)
    ten += "|{a:@values,b:@values}";
  EXPECT_GT(raw(ten, R"({"x":"s"})").size(), 8000u);
}

// Scanning without building is held to a step budget: 30 queries over 100,000 elements.
TEST_F(json_path_test, a_path_that_scans_too_long_is_cut_off_by_its_budget) {
  std::string doc = "[";
  for (int i = 0; i < 100000; ++i)
    doc += i ? R"(,{"a":"y"})" : R"({"a":"y"})";
  doc += "]";
  std::string path = "[";
  for (int i = 0; i < 30; ++i)
    path += i ? R"(,#(a=="z"))" : R"(#(a=="z"))";
  path += "]";
  EXPECT_THROW(get(doc, path), ganglion::dsl::budget_exceeded);
  // One scan and one list of every element are what real filters do; both fit.
  EXPECT_EQ(raw(R"(#(a=="z"))", doc), "<missing>");
  EXPECT_EQ(raw("#.a", doc).size(), 100000u * 4 + 1);
}

TEST(json_path_compile, deep_nesting_is_an_error_not_a_crash) {
  EXPECT_THROW(json_path::compile(std::string(100000, '[') + "a" + std::string(100000, ']')),
               compile_error);
  EXPECT_NO_THROW(json_path::compile("[[[a]]]"));
}

TEST(json_path_compile, paths_that_can_build_json_are_marked) {
  for (const char* path : {"body.a", "a.0.b", "a*.b?", "a.#", "a.#.b", "a.#.#.c", R"(a.#(b=="x").c)",
                           R"(a.#(b.#(c>1))#)", "#.a"})
    EXPECT_FALSE(json_path::compile(path).builds()) << path;
  for (const char* path : {"[a,b]", "{a,b}", "a|b", "a.@reverse", "@values", "!true",
                           "a.#.[b,c]", R"(a.#([b,c]=="x"))", "a|@keys"})
    EXPECT_TRUE(json_path::compile(path).builds()) << path;
}

TEST(json_path_compile, keeps_text) {
  EXPECT_EQ(json_path::compile("body.a\\.b").text(), "body.a\\.b");
  auto copy = json_path::compile("x.y");
  json_path other = copy;
  EXPECT_EQ(other.text(), "x.y");
}

} // namespace
