// A JSON document through a Go struct (json.Unmarshal, then json.Marshal), as encoding/json
// does it; the expected texts follow its rules for the struct below.

#include <gtest/gtest.h>

#include <memory>

#include "ganglion/dsl/go/go_struct.hpp"

using namespace ganglion::dsl;

namespace {

using kind = go_type::kind;

/// `type item struct { Name string }` and `type doc struct { Title string; Count int;
/// On bool; Items []item; Meta struct { Tag string } }` (json names in lower case).
go_type doc() {
  go_type text{kind::string, {}, {}, {}};
  go_type item{kind::structure, "pkg.item", {{"Name", "name", text}}, {}};
  return {kind::structure,
          "pkg.doc",
          {{"Title", "title", text},
           {"Count", "count", {kind::integer, {}, {}, {}}},
           {"On", "on", {kind::boolean, {}, {}, {}}},
           {"Items", "items", {kind::slice, {}, {}, std::make_shared<const go_type>(item)}},
           {"Meta", "meta", {kind::structure, {}, {{"Tag", "tag", text}}, {}}}},
          {}};
}

std::string round_trip(const std::string& document) {
  std::string error;
  auto value = go_unmarshal(document, doc(), error);
  if (!value)
    return "error: " + error;
  std::string out;
  append_go_marshal(out, *value, doc());
  return out;
}

} // namespace

TEST(lang_go_struct, fields_come_out_in_struct_order_with_zero_values_and_go_escapes) {
  EXPECT_EQ(round_trip(R"({"meta":{"tag":"<b>&"},"extra":[1,{"x":2}],"COUNT":-7,"Title":"t"})"),
            R"({"title":"t","count":-7,"on":false,"items":null,)"
            R"("meta":{"tag":"\u003cb\u003e\u0026"}})");
  EXPECT_EQ(round_trip(R"({"items":[],"on":true})"),
            R"({"title":"","count":0,"on":true,"items":[],"meta":{"tag":""}})");
  EXPECT_EQ(round_trip(R"({"items":[{"name":"a","x":1},{}],"count":9223372036854775807})"),
            R"({"title":"","count":9223372036854775807,"on":false,)"
            R"("items":[{"name":"a"},{"name":""}],"meta":{"tag":""}})");
  EXPECT_EQ(round_trip(R"({"items":[{"name":"a"}],"items":null})"),
            R"({"title":"","count":0,"on":false,"items":null,"meta":{"tag":""}})");
}

TEST(lang_go_struct, mismatches_name_the_struct_the_field_path_and_the_go_type) {
  EXPECT_EQ(round_trip(R"({"count":"1"})"),
            "error: json: cannot unmarshal string into Go struct field doc.count of type int");
  EXPECT_EQ(round_trip(R"({"count":18446744073709551615})"),
            "error: json: cannot unmarshal number 18446744073709551615 into Go struct field "
            "doc.count of type int");
  EXPECT_EQ(round_trip(R"({"items":[{"name":true}]})"),
            "error: json: cannot unmarshal bool into Go struct field item.items.name of type "
            "string");
  EXPECT_EQ(round_trip(R"({"meta":[]})"),
            "error: json: cannot unmarshal array into Go struct field doc.meta of type "
            R"(struct { Tag string "json:\"tag\"" })");
  EXPECT_EQ(round_trip(R"({"meta":{"tag":1}})"),
            "error: json: cannot unmarshal number into Go struct field .meta.tag of type string");
  EXPECT_EQ(round_trip(R"("text")"),
            "error: json: cannot unmarshal string into Go value of type pkg.doc");
  EXPECT_EQ(round_trip("{"), "error: unexpected end of JSON input");
}
