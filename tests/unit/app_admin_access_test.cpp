// The admin API's request checks: Host (DNS rebinding), cross-site state changes, bearer token.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "admin_access.hpp"
#include "admin_token.hpp"
#include "files.hpp"

namespace ganglion::app {
namespace {

admin_access bound_to(std::string host, std::vector<std::string> names = {}) {
  return admin_access{std::move(host), std::move(names), nullptr};
}

http::request request(std::string method, std::string path, http::header_list headers) {
  http::request r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.target = r.path;
  r.headers = std::move(headers);
  return r;
}

int status_of(const admin_access& access, const http::request& req,
              admin_route_kind kind = admin_route_kind::api) {
  auto refusal = refuse_admin_request(access, req, kind);
  return refusal ? refusal->status : 200;
}

std::string write_token(const std::string& text) {
  auto path = test::temp_dir() + "/token";
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

TEST(admin_host, accepts_loopback_names_and_the_bound_address_on_any_port) {
  auto access = bound_to("127.0.0.1");
  for (const char* host : {"127.0.0.1:8081", "127.0.0.1", "localhost", "localhost:9000",
                           "LOCALHOST:8081", "localhost.:8081", "[::1]:8081", "[::1]", ""})
    EXPECT_TRUE(host_allowed(access, host)) << host;
  EXPECT_TRUE(host_allowed(bound_to("admin.internal"), "admin.internal:8081"));
  EXPECT_TRUE(host_allowed(bound_to("[::1]"), "[::1]:8081"));
}

TEST(admin_host, accepts_any_ip_literal_so_kubelet_probes_work) {
  auto access = bound_to("0.0.0.0");
  for (const char* host : {"10.244.1.17:8081", "10.244.1.17", "[fd00::17]:8081", "[fe80::1]",
                           "192.168.0.2:80"})
    EXPECT_TRUE(host_allowed(access, host)) << host;
  EXPECT_TRUE(host_allowed(bound_to("::"), "[2001:db8::1]:8081"));
}

TEST(admin_host, refuses_dns_names_not_listed) {
  auto access = bound_to("0.0.0.0");
  for (const char* host : {"evil.example:8081", "evil.example", "localhost.evil.example",
                           "127.0.0.1.nip.io:8081", "10.0.0.1.evil", "[not-an-ip]:80",
                           "host:notaport", "[::1]junk", "ganglion.default.svc"})
    EXPECT_FALSE(host_allowed(access, host)) << host;
}

TEST(admin_host, accepts_names_of_admin_host) {
  auto access = bound_to("0.0.0.0", {"ganglion.ops.svc", "*.example.com", "Admin.Internal:8081"});
  EXPECT_TRUE(host_allowed(access, "ganglion.ops.svc:8081"));
  EXPECT_TRUE(host_allowed(access, "a.example.com"));
  EXPECT_TRUE(host_allowed(access, "b.a.EXAMPLE.com:443"));
  EXPECT_FALSE(host_allowed(access, "example.com"));
  EXPECT_FALSE(host_allowed(access, "badexample.com"));
  EXPECT_TRUE(host_allowed(access, "admin.internal"));
}

TEST(admin_request, refuses_a_host_not_served_with_a_clear_text) {
  auto access = bound_to("0.0.0.0");
  auto refusal =
    refuse_admin_request(access, request("GET", "/v1/status", {{"Host", "evil.example:8081"}}),
                         admin_route_kind::api);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->status, 403);
  EXPECT_NE(refusal->body.find("Host 'evil.example:8081' is not one this admin server answers "
                               "to; add it with --admin-host"),
            std::string::npos)
    << refusal->body;
  EXPECT_EQ(status_of(access, request("GET", "/health", {{"Host", "evil.example"}}),
                      admin_route_kind::probe),
            403);
}

TEST(admin_request, refuses_cross_site_state_changes) {
  auto access = bound_to("127.0.0.1");
  auto simple = request("POST", "/v1/reload",
                        {{"Host", "127.0.0.1:8081"},
                         {"Origin", "https://evil.example"},
                         {"Content-Type", "text/plain"}});
  auto refusal = refuse_admin_request(access, simple, admin_route_kind::api);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->status, 403);
  EXPECT_NE(refusal->body.find("Origin"), std::string::npos) << refusal->body;
  EXPECT_NE(refusal->body.find("curl -X POST -H 'X-Ganglion-Admin: 1' "
                               "http://127.0.0.1:8081/v1/reload"),
            std::string::npos)
    << refusal->body;
  // Even with the header: a browser that sent it says where it came from.
  EXPECT_EQ(status_of(access, request("POST", "/v1/reload",
                                      {{"Origin", "null"}, {"X-Ganglion-Admin", "1"}})),
            403);
  for (const char* method : {"PUT", "PATCH", "DELETE", "POST"})
    EXPECT_EQ(status_of(access, request(method, "/v1/reload", {{"origin", "http://x"}})), 403)
      << method;
}

TEST(admin_request, state_changes_need_the_admin_header) {
  auto access = bound_to("127.0.0.1");
  auto refusal = refuse_admin_request(
    access, request("POST", "/v1/sources/a/b/restart", {{"Content-Type", "application/json"}}),
    admin_route_kind::api);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->status, 403);
  EXPECT_NE(refusal->body.find("needs the header X-Ganglion-Admin"), std::string::npos);
  EXPECT_NE(refusal->body.find("curl -X POST -H 'X-Ganglion-Admin: 1' "
                               "http://HOST:PORT/v1/sources/a/b/restart"),
            std::string::npos)
    << refusal->body;
  EXPECT_EQ(status_of(access, request("POST", "/v1/reload", {{"X-Ganglion-Admin", ""}})), 403);
  EXPECT_EQ(status_of(access, request("POST", "/v1/reload", {{"x-ganglion-admin", "1"}})), 200);
}

TEST(admin_request, reads_are_served_with_an_origin) {
  auto access = bound_to("127.0.0.1");
  EXPECT_EQ(status_of(access, request("GET", "/v1/status", {{"Origin", "https://evil.example"}})),
            200);
  EXPECT_EQ(status_of(access, request("HEAD", "/metrics", {})), 200);
}

TEST(admin_request, token_guards_all_but_probes) {
  auto access = bound_to("0.0.0.0");
  access.token = std::make_shared<admin_token>(write_token("s3cret-token\n"));
  auto missing = refuse_admin_request(access, request("GET", "/v1/status", {}),
                                      admin_route_kind::api);
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 401);
  ASSERT_EQ(missing->headers.size(), 1u);
  EXPECT_EQ(missing->headers[0].first, "WWW-Authenticate");
  EXPECT_TRUE(missing->headers[0].second.starts_with("Bearer"));
  EXPECT_EQ(missing->body.find("s3cret"), std::string::npos);
  EXPECT_EQ(status_of(access, request("GET", "/metrics", {{"Authorization", "Bearer wrong"}})),
            401);
  EXPECT_EQ(status_of(access, request("GET", "/metrics", {{"Authorization", "Bearer s3cret-token-"}})),
            401);
  EXPECT_EQ(status_of(access, request("GET", "/metrics", {{"Authorization", "s3cret-token"}})), 401);
  EXPECT_EQ(
    status_of(access, request("GET", "/metrics", {{"Authorization", "Bearer s3cret-token"}})),
    200);
  EXPECT_EQ(
    status_of(access, request("GET", "/metrics", {{"authorization", "bearer s3cret-token"}})),
    200);
  EXPECT_EQ(status_of(access, request("GET", "/ready", {{"Host", "10.1.2.3:8081"}}),
                      admin_route_kind::probe),
            200);
  EXPECT_EQ(status_of(access, request("POST", "/v1/reload",
                                      {{"X-Ganglion-Admin", "1"},
                                       {"Authorization", "Bearer s3cret-token"}})),
            200);
}

TEST(admin_token_file, trims_the_newline_and_refuses_an_empty_or_missing_file) {
  EXPECT_EQ(admin_token(write_token("abc\r\n")).current(), "abc");
  EXPECT_THROW(admin_token(write_token("\n")), std::runtime_error);
  try {
    admin_token(write_token(""));
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is empty"), std::string::npos) << e.what();
  }
  EXPECT_THROW(admin_token("/nonexistent/token"), std::runtime_error);
}

TEST(admin_token_file, reads_the_file_again_when_it_changes) {
  auto path = write_token("first");
  admin_token token(path);
  EXPECT_TRUE(token.accepts("Bearer first"));
  // A rotated Secret: a new file renamed over the old one.
  auto next = path + ".new";
  std::ofstream(next, std::ios::binary) << "second\n";
  std::filesystem::rename(next, path);
  EXPECT_TRUE(token.accepts("Bearer second"));
  EXPECT_FALSE(token.accepts("Bearer first"));
  // An emptied file keeps the token it had.
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "";
  EXPECT_TRUE(token.accepts("Bearer second"));
}

} // namespace
} // namespace ganglion::app
