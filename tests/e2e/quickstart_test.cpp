// The README's quick start, step by step: `ganglion validate` and `ganglion test` on
// examples/quickstart, then `ganglion run` with the Makefile's flags and the README's POST.

#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

const std::string quickstart = std::string(GANGLION_SOURCE_DIR) + "/examples/quickstart";

/// A copy of examples/quickstart whose webhook listens on `port` instead of 12000 (a fixed port
/// could be taken by `make run` or a parallel test; `run` has no flag to move it). Only that
/// one line differs from the example.
std::string quickstart_on(std::uint16_t port) {
  auto dir = test::temp_dir() + "/quickstart";
  std::filesystem::create_directories(dir);
  for (const auto& entry : std::filesystem::directory_iterator(quickstart)) {
    auto text = test::read_file(entry.path().string());
    if (entry.path().filename() == "event-source.yaml") {
      const std::string fixed = "port: \"12000\"";
      auto at = text.find(fixed);
      EXPECT_NE(at, std::string::npos) << "the quick start no longer listens on 12000";
      if (at != std::string::npos)
        text.replace(at, fixed.size(), fmt::format("port: \"{}\"", port));
    }
    test::write_file(dir + "/" + entry.path().filename().string(), text);
  }
  return dir;
}

} // namespace

TEST(e2e_quickstart, validate_finds_no_problem) {
  test::child_process validate{{GANGLION_BINARY, "validate", "-f", quickstart}};
  ASSERT_EQ(validate.wait(30s), 0) << validate.output();
  EXPECT_NE(validate.output().find("0 error(s), 0 warning(s)"), std::string::npos)
    << validate.output();
}

// `ganglion test --event examples/quickstart/event.json` is e2e_dry_run's; this is the
// README's other form, a plain body.
TEST(e2e_quickstart, test_with_the_readme_body_fires_the_log_trigger) {
  auto body = test::temp_dir() + "/body.json";
  test::write_file(body, "{\"message\":\"hello\"}\n");
  test::child_process dry{{GANGLION_BINARY, "test", "-f", quickstart, "--body", body, "--source",
                           "webhook", "--subject", "example"}};
  ASSERT_EQ(dry.wait(30s), 0) << dry.output();
  EXPECT_NE(dry.output().find("dependency payload: pass"), std::string::npos) << dry.output();
  EXPECT_NE(dry.output().find("trigger log-message fires:"), std::string::npos) << dry.output();
  EXPECT_NE(dry.output().find(R"("body":{"message":"hello"})"), std::string::npos)
    << dry.output();
}

TEST(e2e_quickstart, run_fires_the_trigger_for_the_readme_post) {
  auto port = test::free_port();
  auto dir = quickstart_on(port);
  // As `make run`: the admin endpoints, the webhook on loopback, a data directory of its own.
  e2e::engine_process engine{e2e::manifest_path{dir}, e2e::engine_options{}};
  auto event = nlohmann::json::parse(test::read_file(quickstart + "/event.json"));
  // The README's curl: POST the example's body as JSON to /example.
  auto r = test::http_request("POST", fmt::format("http://127.0.0.1:{}/example", port),
                              event["data"]["body"].dump(), {"Content-Type: application/json"});
  ASSERT_EQ(r.status, 200) << r.error << r.body << engine.output();
  EXPECT_TRUE(engine.wait_metric(
    R"(ganglion_triggers_fired_total{sensor="webhook",trigger="log-message"} 1)"))
    << engine.metrics() << engine.output();
  EXPECT_TRUE(test::eventually([&] {
    return engine.output().find("log trigger webhook/log-message fired") != std::string::npos;
  })) << engine.output();
}
