// The redisStream source against a real redis-server: Argo's event data and consumer group,
// XACK only after the bus accepted, a refused entry read again (also by the next source, from
// the pending entries), a server restart mid-stream.

#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <thread>

#include "redis_fixture.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

class redis_stream : public ::testing::Test {
protected:
  void SetUp() override {
    es.metadata.name = "orders";
    // Argo creates the group only on a stream that exists.
    client.run({"XADD", "orders", "*", "seed", "0"});
  }

  test::event_under_test<redis::stream_spec>& add(const std::string& name) {
    auto& e = events[name];
    e.host_address = server->address();
    e.streams = {"orders"};
    return e;
  }

  std::unique_ptr<core::source> start(const std::string& name,
                                      redis::options opts = test::fast_options()) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "redisStream", event, spec);
    return redis::make_stream_source_factory(opts)(test::source_context(
      es, "redisStream", name, bus, &metrics, std::make_shared<core::secret_store>(secrets)));
  }

  std::string xadd(const std::string& stream, const std::vector<std::string>& fields) {
    std::vector<std::string> args{"XADD", stream, "*"};
    args.insert(args.end(), fields.begin(), fields.end());
    return client.run(args).text;
  }

  /// Entries of `group` on `stream` delivered and not acknowledged.
  long long pending(const std::string& stream, const std::string& group = "argo-events-cg") {
    auto r = client.run({"XPENDING", stream, group});
    return r.elements.empty() ? -1 : r.elements[0].integer;
  }

  std::unique_ptr<test::redis_server> server = std::make_unique<test::redis_server>();
  test::redis_client client{test::plain(*server)};
  std::string secrets = test::temp_dir();
  dsl::event_source es;
  std::map<std::string, test::event_under_test<redis::stream_spec>> events;
  std::shared_ptr<test::answering_bus> bus = std::make_shared<test::answering_bus>();
  core::metrics_registry metrics;
};

TEST_F(redis_stream, an_entry_becomes_an_event_with_argos_data_and_is_acknowledged) {
  add("e").metadata = {{"team", "a"}};
  auto source = start("e");
  auto id = xadd("orders", {"b", "2", "a", "<1>"});
  ASSERT_TRUE(bus->wait_for(1));
  auto e = bus->events().front();
  EXPECT_EQ(e.type, "redisStream");
  EXPECT_EQ(e.subject, "e");
  EXPECT_EQ(e.data, R"({"stream":"orders","message_id":")" + id
                      + R"(","values":{"a":"\u003c1\u003e","b":"2"},"metadata":{"team":"a"}})");
  // The seed entry, older than the group (created from `$`, as Argo), is not read.
  EXPECT_EQ(bus->offered(), 1u);
  EXPECT_TRUE(test::eventually([&] { return pending("orders") == 0; }));
}

TEST_F(redis_stream, the_consumer_group_and_count_are_honoured_on_every_stream) {
  client.run({"XADD", "audit", "*", "seed", "0"});
  auto& e = add("e");
  e.streams = {"orders", "audit"};
  e.consumer_group = "workers";
  e.max_msg_count_per_read = 2;
  auto source = start("e");
  for (int i = 0; i < 5; ++i)
    xadd("orders", {"n", std::to_string(i)});
  xadd("audit", {"n", "a"});
  ASSERT_TRUE(bus->wait_for(6));
  auto groups = client.run({"XINFO", "GROUPS", "audit"});
  ASSERT_EQ(groups.elements.size(), 1u);
  EXPECT_EQ(groups.elements[0].elements[1].text, "workers");
  EXPECT_TRUE(test::eventually([&] { return pending("orders", "workers") == 0; }));
}

TEST_F(redis_stream, a_missing_stream_is_a_start_error_as_in_argo) {
  add("e").streams = {"absent"};
  try {
    start("e");
    FAIL() << "expected a source_error";
  } catch (const core::source_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("creating consumer group argo-events-cg for stream absent"),
              std::string::npos)
      << what;
  }
}

TEST_F(redis_stream, a_refused_entry_stays_pending_and_is_read_again) {
  add("e");
  auto source = start("e");
  bus->answer(core::publish_status::saturated);
  auto id = xadd("orders", {"k", "v"});
  ASSERT_TRUE(test::eventually([&] { return bus->offered() >= 2; })); // offered again
  EXPECT_EQ(pending("orders"), 1);
  bus->answer(core::publish_status::accepted);
  ASSERT_TRUE(bus->wait_for(1));
  EXPECT_NE(bus->events().front().data.find(id), std::string::npos);
  EXPECT_TRUE(test::eventually([&] { return pending("orders") == 0; }));
  EXPECT_GE(test::counter_value(metrics, R"(ganglion_events_rejected_total{eventsource="orders",)"
                                         R"(event="e",reason="saturated"})"),
            1);
}

TEST_F(redis_stream, an_entry_the_bus_did_not_accept_is_delivered_by_the_next_source) {
  add("e");
  auto source = start("e");
  bus->answer(core::publish_status::failed);
  auto id = xadd("orders", {"k", "v"});
  ASSERT_TRUE(test::eventually([&] { return bus->offered() >= 1; }));
  source.reset(); // stopped while the entry is unacknowledged
  EXPECT_EQ(pending("orders"), 1);
  EXPECT_TRUE(bus->events().empty());

  bus = std::make_shared<test::answering_bus>();
  source = start("e"); // reads the pending entries (from ID 0) first
  ASSERT_TRUE(bus->wait_for(1));
  EXPECT_NE(bus->events().front().data.find(R"("message_id":")" + id + "\""),
            std::string::npos);
  EXPECT_TRUE(test::eventually([&] { return pending("orders") == 0; }));
}

TEST_F(redis_stream, nothing_is_lost_across_a_server_restart) {
  add("e");
  auto source = start("e");
  auto first = xadd("orders", {"n", "1"});
  ASSERT_TRUE(bus->wait_for(1));
  server->stop();
  server->start();
  // Written while the source reconnects: read once it has.
  ASSERT_TRUE(test::eventually([&] { return client.try_run({"PING"}); }));
  auto second = xadd("orders", {"n", "2"});
  auto third = xadd("orders", {"n", "3"});
  ASSERT_TRUE(bus->wait_for(3));
  auto got = bus->events();
  EXPECT_NE(got[1].data.find(second), std::string::npos);
  EXPECT_NE(got[2].data.find(third), std::string::npos);
  EXPECT_TRUE(test::eventually([&] { return pending("orders") == 0; }));
  EXPECT_EQ(test::counter_value(metrics, R"(ganglion_source_reconnects_total{eventsource="orders",)"
                                         R"(event="e"})"),
            1);
}

TEST_F(redis_stream, entries_refused_before_a_server_restart_are_delivered_after_it) {
  add("e");
  auto source = start("e");
  bus->answer(core::publish_status::saturated);
  auto id = xadd("orders", {"n", "1"});
  ASSERT_TRUE(test::eventually([&] { return bus->offered() >= 1; }));
  server->stop();
  server->start(); // the pending entry is in the append-only file
  bus->answer(core::publish_status::accepted);
  ASSERT_TRUE(bus->wait_for(1));
  EXPECT_NE(bus->events().front().data.find(id), std::string::npos);
  ASSERT_TRUE(test::eventually([&] { return client.try_run({"PING"}); }));
  EXPECT_TRUE(test::eventually([&] { return pending("orders") == 0; }));
}

} // namespace

namespace {

TEST_F(redis_stream, a_destroyed_group_is_created_again) {
  add("e");
  auto source = start("e");
  EXPECT_EQ(client.run({"XGROUP", "DESTROY", "orders", "argo-events-cg"}).integer, 1);
  // NOGROUP ends the read; the source connects again and creates the group from `$`.
  ASSERT_TRUE(test::eventually([&] {
    xadd("orders", {"n", "1"});
    return test::eventually([&] { return !bus->events().empty(); }, 200ms);
  }));
  EXPECT_EQ(test::counter_value(metrics, R"(ganglion_source_reconnects_total{eventsource="orders",)"
                                         R"(event="e"})"),
            1);
}

} // namespace

namespace {

/// A bus that answers later, on its own thread (as the engine's bus does), and refuses the
/// first offer of every fifth entry: many reads are then on the bus at once, refusals among
/// them.
class late_refusing_bus : public core::bus_publisher {
public:
  late_refusing_bus() : answerer_([this] { answer_loop(); }) {}
  ~late_refusing_bus() override {
    {
      std::lock_guard guard{mutex_};
      stopping_ = true;
    }
    wake_.notify_all();
    answerer_.join();
  }

  void publish(core::event&& e, core::publish_done done) override {
    {
      std::lock_guard guard{mutex_};
      queue_.emplace_back(std::move(e), std::move(done));
    }
    wake_.notify_all();
  }

  /// The message IDs accepted, each once however often it was offered.
  std::set<std::string> accepted() {
    std::lock_guard guard{mutex_};
    return accepted_;
  }

  /// How many offers were refused.
  std::size_t refused() {
    std::lock_guard guard{mutex_};
    return refused_.size();
  }

private:
  static std::string id_of(const core::event& e) {
    auto from = e.data.find(R"("message_id":")") + 14;
    return e.data.substr(from, e.data.find('"', from) - from);
  }

  void answer_loop() {
    std::unique_lock lock{mutex_};
    for (;;) {
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty())
        return;
      auto [event, done] = std::move(queue_.front());
      queue_.pop_front();
      auto id = id_of(event);
      bool first = offered_.insert(id).second;
      bool refuse = first && offered_.size() % 5 == 2 && refused_.insert(id).second;
      if (!refuse)
        accepted_.insert(id);
      lock.unlock();
      std::this_thread::yield(); // answers arrive while the source reads on
      done(refuse ? core::publish_status::saturated : core::publish_status::accepted,
           refuse ? "test bus says no" : "");
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::deque<std::pair<core::event, core::publish_done>> queue_;
  std::set<std::string> offered_;
  std::set<std::string> refused_;
  std::set<std::string> accepted_;
  std::thread answerer_;
};

TEST_F(redis_stream, reads_on_the_bus_at_once_lose_nothing_when_some_entries_are_refused) {
  for (int i = 0; i < 500; ++i)
    xadd("orders", {"n", std::to_string(i)});
  std::set<std::string> ids;
  auto ids_of = client.run({"XRANGE", "orders", "-", "+"});
  add("e");
  auto late = std::make_shared<late_refusing_bus>();
  for (const auto& [event, spec] : events)
    test::put_event(es, "redisStream", event, spec);
  // A group made before the start from the stream's beginning (the source keeps an existing
  // group, as Argo): the 501 entries are its backlog.
  client.run({"XGROUP", "CREATE", "orders", "argo-events-cg", "0"});
  for (const auto& entry : ids_of.elements)
    if (!entry.elements.empty())
      ids.insert(entry.elements[0].text);
  ASSERT_EQ(ids.size(), 501u); // with the fixture's seed
  auto source = redis::make_stream_source_factory(test::fast_options())(test::source_context(
    es, "redisStream", "e", late, &metrics, std::make_shared<core::secret_store>(secrets)));
  ASSERT_TRUE(test::eventually([&] { return late->accepted().size() >= ids.size(); }, 30s));
  auto got = late->accepted();
  for (const auto& id : ids)
    EXPECT_TRUE(got.contains(id)) << id << " was never accepted";
  EXPECT_TRUE(test::eventually([&] { return pending("orders") == 0; }));
  EXPECT_EQ(late->refused(), 100u);
  EXPECT_TRUE(test::eventually([&] {
    return test::counter_value(metrics, R"(ganglion_events_rejected_total{eventsource="orders",)"
                                        R"(event="e",reason="saturated"})")
           == 100;
  }));
}

} // namespace
