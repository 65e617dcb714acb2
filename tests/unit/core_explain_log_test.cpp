#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sensor/explain_log.hpp"

namespace ganglion::core {
namespace {

TEST(explain_log, keeps_the_newest_verdicts_per_dependency_newest_first) {
  explain_log log(3);
  auto t0 = std::chrono::system_clock::time_point{} + std::chrono::hours(24 * 365 * 56);
  for (int i = 0; i < 5; ++i)
    log.record("pr", t0 + std::chrono::seconds(i), "id-" + std::to_string(i), i % 2 == 0,
               i % 2 == 0 ? "" : "data", i % 2 == 0 ? "" : "data filter: no match");
  log.record("push", t0, "other", true, "", "");
  auto doc = nlohmann::json::parse(log.to_json("hooks"));
  EXPECT_EQ(doc["sensor"], "hooks");
  const auto& pr = doc["dependencies"]["pr"];
  ASSERT_EQ(pr.size(), 3u);
  EXPECT_EQ(pr[0]["eventId"], "id-4");
  EXPECT_EQ(pr[1]["eventId"], "id-3");
  EXPECT_EQ(pr[2]["eventId"], "id-2");
  EXPECT_TRUE(pr[0]["pass"].get<bool>());
  EXPECT_FALSE(pr[0].contains("reason"));
  EXPECT_FALSE(pr[1]["pass"].get<bool>());
  EXPECT_EQ(pr[1]["kind"], "data");
  EXPECT_EQ(pr[1]["reason"], "data filter: no match");
  EXPECT_EQ(pr[1]["time"].get<std::string>().substr(17), "03.000000000Z");
  ASSERT_EQ(doc["dependencies"]["push"].size(), 1u);
}

TEST(explain_log, a_partly_filled_ring_lists_only_what_was_recorded) {
  explain_log log(20);
  log.record("a", std::chrono::system_clock::now(), "one", true, "", "");
  log.record("a", std::chrono::system_clock::now(), "two", true, "", "");
  auto doc = nlohmann::json::parse(log.to_json("s"));
  ASSERT_EQ(doc["dependencies"]["a"].size(), 2u);
  EXPECT_EQ(doc["dependencies"]["a"][0]["eventId"], "two");
}

} // namespace
} // namespace ganglion::core

namespace ganglion::core {
namespace {

TEST(explain_log, lists_every_dependency_why_one_is_unfed_and_what_waits) {
  explain_log log;
  log.set_dependencies({"push", "approval", "audit"},
                       {{"audit", "it waits for elsewhere/audit, which no loaded EventSource "
                                  "provides"}});
  waiting_trigger ship;
  ship.trigger = "ship";
  ship.condition = "push && approval";
  ship.holds.push_back({"push", "id-1", "2026-12-04T10:00:00.000000000Z"});
  ship.waits_for = {"approval"};
  log.set_waiting({ship});
  auto doc = nlohmann::json::parse(log.to_json("release"));
  EXPECT_EQ(doc["dependencies"]["approval"], nlohmann::json::array());
  EXPECT_EQ(doc["unfed"]["audit"],
            "it waits for elsewhere/audit, which no loaded EventSource provides");
  EXPECT_EQ(doc["waiting"]["ship"]["condition"], "push && approval");
  EXPECT_EQ(doc["waiting"]["ship"]["holds"]["push"]["eventId"], "id-1");
  EXPECT_EQ(doc["waiting"]["ship"]["holds"]["push"]["since"], "2026-12-04T10:00:00.000000000Z");
  EXPECT_EQ(doc["waiting"]["ship"]["waitsFor"], nlohmann::json::array({"approval"}));
  log.set_waiting({});
  EXPECT_TRUE(nlohmann::json::parse(log.to_json("release"))["waiting"].empty());
}

} // namespace
} // namespace ganglion::core
