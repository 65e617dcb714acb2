// Trigger parameters: the cases of Argo's params_test.go (ConstructPayload, ResolveParamValue,
// ApplyParams) plus absent `||` dependencies.

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/params/parameters.hpp"

namespace {

using namespace ganglion::dsl;

trigger_parameter param(std::string dependency, std::string data_key, std::string dest,
                        std::optional<std::string> value = std::nullopt, bool raw = false) {
  trigger_parameter p;
  p.src.dependency_name = std::move(dependency);
  p.src.data_key = std::move(data_key);
  p.src.value = std::move(value);
  p.src.use_raw_data = raw;
  p.dest = std::move(dest);
  return p;
}

std::vector<compiled_parameter> compile(const std::vector<trigger_parameter>& ps) {
  std::vector<compiled_parameter> out;
  for (const auto& p : ps)
    out.emplace_back(p);
  return out;
}

class parameters_test : public ::testing::Test {
protected:
  // Adds an event for `dependency` with JSON `data`, parsed as the sensor does.
  event_view& add(const std::string& dependency, std::string data) {
    data_.push_back(std::make_unique<std::string>(std::move(data)));
    parsers_.push_back(std::make_unique<simdjson::dom::parser>());
    auto& e = events_[dependency];
    e.id = "1";
    e.source = "webhook-gateway";
    e.specversion = "1.0";
    e.type = "webhook";
    e.subject = "example-1";
    e.datacontenttype = "application/json";
    e.time = "2024-03-05T10:20:30.123456789Z";
    e.data_raw = *data_.back();
    auto parsed = parsers_.back()->parse(*data_.back());
    if (!parsed.error()) {
      e.data = parsed.value_unsafe();
      e.data_is_json = true;
    }
    return e;
  }

  event_lookup lookup() {
    return [this](std::string_view dep) -> const event_view* {
      auto it = events_.find(std::string(dep));
      return it == events_.end() ? nullptr : &it->second;
    };
  }

  std::string resolve(const trigger_parameter& p) {
    compiled_parameter c(p);
    auto v = resolve_parameter(c, lookup()(p.src.dependency_name));
    return v ? v->text : "<none>";
  }

  std::map<std::string, event_view> events_;
  std::vector<std::unique_ptr<std::string>> data_;
  std::vector<std::unique_ptr<simdjson::dom::parser>> parsers_;
};

TEST_F(parameters_test, construct_payload_with_raw_and_stringified_values) {
  add("fake-dependency", R"({"firstName": "fake"})");
  add("another-fake-dependency", R"({"lastName": "foo"})");
  add("use-event-data-type", R"({"age": 100, "isActive": false, "countries": ["ca", "us", "mx"]})");
  auto params = std::vector<trigger_parameter>{
    param("fake-dependency", "firstName", "firstName", "faker"),
    param("another-fake-dependency", "lastName", "lastName", "bar"),
    param("use-event-data-type", "age", "age", std::nullopt, true),
    param("use-event-data-type", "isActive", "isActive", std::nullopt, true),
    param("use-event-data-type", "age", "typelessAge"),
    param("use-event-data-type", "isActive", "typelessIsActive"),
  };
  EXPECT_EQ(build_payload(compile(params), lookup()),
            R"({"firstName":"fake","lastName":"foo","age":100,"isActive":false,)"
            R"("typelessAge":"100","typelessIsActive":"false"})");
  params[0].src.data_key = "unknown";
  params[1].src.data_key = "unknown";
  EXPECT_EQ(build_payload(compile({params[0], params[1]}), lookup()),
            R"({"firstName":"faker","lastName":"bar"})");
}

TEST_F(parameters_test, null_values_stay_null) {
  add("test-dep", R"({"nullable_key": null, "other_key": "value"})");
  auto payload = build_payload(compile({param("test-dep", "nullable_key", "nullable_key",
                                              std::nullopt, true),
                                        param("test-dep", "other_key", "other_key")}),
                               lookup());
  EXPECT_EQ(payload, R"({"nullable_key":null,"other_key":"value"})");
}

TEST_F(parameters_test, resolve_param_value_cases) {
  add("fake-dependency", R"({"name": {"first": "fake", "last": "user"}, "reviews": 8,)"
                         R"( "rating": 4.5, "isActive" : true, "countries": ["ca", "us", "mx"]})");
  EXPECT_EQ(resolve(param("fake-dependency", "name.first", "")), "fake");
  auto subject = param("fake-dependency", "", "");
  subject.src.context_key = "subject";
  EXPECT_EQ(resolve(subject), "example-1");
  EXPECT_EQ(resolve(param("fake-dependency", "", "", "hello")), "hello");
  auto both = param("fake-dependency", "name.first", "");
  both.src.context_key = "subject";
  EXPECT_EQ(resolve(both), "fake");
  EXPECT_EQ(resolve(param("fake-dependency", "name.first", "", std::nullopt, true)), "fake");
  EXPECT_EQ(resolve(param("fake-dependency", "name", "", std::nullopt, true)),
            R"({"first":"fake","last":"user"})");
  EXPECT_EQ(resolve(param("fake-dependency", "countries", "", std::nullopt, true)),
            R"(["ca","us","mx"])");
  EXPECT_EQ(resolve(param("fake-dependency", "rating", "")), "4.5");
}

TEST_F(parameters_test, no_key_gives_the_whole_event_with_base64_data) {
  add("dep", R"({"a":1})");
  EXPECT_EQ(resolve(param("dep", "", "")),
            R"({"context":{"id":"1","source":"webhook-gateway","specversion":"1.0",)"
            R"("type":"webhook","datacontenttype":"application/json","subject":"example-1",)"
            R"("time":"2024-03-05T10:20:30Z"},"data":"eyJhIjoxfQ=="})");
  // Inserted with a dest, the whole event is a JSON string, as in Argo.
  EXPECT_EQ(build_payload(compile({param("dep", "", "event")}), lookup()).substr(0, 22),
            R"({"event":"{\"context\")");
}

TEST_F(parameters_test, context_time_is_converted_to_utc_seconds) {
  add("dep", "{}").time = "2024-03-05T01:20:30.5-02:30";
  auto p = param("dep", "", "");
  p.src.context_key = "time";
  EXPECT_EQ(resolve(p), "2024-03-05T03:50:30Z");
}

TEST_F(parameters_test, defaults_cover_missing_keys_and_unusable_data) {
  add("dep", R"({"a":1})");
  EXPECT_EQ(resolve(param("dep", "missing", "", "dflt")), "dflt");
  EXPECT_THROW(resolve(param("dep", "missing", "")), std::runtime_error);
  add("text", "plain words").datacontenttype = "text/plain";
  EXPECT_EQ(resolve(param("text", "a", "", "dflt")), "dflt");
  EXPECT_THROW(resolve(param("text", "a", "")), std::runtime_error);
  add("broken", "{not json");
  EXPECT_THROW(resolve(param("broken", "a", "")), std::runtime_error);
}

TEST_F(parameters_test, absent_or_dependency_never_crashes) {
  add("present", R"({"a":"x"})");
  auto params = compile({param("present", "a", "a"), param("absent", "b", "b"),
                         param("absent", "c", "c", "fallback"), param("absent", "d", "")});
  EXPECT_EQ(build_payload(params, lookup()), R"({"a":"x","c":"fallback"})");
  EXPECT_EQ(resolve(param("absent", "b", "")), "<none>");
  EXPECT_EQ(resolve(param("absent", "b", "", "v")), "v");
  EXPECT_EQ(build_payload(compile({param("absent", "b", "b")}), lookup()), "");
}

TEST_F(parameters_test, empty_dest_makes_the_value_the_whole_body) {
  add("dep", R"({"body": {"k": [1, 2]}, "s": "text"})");
  EXPECT_EQ(build_payload(compile({param("dep", "body", "", std::nullopt, true),
                                   param("dep", "s", "ignored")}),
                          lookup()),
            R"({"k":[1,2]})");
  EXPECT_EQ(build_payload(compile({param("dep", "s", "first"), param("dep", "s", "")}), lookup()),
            "text");
}

TEST_F(parameters_test, apply_params_operations) {
  add("fake-dependency", R"({"name": {"first": "fake", "last": "user"}, "age": 100,)"
                         R"( "countries": ["ca", "us", "mx"] })");
  auto apply = [&](std::string doc, std::vector<trigger_parameter> ps) {
    apply_parameters(doc, compile(ps), lookup());
    return doc;
  };
  auto with_op = [](trigger_parameter p, std::string op) {
    p.operation = std::move(op);
    return p;
  };
  auto first = param("fake-dependency", "name.first", "name");
  EXPECT_EQ(apply(R"({"name": "faker"})", {first}), R"({"name": "fake"})");
  EXPECT_EQ(apply(R"({"name": "faker"})", {with_op(first, "overwrite")}), R"({"name": "fake"})");
  EXPECT_EQ(apply(R"({"name": "faker"})", {with_op(first, "prepend")}), R"({"name": "fakefaker"})");
  EXPECT_EQ(apply(R"({"name": "faker"})", {with_op(first, "append")}), R"({"name": "fakerfake"})");
  EXPECT_EQ(apply(R"({"name": "faker"})", {param("fake-dependency", "name", "name")}),
            R"({"name": "{\"first\":\"fake\",\"last\":\"user\"}"})");
  EXPECT_EQ(apply(R"({"name": "faker"})",
                  {param("fake-dependency", "name", "name", std::nullopt, true)}),
            R"({"name": {"first":"fake","last":"user"}})");
  EXPECT_EQ(
    apply(R"({"age": "this-gets-over-written", "ageWithYears": "Years: "})",
          {param("fake-dependency", "age", "age", std::nullopt, true),
           with_op(param("fake-dependency", "age", "ageWithYears", std::nullopt, true), "append"),
           with_op(param("fake-dependency", "countries", "countries", std::nullopt, true),
                   "append")}),
    R"({"age": 100, "ageWithYears": "Years: 100","countries":["ca","us","mx"]})");
  EXPECT_EQ(apply(R"({"k8s":{"group":"old"}})", {param("absent", "x", "k8s.group")}),
            R"({"k8s":{"group":"old"}})");
}

TEST(compiled_parameter, rejects_what_cannot_run) {
  auto templated = param("dep", "", "x");
  templated.src.data_template = "{{ nope .Input.a }}";
  EXPECT_THROW(compiled_parameter{templated}, compile_error);
  templated.src.data_key = "a";
  compiled_parameter with_key{templated};
  EXPECT_FALSE(with_key.tmpl);
  EXPECT_NE(with_key.template_error.find("function \"nope\" not defined"), std::string::npos);
  templated.src.data_template = "{{ .Input.a }}";
  EXPECT_TRUE(compiled_parameter{templated}.tmpl);
  auto bad_op = param("dep", "a", "x");
  bad_op.operation = "merge";
  EXPECT_THROW(compiled_parameter{bad_op}, compile_error);
  EXPECT_THROW(compiled_parameter{param("dep", "a..b", "x")}, compile_error);
  EXPECT_THROW(compiled_parameter{param("dep", "a", "x.#")}, compile_error);
}

trigger_parameter templated(std::string data_template, std::string context_template,
                            std::string data_key = "") {
  auto p = param("fake-dependency", std::move(data_key), "x");
  p.src.data_template = std::move(data_template);
  p.src.context_template = std::move(context_template);
  return p;
}

// params_test.go TestResolveParamValue, the template cases.
TEST_F(parameters_test, templates_resolve_before_keys) {
  add("fake-dependency",
      R"({"name": {"first": "fake", "last": "user"}, "reviews": 8, "rating": 4.5})");
  EXPECT_EQ(resolve(templated("{{ .Input.name.first }}", "")), "fake");
  EXPECT_EQ(resolve(templated("{{ upper .Input.name.first }}", "")), "FAKE");
  EXPECT_EQ(resolve(templated("", "{{ .Input.subject }}")), "example-1");
  EXPECT_EQ(resolve(templated("", R"({{ .Input.subject | replace "-" "_" }})")), "example_1");
  EXPECT_EQ(resolve(templated("{{ .Input.name.first }}", "{{ .Input.subject }}")), "fake");
  EXPECT_EQ(resolve(templated("{{ .Input.name.non_exist }}", "", "name.first")), "fake");
  EXPECT_EQ(resolve(templated("{{ no }}", "", "name.first")), "fake");
  EXPECT_EQ(resolve(templated("{{ .Input.reviews }}/{{ .Input.rating }}", "")), "8/4.5");
  EXPECT_EQ(resolve(templated("{{ toJson .Input.name }}", "")), R"({"first":"fake","last":"user"})");
}

TEST_F(parameters_test, failed_templates_fall_back_to_value_then_error) {
  add("fake-dependency", R"({"name": "x"})");
  auto with_value = templated("{{ .Input.missing }}", "");
  with_value.src.value = "default";
  EXPECT_EQ(resolve(with_value), "default");
  auto raw = templated("{{ .Input.name }}", "");
  raw.src.use_raw_data = true;
  compiled_parameter c(raw);
  auto v = resolve_parameter(c, lookup()("fake-dependency"));
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->is_json);
  try {
    resolve(templated("{{ upper .Input.missing }}", ""));
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("unable to resolve 'fake-dependency'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("invalid value; expected string"), std::string::npos)
      << e.what();
  }
  EXPECT_EQ(build_payload(compile({templated("{{ .Input.name }}!", "")}), lookup()), R"({"x":"x!"})");
}

TEST(resolved_value, quotes_plain_strings_only) {
  EXPECT_EQ((resolved_value{"a\"b", false}.as_json()), R"("a\"b")");
  EXPECT_EQ((resolved_value{"<b>", false}.as_json()), R"("<b>")");
  EXPECT_EQ((resolved_value{"é<", false}.as_json()), R"("é\u003c")");
  EXPECT_EQ((resolved_value{"[1]", true}.as_json()), "[1]");
}

} // namespace
