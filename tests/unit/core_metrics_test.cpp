#include <gtest/gtest.h>

#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/core/status.hpp"

using namespace ganglion::core;

TEST(metrics_registry, renders_counters_and_histograms_in_prometheus_text) {
  metrics_registry m;
  m.get_counter("x_total", "Things", {{"source", "a\"b"}}).inc(3);
  auto& h = m.get_histogram("lat_seconds", "Latency", {{"t", "one"}}, {0.1, 1});
  h.observe(0.05);
  h.observe(0.5);
  h.observe(5);
  auto text = m.render();
  EXPECT_NE(text.find("# TYPE x_total counter"), std::string::npos);
  EXPECT_NE(text.find("x_total{source=\"a\\\"b\"} 3"), std::string::npos) << text;
  EXPECT_NE(text.find("lat_seconds_bucket{t=\"one\",le=\"0.1\"} 1"), std::string::npos) << text;
  EXPECT_NE(text.find("lat_seconds_bucket{t=\"one\",le=\"1\"} 2"), std::string::npos) << text;
  EXPECT_NE(text.find("lat_seconds_bucket{t=\"one\",le=\"+Inf\"} 3"), std::string::npos) << text;
  EXPECT_NE(text.find("lat_seconds_count{t=\"one\"} 3"), std::string::npos) << text;
}

TEST(metrics_registry, a_gauge_renders_what_its_reader_returns_when_rendered) {
  metrics_registry m;
  std::int64_t value = 3;
  m.set_gauge("in_flight", "Work", {}, [&] { return value; });
  EXPECT_NE(m.render().find("# TYPE in_flight gauge\nin_flight 3\n"), std::string::npos)
    << m.render();
  value = 0;
  EXPECT_NE(m.render().find("\nin_flight 0\n"), std::string::npos) << m.render();
  m.set_gauge("in_flight", "Work", {}, [] { return std::int64_t{7}; });
  EXPECT_NE(m.render().find("\nin_flight 7\n"), std::string::npos) << m.render();
}

TEST(metrics_registry, same_series_returns_the_same_counter) {
  metrics_registry m;
  auto& a = m.get_counter("c", "h", {{"k", "v"}});
  auto& b = m.get_counter("c", "h", {{"k", "v"}});
  EXPECT_EQ(&a, &b);
}

TEST(metrics_registry, hidden_series_leave_the_rendering_until_asked_for_again) {
  metrics_registry m;
  m.get_counter("fired_total", "Firings", {{"sensor", "gone"}, {"trigger", "t"}}).inc();
  m.get_counter("fired_total", "Firings", {{"sensor", "kept"}, {"trigger", "t"}}).inc(2);
  m.get_histogram("lat_seconds", "Latency", {{"sensor", "gone"}}, {1}).observe(0.5);
  m.hide("sensor", "gone");
  auto text = m.render();
  EXPECT_EQ(text.find("gone"), std::string::npos) << text;
  EXPECT_NE(text.find(R"(fired_total{sensor="kept",trigger="t"} 2)"), std::string::npos) << text;
  // A sensor of that name comes back: its series show again.
  m.get_counter("fired_total", "Firings", {{"sensor", "gone"}, {"trigger", "t"}}).inc();
  EXPECT_NE(m.render().find(R"(fired_total{sensor="gone",trigger="t"} 2)"), std::string::npos)
    << m.render();
}

TEST(log_throttle, the_held_back_note_is_empty_when_nothing_was_held_back) {
  EXPECT_EQ(held_back_note(0, "failure lines"), "");
  EXPECT_EQ(held_back_note(3, "failure lines"), " (3 more failure lines not logged)");
  EXPECT_EQ(held_back_note(1), " (1 more not logged)");
}

TEST(secrets, constant_time_equal_compares_content_and_length) {
  EXPECT_TRUE(constant_time_equal("token", "token"));
  EXPECT_FALSE(constant_time_equal("token", "tokem"));
  EXPECT_FALSE(constant_time_equal("token", "token2"));
  EXPECT_FALSE(constant_time_equal("", "x"));
}

TEST(secrets, missing_directory_or_file_explains_itself) {
  std::string why;
  EXPECT_FALSE(secret_store{""}.read("s", "k", &why));
  EXPECT_NE(why.find("--secrets-dir"), std::string::npos);
  EXPECT_FALSE(secret_store{"/nonexistent"}.read("s", "k", &why));
  EXPECT_NE(why.find("/nonexistent/s/k"), std::string::npos);
  EXPECT_FALSE(secret_store{"/tmp"}.read("../etc", "passwd", &why));
}

TEST(status_board, sources_must_all_run_to_be_ready) {
  status_board b;
  b.set("source", "es/a", phase::running);
  b.set("sensor", "s", phase::error, "boom");
  EXPECT_TRUE(b.all_sources_running());
  b.set("source", "es/b", phase::restarting, "port in use");
  EXPECT_FALSE(b.all_sources_running());
  auto json = b.to_json();
  EXPECT_NE(json.find("\"phase\": \"Restarting\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"lastError\": \"port in use\""), std::string::npos) << json;
}

TEST(status_board, a_running_component_keeps_its_last_error_until_its_failures_are_cleared) {
  status_board b;
  b.set("source", "es/a", phase::restarting, "port in use");
  b.count_restart("source", "es/a");
  b.set("source", "es/a", phase::running);
  auto kept = b.snapshot().at(0);
  EXPECT_EQ(kept.last_error, "port in use");
  EXPECT_EQ(kept.restarts, 1u);
  b.clear_failures("source", "es/a");
  auto cleared = b.snapshot().at(0);
  EXPECT_EQ(cleared.phase, phase::running);
  EXPECT_EQ(cleared.last_error, "");
  EXPECT_EQ(cleared.restarts, 0u);
  EXPECT_EQ(b.to_json().find("lastError"), std::string::npos) << b.to_json();
  b.clear_failures("source", "unknown");
  EXPECT_EQ(b.snapshot().size(), 1u);
}
