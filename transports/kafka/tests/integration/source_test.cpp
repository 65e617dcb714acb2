// The kafka source against librdkafka's mock cluster, with a bus that records what it is
// offered and answers as the test says.

#include <functional>
#include <map>
#include <numeric>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/kafka/kafka_source.hpp"
#include "ganglion/kafka/spec.hpp"
#include "kind_manifests.hpp"
#include "kafka_broker.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

using test::eventually;
using clock_type = std::chrono::steady_clock;

/// A bus that answers each offer with `answer(event)` and keeps what it accepted.
class scripted_bus : public core::bus_publisher {
public:
  void publish(core::event&& e, core::publish_done done) override {
    auto status = answer ? answer(e) : core::publish_status::accepted;
    {
      std::lock_guard guard{mutex_};
      offers_.push_back(e.id);
      if (status == core::publish_status::accepted) {
        accepted_.push_back(std::move(e));
        accepted_at_.push_back(clock_type::now());
      }
    }
    done(status, status == core::publish_status::failed ? "disk full" : "");
  }
  std::vector<core::event> accepted() const {
    std::lock_guard guard{mutex_};
    return accepted_;
  }
  std::vector<clock_type::time_point> accepted_at() const {
    std::lock_guard guard{mutex_};
    return accepted_at_;
  }
  std::vector<std::string> offers() const {
    std::lock_guard guard{mutex_};
    return offers_;
  }
  std::function<core::publish_status(const core::event&)> answer;

private:
  mutable std::mutex mutex_;
  std::vector<core::event> accepted_;
  std::vector<clock_type::time_point> accepted_at_;
  std::vector<std::string> offers_;
};

/// The Kafka offset at the end of an event id.
std::int64_t offset_of(const std::string& id) {
  return std::stoll(id.substr(id.rfind(':') + 1));
}

std::vector<std::int64_t> offsets_of(const std::vector<core::event>& events) {
  std::vector<std::int64_t> out;
  for (const auto& e : events)
    out.push_back(offset_of(e.id));
  return out;
}

class kafka_source_test : public ::testing::Test {
protected:
  void SetUp() override {
    static int test_number = 0;
    ++test_number;
    topic = "orders" + std::to_string(test_number);
    es = "es" + std::to_string(test_number);
    broker->create_topic(topic, 1);
    spec.url = broker->bootstraps();
    spec.topic = topic;
    spec.partition = "0";
    spec.config["auto.offset.reset"] = "earliest";
    options.commit_interval = 50ms;
    options.retry_initial = 20ms;
    options.retry_max = 100ms;
  }

  std::unique_ptr<core::source> start(std::shared_ptr<scripted_bus> on = nullptr) {
    manifest.metadata.name = es;
    test::put_event(manifest, "kafka", "ev", spec);
    core::source_context ctx;
    ctx.event_source_name = es;
    ctx.event_name = "ev";
    ctx.type = "kafka";
    ctx.manifest = &manifest;
    ctx.bus = on ? on : bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets_dir);
    ctx.metrics = &metrics;
    return core::start_source(kafka::make_kafka_source_factory(options), ctx);
  }

  /// ganglion_source_lag of the source; -1 before it is shown.
  std::int64_t lag() {
    auto text = metrics.render();
    auto series = "ganglion_source_lag{eventsource=\"" + es + "\",event=\"ev\"} ";
    auto at = text.find(series);
    return at == std::string::npos ? -1 : std::stoll(text.substr(at + series.size()));
  }

  /// The offset committed by the group that stores a partition-mode source's offsets.
  std::int64_t committed() { return broker->committed("ganglion-" + es + "-ev", topic, 0); }

  std::int64_t produce(const std::optional<std::string>& key,
                       const std::optional<std::string>& value,
                       const std::vector<std::pair<std::string, std::string>>& headers = {},
                       std::int64_t timestamp_ms = 0) {
    return broker->produce(topic, key, value, headers, 0, timestamp_ms);
  }

  std::unique_ptr<test::kafka_broker> broker = std::make_unique<test::kafka_broker>();
  std::string topic;
  std::string es;
  std::shared_ptr<scripted_bus> bus = std::make_shared<scripted_bus>();
  test::event_under_test<kafka::event_spec> spec;
  dsl::event_source manifest;
  kafka::source_options options;
  core::metrics_registry metrics;
  std::string secrets_dir = test::temp_dir();
};

TEST_F(kafka_source_test, messages_become_events_with_argo_data_and_ids) {
  produce(std::string("k1"), std::string(R"({ "n": 1,  "s": "x" })"), {{"h2", "b"}, {"h1", "a"}},
          1700000000123);
  produce(std::nullopt, std::string("not json"), {}, 1700000000000);
  produce(std::string("k3"), std::nullopt, {}, 1700000000500);
  spec.json_body = true;
  spec.metadata = {{"team", "a"}};
  auto source = start();
  ASSERT_TRUE(eventually([&] { return bus->accepted().size() == 2; }));
  auto events = bus->accepted();
  auto first_broker = broker->bootstraps().substr(0, broker->bootstraps().find(','));
  EXPECT_EQ(events[0].id, es + ":ev:" + first_broker + ":" + topic + ":0:0");
  EXPECT_EQ(events[0].source, es);
  EXPECT_EQ(events[0].type, "kafka");
  EXPECT_EQ(events[0].subject, "ev");
  EXPECT_EQ(events[0].datacontenttype, "application/json");
  EXPECT_EQ(events[0].data,
            R"({"topic":")" + topic + R"(","key":"k1","partition":0,"body":{"n":1,"s":"x"},)"
            R"("timestamp":"2023-11-14 22:13:20.123 +0000 UTC","headers":{"h1":"a","h2":"b"},)"
            R"("metadata":{"team":"a"}})");
  // The value that is not JSON is dropped (as Argo); a null value is `null`.
  EXPECT_EQ(offset_of(events[1].id), 2);
  EXPECT_EQ(events[1].data,
            R"({"topic":")" + topic + R"(","key":"k3","partition":0,"body":null,)"
            R"("timestamp":"2023-11-14 22:13:20.5 +0000 UTC","headers":{},"metadata":{"team":"a"}})");
  // The dropped message does not hold the commit point back.
  EXPECT_TRUE(eventually([&] { return committed() == 3; }));
}

TEST_F(kafka_source_test, body_is_base64_without_json_body) {
  produce(std::string("k"), std::string("hi\x01"), {}, 1700000000000);
  produce(std::string("k"), std::string(""), {}, 1700000000000);
  auto source = start();
  ASSERT_TRUE(eventually([&] { return bus->accepted().size() == 2; }));
  auto events = bus->accepted();
  EXPECT_EQ(events[0].data,
            R"({"topic":")" + topic + R"(","key":"k","partition":0,"body":"aGkB",)"
            R"("timestamp":"2023-11-14 22:13:20 +0000 UTC","headers":{}})");
  EXPECT_NE(events[1].data.find(R"("body":"")"), std::string::npos) << events[1].data;
}

TEST_F(kafka_source_test, partition_mode_starts_at_the_end_of_the_partition) {
  spec.config.erase("auto.offset.reset");
  produce(std::nullopt, std::string("before"));
  auto source = start();
  // Produce until the source reads one: it started after `before`, so never sees it.
  ASSERT_TRUE(eventually([&] {
    produce(std::nullopt, std::string("after"));
    return eventually([&] { return !bus->accepted().empty(); }, 300ms);
  }));
  for (auto offset : offsets_of(bus->accepted()))
    EXPECT_GT(offset, 0);
}

TEST_F(kafka_source_test, consumer_group_reads_every_partition_and_commits) {
  topic += "-multi";
  broker->create_topic(topic, 2);
  for (int i = 0; i < 6; ++i)
    broker->produce(topic, std::to_string(i), std::string("{}"), {}, i % 2);
  spec.topic = topic;
  spec.partition.clear();
  spec.config.clear();
  spec.consumer_group = dsl::kafka_consumer_group{"group-" + es, true, "sticky"};
  auto source = start();
  // The mock cluster takes about 3 s to form a group.
  ASSERT_TRUE(eventually([&] { return bus->accepted().size() == 6; }, 15s));
  EXPECT_TRUE(eventually([&] {
    return broker->committed("group-" + es, topic, 0) == 3 &&
           broker->committed("group-" + es, topic, 1) == 3;
  }));
}

TEST_F(kafka_source_test, refused_event_is_offered_again_and_holds_the_commit_point) {
  for (int i = 0; i < 3; ++i)
    produce(std::nullopt, std::to_string(i));
  std::atomic<bool> accept_first{false};
  std::atomic<int> refusals{0};
  bus->answer = [&](const core::event& e) {
    if (offset_of(e.id) != 0 || accept_first)
      return core::publish_status::accepted;
    ++refusals;
    return refusals % 2 ? core::publish_status::saturated : core::publish_status::failed;
  };
  auto source = start();
  // Offsets 1 and 2 are accepted while 0 is refused: nothing may be committed yet.
  ASSERT_TRUE(eventually([&] { return bus->accepted().size() == 2 && refusals >= 4; }));
  EXPECT_EQ(committed(), -1);
  accept_first = true;
  ASSERT_TRUE(eventually([&] { return bus->accepted().size() == 3; }));
  EXPECT_EQ(offsets_of(bus->accepted()), (std::vector<std::int64_t>{1, 2, 0}));
  EXPECT_TRUE(eventually([&] { return committed() == 3; }));
  auto rendered = metrics.render();
  EXPECT_NE(rendered.find(R"(ganglion_events_accepted_total{eventsource=")" + es + R"(",event="ev"} 3)"),
            std::string::npos)
    << rendered;
}

TEST_F(kafka_source_test, filter_expression_drops_what_it_rejects_and_commits_past_it) {
  produce(std::nullopt, std::string(R"({"id":4,"name":"Joe"})"));
  produce(std::nullopt, std::string(R"({"id":4,"name":"Ann"})"));
  spec.json_body = true;
  spec.filter = dsl::event_source_filter{R"(body.id == 4 && body.name != "Joe")"};
  auto source = start();
  // The partition is read in order: once Ann (offset 1) arrives, Joe (offset 0) was filtered.
  ASSERT_TRUE(eventually([&] { return bus->accepted().size() == 1; }));
  auto events = bus->accepted();
  EXPECT_EQ(offset_of(events[0].id), 1);
  EXPECT_EQ(bus->offers().size(), 1u);
  // The filtered message does not hold the commit point back.
  EXPECT_TRUE(eventually([&] { return committed() == 2; }));
  auto series = R"({eventsource=")" + es + R"(",event="ev")";
  auto rendered = metrics.render();
  EXPECT_NE(rendered.find("ganglion_events_rejected_total" + series + R"(,reason="filtered"} 1)"),
            std::string::npos)
    << rendered;
  EXPECT_NE(rendered.find("ganglion_events_accepted_total" + series + "} 1"), std::string::npos)
    << rendered;
}

TEST_F(kafka_source_test, restart_resumes_after_the_last_accepted_offset) {
  for (int i = 0; i < 5; ++i)
    produce(std::nullopt, std::to_string(i));
  bus->answer = [](const core::event& e) {
    return offset_of(e.id) < 3 ? core::publish_status::accepted
                               : core::publish_status::saturated;
  };
  auto source = start();
  ASSERT_TRUE(eventually([&] {
    auto offers = bus->offers();
    return bus->accepted().size() == 3 &&
           std::count_if(offers.begin(), offers.end(),
                         [](const auto& id) { return offset_of(id) == 4; }) >= 2;
  }));
  source.reset(); // stops: commits what was accepted
  EXPECT_EQ(committed(), 3);

  produce(std::nullopt, std::string("5"));
  auto second = std::make_shared<scripted_bus>();
  source = start(second);
  ASSERT_TRUE(eventually([&] { return second->accepted().size() == 3; }));
  EXPECT_EQ(offsets_of(second->accepted()), (std::vector<std::int64_t>{3, 4, 5}));
  EXPECT_TRUE(eventually([&] { return committed() == 6; }));
}

TEST_F(kafka_source_test, limit_events_per_second_paces_the_events) {
  for (int i = 0; i < 8; ++i)
    produce(std::nullopt, std::to_string(i));
  spec.limit_events_per_second = 20;
  auto source = start();
  ASSERT_TRUE(eventually([&] { return bus->accepted().size() == 8; }));
  auto at = bus->accepted_at();
  // 7 gaps of at least 1/20 s each.
  EXPECT_GE(at.back() - at.front(), 330ms);
}

TEST_F(kafka_source_test, a_stalled_bus_pauses_reading_without_losing_messages) {
  for (int i = 0; i < 30; ++i)
    produce(std::nullopt, std::to_string(i));
  options.max_backlog = 8;
  options.pause_after = 20ms;
  std::atomic<bool> open{false};
  std::atomic<int> refusals{0};
  bus->answer = [&](const core::event&) {
    if (open)
      return core::publish_status::accepted;
    ++refusals;
    return core::publish_status::saturated;
  };
  auto source = start();
  // Refused events wait for their retry; newer messages fill the backlog, reading stops, then
  // the partition is paused.
  ASSERT_TRUE(eventually([&] { return refusals >= 30; }));
  for (int i = 30; i < 50; ++i)
    produce(std::nullopt, std::to_string(i));
  // Kept: time for the pause (20 ms after the backlog fills), which leaves no sign outside the
  // consumer; the test then checks that nothing was lost.
  std::this_thread::sleep_for(200ms);
  // What an autoscaler reads: the messages the paused source has not read.
  EXPECT_TRUE(eventually([&] { return lag() > 0; }, 10s)) << lag();
  open = true;
  ASSERT_TRUE(eventually([&] { return bus->accepted().size() >= 50; }));
  EXPECT_TRUE(eventually([&] { return lag() == 0; }, 5s)) << lag();
  auto offsets = offsets_of(bus->accepted());
  std::sort(offsets.begin(), offsets.end());
  std::vector<std::int64_t> expected(50);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(offsets, expected);
  EXPECT_TRUE(eventually([&] { return committed() == 50; }));
}

TEST_F(kafka_source_test, broker_outage_is_logged_once_per_state_change_and_reading_resumes) {
  auto lines = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(1000);
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>("test", lines));
  auto logged = [&](const std::string& fragment) {
    auto all = lines->last_formatted();
    return std::count_if(all.begin(), all.end(), [&](const auto& line) {
      return line.find(es + "/ev") != std::string::npos && line.find(fragment) != std::string::npos;
    });
  };
  produce(std::nullopt, std::string("0"));
  spec.config["reconnect.backoff.max.ms"] = "300"; // quick to notice the broker is back
  auto source = start();
  ASSERT_TRUE(eventually([&] { return bus->accepted().size() == 1; }));
  broker->set_down(1);
  EXPECT_TRUE(eventually([&] { return logged("is unreachable") > 0; }, 5s));
  // librdkafka reconnects every 100-300 ms meanwhile; none of those attempts is logged.
  std::this_thread::sleep_for(800ms); // kept: an outage that lasts
  broker->set_up(1);
  produce(std::nullopt, std::string("1"));
  EXPECT_TRUE(eventually([&] { return bus->accepted().size() == 2; }, 15s));
  EXPECT_TRUE(eventually([&] { return logged("is reachable again") > 0; }, 5s));
  spdlog::set_default_logger(previous);
  // One line per broker handle (the bootstrap one and the learned one) and state change.
  auto all = lines->last_formatted();
  std::map<std::string, int> unreachable;
  for (const auto& line : all)
    if (auto at = line.find("broker "); at != std::string::npos &&
                                        line.find("is unreachable") != std::string::npos)
      ++unreachable[line.substr(at, line.find(' ', at + 7) - at)];
  EXPECT_FALSE(unreachable.empty());
  for (const auto& [broker_name, count] : unreachable)
    EXPECT_EQ(count, 1) << broker_name;
  EXPECT_LE(logged("all brokers are down"), 1);
}

TEST_F(kafka_source_test, bad_specs_are_refused_with_the_field) {
  auto refused = [&](const std::string& fragment) {
    try {
      start();
      ADD_FAILURE() << "started; expected an error with: " << fragment;
    } catch (const core::source_error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  spec.partition = "x";
  refused("partition 'x'");
  spec.partition.clear();
  refused("either consumerGroup or partition");
  spec.partition = "0";
  spec.filter = dsl::event_source_filter{"body.a =="};
  refused("kafka source " + es + "/ev: filter.expression 'body.a ==' does not compile");
  spec.filter.reset();
  spec.sasl = dsl::sasl_config{"GSSAPI", {}, {}};
  refused("sasl.mechanism: GSSAPI is not supported yet");
  spec.sasl = dsl::sasl_config{"SCRAM-SHA-512", dsl::secret_key_selector{"kafka", "user"},
                               dsl::secret_key_selector{"kafka", "password"}};
  refused("sasl.userSecret");
  test::write_file(secrets_dir + "/kafka/user", "ada\n");
  test::write_file(secrets_dir + "/kafka/password", "pw");
  EXPECT_NO_THROW(start()); // SASL_PLAINTEXT with SCRAM: starts, then fails to log in and retries
  spec.tls = dsl::tls_config{dsl::secret_key_selector{"kafka", "user"}, {}, {}, true, false};
  refused("ssl.ca.pem"); // the CA secret is not PEM
  spec.sasl.reset();
  spec.tls.reset();
  spec.config["no.such.property"] = "1";
  refused("config.no.such.property");
}

} // namespace
