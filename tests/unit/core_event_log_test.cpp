#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

#include <sys/resource.h>

#include "core_event_log_support.hpp"
#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"

namespace ganglion::core {
namespace {

using namespace std::chrono_literals;
using namespace testing;


std::vector<event> numbered_events(std::size_t n, std::size_t data_bytes = 100) {
  std::vector<event> events;
  for (std::size_t i = 1; i <= n; ++i)
    events.push_back(numbered_event(i, data_bytes));
  return events;
}

TEST(EventLog, parses_the_three_fsync_policies) {
  EXPECT_EQ(parse_fsync_policy("always"), fsync_policy::always);
  EXPECT_EQ(parse_fsync_policy("interval"), fsync_policy::interval);
  EXPECT_EQ(parse_fsync_policy("never"), fsync_policy::never);
  EXPECT_EQ(parse_fsync_policy("Always"), std::nullopt);
  EXPECT_EQ(parse_fsync_policy(""), std::nullopt);
  for (auto p : {fsync_policy::always, fsync_policy::interval, fsync_policy::never})
    EXPECT_EQ(parse_fsync_policy(to_string(p)), p);
}

TEST(EventLog, a_new_directory_starts_at_sequence_one) {
  auto dir = test::temp_dir() + "/data/log";
  event_log log{log_options(dir)};
  EXPECT_EQ(log.recovery().records, 0u);
  EXPECT_EQ(log.recovery().first_sequence, 1u);
  EXPECT_EQ(log.recovery().next_sequence, 1u);
  EXPECT_TRUE(log.recovery().problems.empty());
  EXPECT_EQ(log.next_sequence(), 1u);
  EXPECT_EQ(log.segments(), 1u);
  EXPECT_EQ(segment_files(dir), std::vector<std::string>{"00000000000000000001.log"});
  EXPECT_TRUE(replay_all(log).empty());
}

TEST(EventLog, sequences_are_contiguous_from_one_and_continue_after_reopen) {
  auto dir = test::temp_dir();
  auto events = numbered_events(100);
  {
    event_log log{log_options(dir)};
    auto sequences = append_all(log, events);
    ASSERT_EQ(sequences.size(), 100u);
    for (std::size_t i = 0; i < sequences.size(); ++i)
      EXPECT_EQ(sequences[i], i + 1);
    EXPECT_EQ(log.next_sequence(), 101u);
  }
  event_log log{log_options(dir)};
  EXPECT_EQ(log.recovery().records, 100u);
  EXPECT_EQ(log.recovery().first_sequence, 1u);
  EXPECT_EQ(log.recovery().next_sequence, 101u);
  EXPECT_TRUE(log.recovery().problems.empty());
  EXPECT_EQ(append_wait(log, numbered_event(101)).sequence, 101u);
  auto stored = replay_all(log);
  ASSERT_EQ(stored.size(), 101u);
  for (std::size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(stored[i].sequence, i + 1);
    testing::expect_same_event(stored[i], events[i]);
  }
}

TEST(EventLog, concurrent_producers_get_distinct_contiguous_sequences_in_their_order) {
  auto dir = test::temp_dir();
  event_log log{log_options(dir)};
  constexpr int producers = 4, per_producer = 500;
  std::vector<std::vector<std::uint64_t>> seen(producers);
  std::atomic<int> remaining{producers * per_producer};
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = 0; i < per_producer; ++i) {
        auto e = numbered_event(static_cast<std::uint64_t>(p * per_producer + i));
        e.source = "producer-" + std::to_string(p);
        log.append(std::move(e), [&, p](event&& stored, const std::string* error) {
          EXPECT_EQ(error, nullptr);
          seen[static_cast<std::size_t>(p)].push_back(stored.sequence);
          remaining.fetch_sub(1);
        });
      }
    });
  }
  for (auto& t : threads)
    t.join();
  log.flush();
  ASSERT_EQ(remaining.load(), 0);
  std::vector<std::uint64_t> all;
  for (const auto& s : seen) {
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end())) << "a producer's appends keep their order";
    all.insert(all.end(), s.begin(), s.end());
  }
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), std::size_t{producers * per_producer});
  for (std::size_t i = 0; i < all.size(); ++i)
    ASSERT_EQ(all[i], i + 1);
  // The log holds each producer's events in the order it appended them.
  std::vector<int> next(producers, 0);
  for (const auto& e : replay_all(log)) {
    auto p = std::stoi(e.source.substr(9));
    EXPECT_EQ(e.id, "id-" + std::to_string(p * per_producer + next[static_cast<std::size_t>(p)]++));
  }
}

class EventLogPolicy : public ::testing::TestWithParam<fsync_policy> {};

TEST_P(EventLogPolicy, completes_every_append_and_keeps_it) {
  auto dir = test::temp_dir();
  auto events = numbered_events(300, 700);
  metrics_registry metrics;
  {
    auto o = log_options(dir, GetParam());
    o.fsync_interval = 20ms;
    event_log log{o, &metrics};
    EXPECT_EQ(append_all(log, events).size(), 300u);
    EXPECT_TRUE(log.failure().empty());
  }
  EXPECT_NE(metrics.render().find("ganglion_bus_log_appends_total 300"), std::string::npos)
    << metrics.render();
  event_log log{log_options(dir)};
  EXPECT_EQ(log.recovery().records, 300u);
  EXPECT_EQ(replay_all(log).size(), 300u);
}

INSTANTIATE_TEST_SUITE_P(EventLog, EventLogPolicy,
                         ::testing::Values(fsync_policy::always, fsync_policy::interval,
                                           fsync_policy::never),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(EventLog, always_fsyncs_before_completing_and_groups_commits) {
  auto dir = test::temp_dir();
  metrics_registry metrics;
  event_log log{log_options(dir, fsync_policy::always), &metrics};
  std::atomic<int> unsynced{0};
  std::atomic<int> remaining{1000};
  for (int i = 0; i < 1000; ++i) {
    log.append(numbered_event(static_cast<std::uint64_t>(i)), [&](event&&, const std::string* error) {
      EXPECT_EQ(error, nullptr);
      if (log.fsyncs() == 0)
        unsynced.fetch_add(1);
      remaining.fetch_sub(1);
    });
  }
  log.flush();
  EXPECT_EQ(remaining.load(), 0);
  EXPECT_EQ(unsynced.load(), 0);
  EXPECT_GE(log.fsyncs(), 1u);
  EXPECT_LT(log.fsyncs(), 500u) << "appends queued while the writer syncs share one fdatasync";
  auto text = metrics.render();
  EXPECT_NE(text.find("ganglion_bus_log_fsyncs_total " + std::to_string(log.fsyncs())),
            std::string::npos) << text;
  EXPECT_NE(text.find("ganglion_bus_log_fsync_seconds_count"), std::string::npos) << text;
}

TEST(EventLog, interval_fsyncs_when_idle_and_never_only_on_flush) {
  auto interval_dir = test::temp_dir();
  auto o = log_options(interval_dir, fsync_policy::interval);
  o.fsync_interval = 50ms;
  auto n = log_options(test::temp_dir(), fsync_policy::never);
  n.fsync_interval = 50ms;
  event_log never{n};
  event_log interval{o};
  EXPECT_FALSE(append_wait(never, numbered_event(1)).error);
  EXPECT_FALSE(append_wait(interval, numbered_event(1)).error);
  EXPECT_TRUE(test::eventually([&] { return interval.fsyncs() >= 1; }, 5s))
    << "a timed wait syncs the written bytes";
  // The never log's bytes waited longer than those the interval log synced.
  EXPECT_EQ(never.fsyncs(), 0u);
  never.flush();
  EXPECT_EQ(never.fsyncs(), 1u);
  never.flush();
  EXPECT_EQ(never.fsyncs(), 1u) << "nothing written since";
}

TEST(EventLog, round_trips_binary_empty_and_large_events) {
  auto dir = test::temp_dir();
  std::vector<event> events(3);
  events[0].datacontenttype.clear();
  events[0].specversion.clear();
  events[1] = numbered_event(2);
  events[1].datacontenttype = "application/octet-stream";
  events[1].data.assign("\0\xff\x01\0", 4);
  events[2] = numbered_event(3, 3u << 20);
  {
    event_log log{log_options(dir)};
    append_all(log, events);
  }
  event_log log{log_options(dir)};
  auto stored = replay_all(log);
  ASSERT_EQ(stored.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(stored[i].sequence, i + 1);
    testing::expect_same_event(stored[i], events[i]);
  }
}

TEST(EventLog, segments_roll_at_segment_bytes_and_replay_from_any_sequence) {
  auto dir = test::temp_dir();
  auto o = log_options(dir);
  o.segment_bytes = 4096;
  auto events = numbered_events(200, 300);
  {
    event_log log{o};
    append_all(log, std::vector<event>(events.begin(), events.begin() + 120));
    for (std::size_t i = 120; i < events.size(); ++i)
      append_wait(log, events[i]);
    EXPECT_GT(log.segments(), 10u);
    EXPECT_EQ(log.segments(), segment_files(dir).size());
  }
  event_log log{o};
  EXPECT_EQ(log.recovery().records, 200u);
  auto names = segment_files(dir);
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto size = std::filesystem::file_size(dir + "/" + names[i]);
    if (i + 1 < names.size()) {
      EXPECT_GE(size, 4096u) << names[i];
      EXPECT_LT(size, 4096u + 450u) << names[i] << ": at most one record past the limit";
    }
    auto first = std::stoull(names[i].substr(0, 20));
    auto from_here = replay_all(log, first);
    ASSERT_FALSE(from_here.empty());
    EXPECT_EQ(from_here.front().sequence, first) << names[i] << " starts with its sequence";
  }
  for (std::uint64_t from = 1; from <= 201; ++from) {
    auto stored = replay_all(log, from);
    ASSERT_EQ(stored.size(), 201 - from) << "from " << from;
    for (std::size_t i = 0; i < stored.size(); ++i) {
      ASSERT_EQ(stored[i].sequence, from + i);
      ASSERT_EQ(stored[i].id, events[from - 1 + i].id);
    }
  }
  EXPECT_EQ(append_wait(log, numbered_event(201)).sequence, 201u);
}

TEST(EventLog, replay_sees_every_completed_append_while_writing) {
  auto dir = test::temp_dir();
  auto o = log_options(dir);
  o.segment_bytes = 8192;
  event_log log{o};
  std::atomic<std::uint64_t> completed{0};
  std::thread producer([&] {
    for (std::uint64_t i = 1; i <= 2000; ++i)
      log.append(numbered_event(i), [&](event&& e, const std::string*) { completed.store(e.sequence); });
  });
  for (int round = 0; round < 50; ++round) {
    auto done_before = completed.load();
    auto stored = replay_all(log);
    ASSERT_GE(stored.size(), done_before);
    for (std::size_t i = 0; i < stored.size(); ++i)
      ASSERT_EQ(stored[i].sequence, i + 1);
  }
  producer.join();
  log.flush();
  EXPECT_EQ(replay_all(log).size(), 2000u);
}

TEST(EventLog, a_second_open_of_the_same_directory_fails_with_a_clear_message) {
  auto dir = test::temp_dir();
  event_log first{log_options(dir)};
  try {
    event_log second{log_options(dir)};
    FAIL() << "the second open succeeded";
  } catch (const event_log_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "data directory " + dir + " is in use by another ganglion process");
  }
}

TEST(EventLog, after_an_io_error_every_append_fails_fast_with_that_error) {
  auto dir = test::temp_dir();
  event_log log{log_options(dir, fsync_policy::interval)};
  // A file size limit makes write() fail with EFBIG, as a full disk fails with ENOSPC.
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto saved_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit limited = saved;
  limited.rlim_cur = 64 * 1024;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  std::optional<std::string> first_error;
  for (int i = 0; i < 40 && !first_error; ++i)
    first_error = append_wait(log, numbered_event(static_cast<std::uint64_t>(i), 8000)).error;
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, saved_handler);
  ASSERT_TRUE(first_error) << "no append failed";
  EXPECT_NE(first_error->find("write to "), std::string::npos) << *first_error;
  EXPECT_NE(first_error->find("File too large"), std::string::npos) << *first_error;
  auto later = append_wait(log, numbered_event(99, 10));
  ASSERT_TRUE(later.error);
  EXPECT_EQ(*later.error, *first_error);
  EXPECT_EQ(log.failure(), *first_error);
  log.flush();
  // What was written before the error stays readable and whole.
  auto stored = replay_all(log);
  EXPECT_EQ(stored.size(), log.next_sequence() - 1);
}

} // namespace
} // namespace ganglion::core
