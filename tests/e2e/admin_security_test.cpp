// The admin API as a web page or a rebinding attacker reaches it: a cross-site simple POST is
// refused and reloads nothing, a DNS name not served gets 403, --admin-token-file asks for
// the token on all but the probes; and credentials in a manifest's URLs reach neither the log
// nor /v1/status (docs/security.md, "The admin API" and "Credentials in URLs").

#include <fstream>

#include "engine_process.hpp"
#include "eventually.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

std::string hooks(std::uint16_t port) {
  return e2e::webhook_source("hooks", port, {"example"});
}

std::string admin_host(const e2e::engine_process& engine) {
  auto url = engine.admin_url("");
  return url.substr(std::string("http://").size());
}

TEST(e2e_admin_security, cross_site_simple_post_is_refused_and_reloads_nothing) {
  e2e::engine_options options;
  options.watch = false;
  e2e::engine_process engine(hooks(test::free_port()), options);
  ASSERT_EQ(engine.reloads(), 0);

  // What a <form> or fetch(..., {mode: "no-cors"}) on another site sends.
  auto cross_site = test::http_request("POST", engine.admin_url("/v1/reload"), "x",
                                       {"Origin: https://evil.example", "Content-Type: text/plain"});
  EXPECT_EQ(cross_site.status, 403);
  EXPECT_NE(cross_site.body.find("Origin"), std::string::npos) << cross_site.body;
  EXPECT_NE(cross_site.body.find("curl -X POST -H 'X-Ganglion-Admin: 1'"), std::string::npos)
    << cross_site.body;
  auto bare = test::http_request("POST", engine.admin_url("/v1/sources/hooks/example/restart"));
  EXPECT_EQ(bare.status, 403);
  EXPECT_NE(bare.body.find("needs the header X-Ganglion-Admin"), std::string::npos) << bare.body;
  EXPECT_EQ(engine.reloads(), 0) << engine.status();

  // The documented call; reloads run one at a time, so a refused request that had reloaded
  // would show as a second one.
  EXPECT_EQ(engine.admin_post("/v1/reload").status, 200);
  EXPECT_TRUE(engine.wait_reloads(1));
  EXPECT_EQ(engine.reloads(), 1) << engine.status();
}

TEST(e2e_admin_security, rebinding_request_gets_403_unless_the_name_is_listed) {
  e2e::engine_process engine(hooks(test::free_port()), e2e::engine_options{
                                                         .extra_args = {"--admin-host", "ganglion.internal"}});
  auto port = admin_host(engine).substr(admin_host(engine).rfind(':'));
  auto rebound =
    test::http_request("GET", engine.admin_url("/v1/status"), {}, {"Host: attacker.example" + port});
  EXPECT_EQ(rebound.status, 403);
  EXPECT_NE(rebound.body.find("Host 'attacker.example" + port
                              + "' is not one this admin server answers to; add it with "
                                "--admin-host"),
            std::string::npos)
    << rebound.body;
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/v1/status"), {},
                               {"Host: ganglion.internal" + port})
              .status,
            200);
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/v1/status"), {}, {"Host: localhost" + port})
              .status,
            200);
  // A kubelet probe names the pod's IP.
  EXPECT_EQ(
    test::http_request("GET", engine.admin_url("/ready"), {}, {"Host: 10.244.0.7" + port}).status,
    200);
}

TEST(e2e_admin_security, token_file_guards_all_but_the_probes) {
  auto token_file = test::temp_dir() + "/admin-token";
  std::ofstream(token_file) << "0123456789abcdef\n";
  // start() waits for /ready, which needs no token.
  e2e::engine_process engine(hooks(test::free_port()),
                             e2e::engine_options{.extra_args = {"--admin-token-file", token_file}});
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/health")).status, 200);
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/v1/status")).status, 401);
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/metrics")).status, 401);
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/v1/status"), {},
                               {"Authorization: Bearer wrong"})
              .status,
            401);
  EXPECT_EQ(engine.admin_post("/v1/reload").status, 401);
  const std::string bearer = "Authorization: Bearer 0123456789abcdef";
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/v1/status"), {}, {bearer}).status, 200);
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/metrics"), {}, {bearer}).status, 200);
  EXPECT_EQ(engine.admin_post("/v1/reload", {bearer}).status, 200);
}

TEST(e2e_admin_security, an_empty_token_file_stops_the_start) {
  auto token_file = test::temp_dir() + "/admin-token";
  std::ofstream(token_file) << "\n";
  e2e::engine_options options;
  options.wait_ready = false;
  options.extra_args = {"--admin-token-file", token_file};
  e2e::engine_process engine(hooks(test::free_port()), options);
  auto code = engine.process().wait(20s);
  ASSERT_TRUE(code);
  EXPECT_EQ(*code, 1);
  EXPECT_NE(engine.output().find("--admin-token-file " + token_file + " is empty"),
            std::string::npos)
    << engine.output();
}

TEST(e2e_redaction, neither_logged_nor_shown_in_status) {
  auto port = test::free_port();
  // A trigger URL with a password that cannot be used: its error names the URL.
  auto manifests = hooks(port) + e2e::hook_sensor(R"(    - template:
        name: notify
        http:
          url: ftp://alice:s3cr3t-pw@127.0.0.1:1/hook
          method: POST
)");
  e2e::engine_process engine(manifests, e2e::engine_options{.wait_ready = false});
  ASSERT_TRUE(test::wait_http_ok(engine.admin_url("/health"), 20s));
  EXPECT_EQ(e2e::post(port, "example", R"({"n":1})").status, 200);
  ASSERT_TRUE(test::eventually([&] {
    return engine.status().find("ftp://***@127.0.0.1:1/hook") != std::string::npos;
  })) << engine.status() << engine.output();
  ASSERT_TRUE(test::eventually(
    [&] { return engine.output().find("ftp://***@127.0.0.1:1/hook") != std::string::npos; }))
    << engine.output();
  EXPECT_EQ(engine.status().find("s3cr3t"), std::string::npos) << engine.status();
  EXPECT_EQ(engine.output().find("s3cr3t"), std::string::npos) << engine.output();
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/ready")).body.find("s3cr3t"),
            std::string::npos);
}

} // namespace
