// JSON written as Go's json.Marshal (Go 1.22+, HTML escaping on) writes it; the expected texts
// are Go's outputs.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/dsl/go/go_value.hpp"

using namespace ganglion::dsl;

namespace {

std::string go_string(std::string_view text) {
  std::string out;
  append_go_json_string(out, text);
  return out;
}

std::string go_bytes(std::string_view bytes) {
  std::string out;
  append_go_json_bytes(out, bytes);
  return out;
}

// json.Marshal(json.RawMessage(document)), or "<error>".
std::string go_raw(std::string_view document) {
  std::string out = "prefix:";
  std::string error;
  if (!append_go_json_raw(out, document, error)) {
    EXPECT_FALSE(error.empty()) << document;
    EXPECT_EQ(out, "prefix:") << document;
    return "<error>";
  }
  return out.substr(7);
}

TEST(lang_go_json, strings_escape_quotes_and_control_bytes) {
  EXPECT_EQ(go_string(""), R"("")");
  EXPECT_EQ(go_string(R"(a"b\c/d)"), R"("a\"b\\c/d")");
  EXPECT_EQ(go_string("\b\f\n\r\t"), R"("\b\f\n\r\t")"); // Go 1.22+: not \u0008 / \u000c
  EXPECT_EQ(go_string(std::string("\0\x01\x0b\x1f", 4)), R"("\u0000\u0001\u000b\u001f")");
  EXPECT_EQ(go_string("\x7f"), "\"\x7f\"");
}

TEST(lang_go_json, strings_escape_html_and_line_separators) {
  EXPECT_EQ(go_string("<a href='x'>&</a>"), R"("\u003ca href='x'\u003e\u0026\u003c/a\u003e")");
  EXPECT_EQ(go_string("a\u2028b\u2029c"), R"("a\u2028b\u2029c")");
}

TEST(lang_go_json, valid_utf8_is_kept) {
  EXPECT_EQ(go_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
}

TEST(lang_go_json, each_invalid_utf8_byte_becomes_an_escaped_replacement) {
  EXPECT_EQ(go_string("bad \xff\xfe"), R"("bad \ufffd\ufffd")");
  EXPECT_EQ(go_string("\xe2\x82"), R"("\ufffd\ufffd")");             // truncated
  EXPECT_EQ(go_string("\xc0\xaf"), R"("\ufffd\ufffd")");             // overlong
  EXPECT_EQ(go_string("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");   // surrogate
  EXPECT_EQ(go_string("\xf4\x90\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd")"); // > U+10FFFF
  EXPECT_EQ(go_string("a\xe2\x82\xac" "b\x80"), "\"a\xe2\x82\xac" R"(b\ufffd")");
}

TEST(lang_go_json, bytes_are_padded_base64) {
  EXPECT_EQ(go_bytes(""), R"("")");
  EXPECT_EQ(go_bytes("f"), R"("Zg==")");
  EXPECT_EQ(go_bytes("fo"), R"("Zm8=")");
  EXPECT_EQ(go_bytes("foo"), R"("Zm9v")");
  EXPECT_EQ(go_bytes(std::string("\0\x01hi", 4)), R"("AAFoaQ==")");
  EXPECT_EQ(go_bytes("\xff\xfe\xfd"), R"("//79")");
}

TEST(lang_go_json, raw_messages_are_compacted) {
  EXPECT_EQ(go_raw(" { \"a\" : [1, 2.50, \"x y\"] ,\t\"b\":{}\r\n}\n"),
            R"({"a":[1,2.50,"x y"],"b":{}})");
  EXPECT_EQ(go_raw("42"), "42");
  EXPECT_EQ(go_raw(" [ ] "), "[]");
  EXPECT_EQ(go_raw(R"(["\u00e9\n\/"])"), R"(["\u00e9\n\/"])");
  EXPECT_EQ(go_raw("[-0, 0.5e+3, 1E-2, true, false, null]"), "[-0,0.5e+3,1E-2,true,false,null]");
}

TEST(lang_go_json, raw_messages_escape_html) {
  EXPECT_EQ(go_raw(R"({"h": "<b>&</b>"})"), R"({"h":"\u003cb\u003e\u0026\u003c/b\u003e"})");
  EXPECT_EQ(go_raw("[\"a\u2028b\u2029\"]"), R"(["a\u2028b\u2029"])");
  EXPECT_EQ(go_raw(R"(["\u003c"])"), R"(["\u003c"])");
}

TEST(lang_go_json, raw_messages_follow_go_grammar_not_a_parser) {
  // Go's scanner checks the syntax only.
  EXPECT_EQ(go_raw("[\"\xff\"]"), "[\"\xff\"]");
  EXPECT_EQ(go_raw("[1e400, 123456789012345678901234567890]"),
            "[1e400,123456789012345678901234567890]");
  EXPECT_EQ(go_raw(R"(["\ud800"])"), R"(["\ud800"])");
  EXPECT_EQ(go_raw(std::string(10000, '[') + std::string(10000, ']')),
            std::string(10000, '[') + std::string(10000, ']'));
  EXPECT_EQ(go_raw(std::string(10001, '[') + std::string(10001, ']')), "<error>");
}

TEST(lang_go_json, invalid_raw_messages_are_errors) {
  for (std::string_view bad :
       {"", " ", "{\"a\":", "{} {}", "01", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "{1:2}", "tru",
        "truex", "nul", "-", "1.", "1e", "1e+", ".5", "+1", "[1 2]", "\"\x01\"", "\"\\x\"",
        "\"\\u12\"", "\"abc", "\f1", "\xEF\xBB\xBF{}", "[}", "{]"})
    EXPECT_EQ(go_raw(bad), "<error>") << bad;
}

TEST(lang_go_json, maps_are_objects_in_key_order) {
  std::string out;
  append_go_json_object(out, std::map<std::string, std::string>{});
  EXPECT_EQ(out, "{}");
  out.clear();
  append_go_json_object(out, std::map<std::string, std::string>{{"b", "2"}, {"a", "<"}});
  EXPECT_EQ(out, R"({"a":"\u003c","b":"2"})");
  out.clear();
  append_go_json_object(out, std::map<std::string, std::vector<std::string>>{
                               {"X-Multi", {"1", "2"}}, {"A", {"&"}}, {"Empty", {}}});
  EXPECT_EQ(out, R"({"A":["\u0026"],"Empty":[],"X-Multi":["1","2"]})");
}

TEST(lang_go_json, omitempty_map_fields_are_left_out_when_empty) {
  std::string out = R"({"a":1)";
  append_go_json_omitempty(out, "none", std::map<std::string, std::string>{});
  append_go_json_omitempty(out, "metadata", std::map<std::string, std::string>{{"k", "v"}});
  out += '}';
  EXPECT_EQ(out, R"({"a":1,"metadata":{"k":"v"}})");
}

} // namespace

TEST(go_map, duplicate_keys_keep_the_last_and_html_is_escaped_in_keys) {
  std::string error;
  EXPECT_EQ(remarshal_go_map(R"({"b":1,"a":2,"b":3,"<":"\u2028"})", {}, error),
            "{\"\\u003c\":\"\\u2028\",\"a\":2,\"b\":3}");
  EXPECT_EQ(remarshal_go_map(R"({"x":-0.0,"y":123456789012345678901234})", {}, error),
            R"({"x":-0,"y":1.2345678901234569e+23})");
}

TEST(go_map, extra_keys_are_set_and_a_value_that_is_no_object_is_gos_error) {
  std::string error;
  EXPECT_EQ(remarshal_go_map(R"({"a":[1.5,true,null]})", {{"X-Event", "push"}}, error),
            R"({"X-Event":"push","a":[1.5,true,null]})");
  EXPECT_FALSE(remarshal_go_map("[1]", {}, error));
  EXPECT_EQ(error, "json: cannot unmarshal array into Go value of type map[string]interface {}");
  EXPECT_FALSE(remarshal_go_map("{", {}, error));
}
