// The OpenWhisk invocation request: URL as OpenWhisk's Go client builds it, headers, outcome.

#include <gtest/gtest.h>

#include "trigger/invoke_request.hpp"

using namespace ganglion;
using namespace ganglion::openwhisk::detail;

TEST(openwhisk_invoke_request, url_defaults_and_scheme) {
  EXPECT_EQ(invoke_url(read_address(R"({"host":"ow.svc:9000","actionName":"hello"})")),
            "https://ow.svc:9000/api/v1/namespaces/_/actions/hello?blocking=true&result=true");
  EXPECT_EQ(invoke_url(read_address(R"({"host":"http://127.0.0.1:3233","version":"v2",)"
                                    R"("namespace":"guest","actionName":"pkg/say hi?"})")),
            "http://127.0.0.1:3233/api/v2/namespaces/guest/actions/pkg/say%20hi%3F"
            "?blocking=true&result=true");
  EXPECT_EQ(invoke_url(read_address(R"({"host":"localhost:3233","actionName":"a"})")),
            "https://localhost:3233/api/v1/namespaces/_/actions/a?blocking=true&result=true");
}

TEST(openwhisk_invoke_request, missing_or_mistyped_fields_are_errors) {
  EXPECT_THROW(invoke_url(read_address(R"({"actionName":"a"})")), std::runtime_error);
  EXPECT_THROW(invoke_url(read_address(R"({"host":"h"})")), std::runtime_error);
  EXPECT_THROW(read_address(R"({"host":7})"), std::runtime_error);
  EXPECT_THROW(read_address("[]"), std::runtime_error);
}

TEST(openwhisk_invoke_request, escape_path_is_gos) {
  EXPECT_EQ(escape_path("a-b_c.d~e$&+,/:;=@"), "a-b_c.d~e$&+,/:;=@");
  EXPECT_EQ(escape_path("a b#%\xc3\xa9"), "a%20b%23%25%C3%A9");
}

TEST(openwhisk_invoke_request, token_is_basic_auth_of_the_whole_key) {
  auto r = invoke_request(read_address(R"({"host":"http://h","actionName":"a"})"),
                          std::string{"user:pass"}, R"({"x":1})");
  EXPECT_EQ(r.method, "POST");
  EXPECT_EQ(r.body, R"({"x":1})");
  auto header = [&](const std::string& name) {
    for (const auto& [k, v] : r.headers)
      if (k == name)
        return v;
    return std::string{};
  };
  EXPECT_EQ(header("Authorization"), "Basic dXNlcjpwYXNz");
  EXPECT_EQ(header("Content-Type"), "application/json");
}

TEST(openwhisk_invoke_request, judge_needs_2xx_then_the_policy) {
  http::client_response ok{200, "{}", {}, {}};
  EXPECT_TRUE(judge(ok, "a", {}).ok);
  EXPECT_EQ(judge(ok, "a", {}).detail, "HTTP 200");
  http::client_response missing{
    404, R"({"error":"The requested resource does not exist."})", {}, {}};
  auto o = judge(missing, "hello", {});
  EXPECT_FALSE(o.ok);
  EXPECT_EQ(
    o.error,
    R"(failed to invoke action hello, HTTP 404: {"error":"The requested resource does not exist."})");
  EXPECT_FALSE(judge(missing, "a", {404}).ok);
  http::client_response accepted{202, "{}", {}, {}};
  EXPECT_FALSE(judge(accepted, "a", {200}).ok);
  http::client_response none{0, {}, "Connection refused", {}};
  EXPECT_EQ(judge(none, "a", {}).error, "failed to invoke action a, Connection refused");
}
