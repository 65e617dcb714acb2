// sjson destination paths and set_json.

#include <gtest/gtest.h>

#include <stdexcept>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/path/json_path.hpp"

namespace {

using ganglion::dsl::compile_error;
using ganglion::dsl::dest_path;
using ganglion::dsl::set_json;

std::string set(std::string document, std::string_view dest, std::string_view raw) {
  set_json(document, dest_path::compile(dest), raw);
  return document;
}

TEST(set_json, creates_nested_objects) {
  EXPECT_EQ(set("", "a.b.c", "1"), R"({"a":{"b":{"c":1}}})");
  EXPECT_EQ(set("{}", "a", R"("x")"), R"({"a":"x"})");
  EXPECT_EQ(set(R"({"a":{"z":0}})", "a.b", "true"), R"({"a":{"z":0,"b":true}})");
}

TEST(set_json, replaces_existing_values_and_keeps_the_rest_verbatim) {
  EXPECT_EQ(set(R"({"name": "faker"})", "name", R"("fake")"), R"({"name": "fake"})");
  EXPECT_EQ(set(R"({"age": "x", "other": [1, 2]})", "age", "100"),
            R"({"age": 100, "other": [1, 2]})");
  EXPECT_EQ(set(R"({"a": 5})", "a.b", "1"), R"({"a": {"b":1}})");
}

TEST(set_json, numeric_components_index_arrays) {
  EXPECT_EQ(set("", "list.0", R"("a")"), R"({"list":["a"]})");
  EXPECT_EQ(set("", "list.2", "7"), R"({"list":[null,null,7]})");
  EXPECT_EQ(set(R"({"list":[1,2]})", "list.1", "9"), R"({"list":[1,9]})");
  EXPECT_EQ(set(R"({"list":[1,2]})", "list.4", "5"), R"({"list":[1,2,null,null,5]})");
  EXPECT_EQ(set("", "0", "1"), "[1]");
  EXPECT_EQ(set(R"({"list":[{"a":1}]})", "list.0.b", "2"), R"({"list":[{"a":1,"b":2}]})");
}

TEST(set_json, minus_one_appends) {
  EXPECT_EQ(set(R"({"list":[1,2]})", "list.-1", "3"), R"({"list":[1,2,3]})");
  EXPECT_EQ(set(R"({"list":[]})", "list.-1", "3"), R"({"list":[3]})");
  EXPECT_EQ(set("", "list.-1", "3"), R"({"list":[3]})");
  EXPECT_EQ(set("", "list.-1.a", "3"), R"({"list":[{"a":3}]})");
}

TEST(set_json, numeric_keys_on_objects_are_keys) {
  EXPECT_EQ(set(R"({"a":{}})", "a.0", "1"), R"({"a":{"0":1}})");
  EXPECT_EQ(set("", "a.:0", "1"), R"({"a":{"0":1}})");
}

TEST(set_json, escapes) {
  EXPECT_EQ(set("", R"(a\.b)", "1"), R"({"a.b":1})");
  EXPECT_EQ(set(R"({"a.b":0})", R"(a\.b)", "1"), R"({"a.b":1})");
  EXPECT_EQ(set("", R"(x\*)", "1"), R"({"x*":1})");
}

TEST(set_json, empty_dest_replaces_the_document) {
  EXPECT_EQ(set(R"({"a":1})", "", R"({"b":2})"), R"({"b":2})");
  EXPECT_TRUE(dest_path::compile("").empty());
  EXPECT_FALSE(dest_path::compile("a").empty());
}

TEST(set_json, rejects_invalid_input) {
  EXPECT_THROW(set("{", "a", "1"), std::invalid_argument);
  EXPECT_THROW(set("{}", "a", "nope"), std::invalid_argument);
  EXPECT_THROW(set(R"({"a":[1]})", "a.b", "1"), std::invalid_argument);
}

TEST(dest_path, rejects_complex_sjson_paths) {
  EXPECT_THROW(dest_path::compile("a.#"), compile_error);
  EXPECT_THROW(dest_path::compile("a|b"), compile_error);
  EXPECT_THROW(dest_path::compile("a*"), compile_error);
  try {
    dest_path::compile("ab.@x");
    ADD_FAILURE();
  } catch (const compile_error& e) {
    EXPECT_EQ(e.offset(), 3u);
  }
}

} // namespace
