// Go text/template + sprig: actions, builtins, sprig functions and errors, checked against
// what Go's text/template prints for the same template and input.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/tmpl/go_template.hpp"

namespace {

using ganglion::dsl::compile_error;
using ganglion::dsl::go_template;

// Executes `text` with `.Input` = `input_json` decoded as Go's map[string]any would be.
std::string run(std::string_view text, std::string_view input_json = "null") {
  simdjson::dom::parser parser;
  auto doc = parser.parse(std::string(input_json));
  EXPECT_FALSE(doc.error()) << input_json;
  return go_template::parse(text).execute_input(doc.value_unsafe());
}

struct case_t {
  const char* text;
  const char* input;
  const char* expected;
};

void check(const std::vector<case_t>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      EXPECT_EQ(run(c.text, c.input), c.expected);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "threw: " << e.what();
    }
  }
}

const char* body = R"({"body":{"name":"fake","n":3,"f":3.5,"big":1000000,"ok":true,
  "tags":["a","b"],"nested":{"k":"v"},"nil":null,"empty":""}})";

TEST(template_test, text_fields_and_values) {
  check({
    {"plain text", "null", "plain text"},
    {"{{ .Input.body.name }}", body, "fake"},
    {"{{ .Input.body.n }}", body, "3"},
    {"{{ .Input.body.f }}", body, "3.5"},
    {"{{ .Input.body.big }}", body, "1e+06"},
    {"{{ .Input.body.ok }}", body, "true"},
    {"{{ .Input.body.tags }}", body, "[a b]"},
    {"{{ .Input.body.nested }}", body, "map[k:v]"},
    {"{{ .Input.body.missing }}", body, "<no value>"},
    {"{{ .Input.body.missing.deeper }}", body, "<no value>"},
    {"{{ .Input.body.nil }}", body, "<no value>"},
    {"{{ . }}", R"("x")", "map[Input:x]"},
    {"{{ \"a\\tb\" }}|{{ `raw\\n` }}|{{ 42 }}|{{ 1.5 }}|{{ true }}", "null", "a\tb|raw\\n|42|1.5|true"},
    {"{{ (.Input.body).name }}", body, "fake"},
    {"{{ $.Input.body.name }}", body, "fake"},
  });
}

TEST(template_test, trim_markers_and_comments) {
  check({
    {"a  {{- 1 -}}  b", "null", "a1b"},
    {"a  {{- 1 }}  b", "null", "a1  b"},
    {"a {{/* note */}} b", "null", "a  b"},
    {"a {{- /* note */ -}} b", "null", "ab"},
    {"{{-3}}|{{- 3}}", "null", "-3|3"},
  });
}

TEST(template_test, number_literals_in_go_syntax) {
  // Floats through strconv.ParseFloat, as Go's parser: hex with a `p` exponent, `_` separators.
  check({
    {"{{ 0x1p3 }}|{{ 0x1p-2 }}|{{ 1_0.5 }}|{{ 0x1F }}|{{ 1e3 }}", "null", "8|0.25|10.5|31|1000"},
  });
  // Integers through strconv.ParseInt with base 0: octal with `0o` or a leading 0, binary,
  // separators after a prefix, a sign.
  check({
    {"{{ 017 }}|{{ 0o17 }}|{{ 0O17 }}|{{ 0b101 }}|{{ 0B11 }}|{{ 1_000 }}|{{ 0x_1F }}", "null",
     "15|15|15|5|3|1000|31"},
    {"{{ -0b11 }}|{{ +0o7 }}|{{ 0 }}|{{ -9223372036854775808 }}|{{ 9223372036854775807 }}",
     "null", "-3|7|0|-9223372036854775808|9223372036854775807"},
    {"{{ add 0o10 0b10 }}", "null", "10"},
  });
}

TEST(template_test, variables_and_pipelines) {
  check({
    {"{{ $x := .Input.body.name }}{{ $x }}", body, "fake"},
    {"{{ $x := 1 }}{{ $x = 2 }}{{ $x }}", "null", "2"},
    {"{{ .Input.body.name | upper | printf \"<%s>\" }}", body, "<FAKE>"},
    {"{{ printf \"%s-%s\" (upper \"a\") (lower \"B\") }}", "null", "A-b"},
    {"{{ with $v := .Input.body.nested }}{{ $v.k }}{{ end }}", body, "v"},
  });
}

TEST(template_test, control_structures) {
  check({
    {"{{ if .Input.body.ok }}yes{{ else }}no{{ end }}", body, "yes"},
    {"{{ if .Input.body.empty }}yes{{ else }}no{{ end }}", body, "no"},
    {"{{ if .Input.body.missing }}a{{ else if .Input.body.n }}b{{ else }}c{{ end }}", body, "b"},
    {"{{ if not .Input.body.ok }}a{{ else if false }}b{{ else }}c{{ end }}", body, "c"},
    {"{{ range .Input.body.tags }}[{{ . }}]{{ end }}", body, "[a][b]"},
    {"{{ range $i, $v := .Input.body.tags }}{{ $i }}={{ $v }};{{ end }}", body, "0=a;1=b;"},
    {"{{ range $k, $v := .Input.body.nested }}{{ $k }}:{{ $v }}{{ end }}", body, "k:v"},
    {"{{ range .Input.body.missing }}x{{ else }}none{{ end }}", body, "none"},
    {"{{ range $v := list }}x{{ else }}empty{{ end }}", body, "empty"},
    {"{{ with .Input.body.nested }}{{ .k }}{{ end }}", body, "v"},
    {"{{ with .Input.body.missing }}x{{ else }}w{{ end }}", body, "w"},
  });
}

TEST(template_test, builtins) {
  check({
    {"{{ and 1 0 2 }}|{{ and 1 2 }}|{{ or 0 \"\" }}|{{ or 0 3 }}", "null", "0|2||3"},
    {"{{ not true }}|{{ not \"\" }}", "null", "false|true"},
    {"{{ len .Input.body.tags }}|{{ len \"héllo\" }}|{{ len .Input.body.nested }}", body, "2|6|1"},
    {"{{ index .Input.body.tags 1 }}|{{ index .Input \"body\" \"nested\" \"k\" }}", body, "b|v"},
    {"{{ eq .Input.body.name \"fake\" }}|{{ eq 1 2 3 1 }}|{{ ne \"a\" \"b\" }}", body, "true|true|true"},
    {"{{ eq .Input.body.n 3.0 }}|{{ lt 1 2 }}|{{ le 2 2 }}|{{ gt \"b\" \"a\" }}|{{ ge 1.5 2.5 }}", body,
     "true|true|true|true|false"},
    {"{{ print \"a\" 1 2 \"b\" }}|{{ println 1 \"x\" }}", "null", "a1 2b|1 x\n"},
    {"{{ printf \"%s|%d|%v|%q|%x|%X|%5.2f|%f|%.1f|%-3d|%03d|%%\" \"s\" 7 .Input.body.tags \"q\" 255 \"hi\" 3.14159 2.5 .Input.body.f 4 5 }}",
     body, "s|7|[a b]|\"q\"|ff|6869| 3.14|2.500000|3.5|4  |005|%"},
    {"{{ printf \"%d\" .Input.body.n }}|{{ printf \"%s\" }}|{{ printf \"x\" 1 }}", body,
     "%!d(float64=3)|%!s(MISSING)|x%!(EXTRA int=1)"},
  });
}

TEST(template_test, sprig_strings) {
  check({
    {"{{ \"aGVsbG8=\" | b64dec }}|{{ \"hello\" | b64enc }}|{{ \"My4xNA==\" | b64dec }}", "null",
     "hello|aGVsbG8=|3.14"},
    {"{{ \"abc$\" | b64dec }}", "null", "illegal base64 data at input byte 3"},
    {"{{ upper \"abc\" }}|{{ lower \"ABC\" }}|{{ title \"hello wide-world\" }}", "null",
     "ABC|abc|Hello Wide-World"},
    {"{{ trim \"  x \\n\" }}|{{ trimAll \"$\" \"$5.00$\" }}|{{ trimPrefix \"-\" \"-x\" }}|{{ trimSuffix \"-\" \"x-\" }}",
     "null", "x|5.00|x|x"},
    {"{{ replace \"-\" \"_\" \"a-b-c\" }}|{{ contains \"b\" \"abc\" }}|{{ hasPrefix \"a\" \"abc\" }}|{{ hasSuffix \"c\" \"abc\" }}",
     "null", "a_b_c|true|true|true"},
    {"{{ $p := split \"$\" \"foo$bar\" }}{{ $p._1 }}|{{ splitList \",\" \"a,b\" }}|{{ join \"-\" .Input.body.tags }}",
     body, "bar|[a b]|a-b"},
    {"{{ quote \"a\" 1 }}|{{ squote \"a\" }}|{{ cat \"a\" 1 nil \"b\" }}|{{ nospace \" a b \" }}",
     "null", "\"a\" \"1\"|'a'|a 1 b|ab"},
    {"{{ indent 2 \"a\\nb\" }}|{{ nindent 1 \"x\" }}", "null", "  a\n  b|\n x"},
    {"{{ toString 3 }}|{{ toString .Input.body.f }}", body, "3|3.5"},
    {"{{ \"0123456789abc\" | substr 0 7 }}|{{ substr 2 99 \"abcd\" }}|{{ substr -1 2 \"abcd\" }}",
     "null", "0123456|cd|ab"},
    {"{{ trunc 2 \"abcd\" }}|{{ trunc -3 \"abcd\" }}|{{ trunc 9 \"ab\" }}", "null",
     "ab|bcd|ab"},
    {"{{ sha256sum \"abc\" }}", "null",
     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
  });
}

TEST(template_test, sprig_data_and_math) {
  check({
    {"{{ default \"d\" .Input.body.missing }}|{{ default \"d\" .Input.body.name }}|{{ .Input.body.empty | default \"e\" }}",
     body, "d|fake|e"},
    {"{{ empty \"\" }}|{{ empty .Input.body.tags }}|{{ coalesce .Input.body.missing \"\" \"c\" }}",
     body, "true|false|c"},
    {"{{ toJson .Input.body.nested }}|{{ toJson \"<a&b>\" }}|{{ toRawJson \"<a&b>\" }}", body,
     R"({"k":"v"}|"\u003ca\u0026b\u003e"|"<a&b>")"},
    {"{{ toJson .Input.body.big }}|{{ (fromJson \"{\\\"a\\\":[1,2]}\").a }}", body, "1000000|[1 2]"},
    {"{{ $d := dict \"a\" 1 \"b\" \"x\" }}{{ get $d \"b\" }}|{{ hasKey $d \"a\" }}|{{ keys $d }}|{{ list 1 \"a\" }}",
     "null", "x|true|[a b]|[1 a]"},
    {"{{ int \"42\" }}|{{ int .Input.body.f }}|{{ int64 \"7\" }}|{{ float64 \"2.5\" }}|{{ atoi \"12\" }}|{{ atoi \"x\" }}",
     body, "42|3|7|2.5|12|0"},
    {"{{ add 1 2 3 }}|{{ sub 5 7 }}|{{ mul 2 3 4 }}|{{ div 7 2 }}|{{ mod 7 3 }}|{{ max 1 9 3 }}|{{ min 4 2 8 }}",
     "null", "6|-2|24|3|1|9|2"},
    {"{{ add .Input.body.n 1 }}", body, "4"},
  });
}

TEST(template_test, sprig_time_and_regex) {
  check({
    {"{{ date \"2006-01-02T15:04:05Z07:00 Mon Jan _2 3PM .000\" 0 }}", "null",
     "1970-01-01T00:00:00Z Thu Jan  1 12AM .000"},
    {"{{ regexMatch \"^[a-z]+$\" \"abc\" }}|{{ regexMatch \"[\" \"x\" }}|{{ regexFind \"[0-9]+\" \"ab12cd34\" }}",
     "null", "true|false|12"},
    {"{{ regexReplaceAll \"a(x*)b\" \"-ab-axxb-\" \"${1}W\" }}|{{ regexReplaceAll \"a*\" \"baaac\" \"-\" }}",
     "null", "-W-xxW-|-b-c-"},
  });
  auto year = run("{{ now | date \"2006\" }}");
  EXPECT_EQ(year.size(), 4u);
  EXPECT_GE(std::stoi(year), 2024);
}

void expect_compile_error(std::string_view text, std::size_t offset, std::string_view fragment) {
  SCOPED_TRACE(std::string(text));
  try {
    go_template::parse(text);
    ADD_FAILURE() << "no compile_error";
  } catch (const compile_error& e) {
    EXPECT_EQ(e.offset(), offset) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(template_test, number_literals_go_refuses) {
  // 08 is octal with a digit 8: ParseFloat reads it, and an integer-looking float is, for Go,
  // an integer that does not fit.
  expect_compile_error("{{ 08 }}", 3, "integer overflow: \"08\"");
  expect_compile_error("{{ 9223372036854775808 }}", 3, "integer overflow");
  expect_compile_error("{{ 0b102 }}", 3, "bad number syntax: \"0b102\"");
  expect_compile_error("{{ 0o8 }}", 3, "bad number syntax");
  expect_compile_error("{{ 1__0 }}", 3, "bad number syntax");
  expect_compile_error("{{ 0b_ }}", 3, "bad number syntax");
}

TEST(template_test, compile_errors_with_offsets) {
  expect_compile_error("ab {{ nope .Input }}", 6, "function \"nope\" not defined");
  expect_compile_error("x {{ .Input ", 2, "unclosed action");
  expect_compile_error("{{ .Input | 3 }}", 12, "non executable command in pipeline stage 2");
  expect_compile_error("{{ if .Input }}x", 3, "has no {{end}}");
  expect_compile_error("{{ end }}", 3, "unexpected {{end}}");
  expect_compile_error("{{ $y }}", 3, "undefined variable \"$y\"");
  expect_compile_error("{{ \"abc }}", 3, "unterminated quoted string");
  expect_compile_error("{{ (upper \"a\" }}", 3, "unclosed left paren");
  expect_compile_error("{{ }}", 3, "missing value for command");
  expect_compile_error("{{ nil }}", 3, "nil is not a command");
  expect_compile_error("{{/* x }}", 0, "unclosed comment");
  expect_compile_error("{{ define \"x\" }}{{ end }}", 3, "not supported");
}

void expect_runtime_error(std::string_view text, std::string_view input, std::string_view fragment) {
  SCOPED_TRACE(std::string(text));
  auto t = go_template::parse(text);
  simdjson::dom::parser parser;
  auto doc = parser.parse(std::string(input)).value_unsafe();
  try {
    t.execute_input(doc);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(template_test, runtime_errors) {
  expect_runtime_error("{{ upper .Input.n }}", R"({"n":1})", "expected string; got float64");
  expect_runtime_error("{{ upper .Input.missing }}", "{}", "invalid value; expected string");
  expect_runtime_error("{{ eq .Input.n 1 }}", R"({"n":1})", "incompatible types for comparison");
  expect_runtime_error("{{ .Input.s.x }}", R"({"s":"a"})", "can't evaluate field x in type string");
  expect_runtime_error("{{ .Input.z.x }}", R"({"z":null})", "nil pointer evaluating");
  expect_runtime_error("{{ div 1 0 }}", "{}", "error calling div: runtime error: integer divide by zero");
  expect_runtime_error("{{ regexFind \"[\" \"x\" }}", "{}", "error calling regexFind");
  expect_runtime_error("{{ upper \"a\" \"b\" }}", "{}", "wrong number of args for upper: want 1 got 2");
  expect_runtime_error("{{ index .Input.a 5 }}", R"({"a":[1]})", "index out of range: 5");
  expect_runtime_error("{{ range 3 }}{{ end }}", "{}", "range can't iterate over 3");
  expect_runtime_error("{{ substr 5 9 \"abcd\" }}", "{}",
                       "slice bounds out of range [5:4] with length 4");
}

TEST(template_test, a_template_that_runs_away_is_cut_off_by_its_step_limit) {
  // 200 elements, three nested ranges: 8 million iterations that write nothing.
  std::string list = "[0";
  for (int i = 1; i < 200; ++i)
    list += "," + std::to_string(i);
  std::string input = R"({"a":)" + list + "]}";
  expect_runtime_error(
      "{{ range .Input.a }}{{ range $.Input.a }}{{ range $.Input.a }}{{ end }}{{ end }}{{ end }}",
      input, "exceeded its step limit");
  // A string doubled in a variable on every iteration is stopped at the size limit.
  expect_runtime_error("{{ $x := \"xxxxxxxxxxxxxxxx\" }}{{ range .Input.a }}{{ $x = cat $x $x }}"
                       "{{ end }}{{ len $x }}",
                       input, "exceeded the size limit");
  // Two nested ranges over the same list (40,000 iterations) are well within it.
  EXPECT_EQ(run("{{ range .Input.a }}{{ range $.Input.a }}{{ end }}{{ end }}ok", input), "ok");
}

TEST(template_test, string_input_and_reuse) {
  auto t = go_template::parse("{{ .Input | b64dec | upper }}");
  EXPECT_EQ(t.execute_input_string("aGVsbG8="), "HELLO");
  EXPECT_EQ(t.execute_input_string("d29ybGQ="), "WORLD");
  auto copy = t;
  EXPECT_EQ(copy.text(), "{{ .Input | b64dec | upper }}");
  EXPECT_EQ(go_template::parse("{{ .a }}").execute(nlohmann::json{{"a", 3}}), "3");
}

} // namespace
