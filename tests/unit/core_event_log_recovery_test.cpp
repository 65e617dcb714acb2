#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "core_event_log_support.hpp"
#include "ganglion/core/event_codec.hpp"
#include "storage/event_log_segment.hpp"
#include "files.hpp"

namespace ganglion::core {
namespace {

using namespace std::chrono_literals;
using namespace testing;

constexpr auto first_segment = "00000000000000000001.log";

/// Writes `events` to a fresh log in `dir`; returns the end offset of each record.
std::vector<std::uint64_t> write_log(const std::string& dir, const std::vector<event>& events,
                                     std::uint64_t segment_bytes = 64ull << 20) {
  auto o = log_options(dir);
  o.segment_bytes = segment_bytes;
  event_log log{o};
  append_all(log, events);
  std::vector<std::uint64_t> ends;
  std::uint64_t end = 0;
  for (const auto& e : events)
    ends.push_back(end += record_header_bytes + encoded_size(e));
  return ends;
}

TEST(EventLogRecovery, a_torn_write_at_any_offset_keeps_exactly_the_whole_records_before_it) {
  auto source = test::temp_dir();
  std::vector<event> events;
  std::mt19937_64 sizes{7};
  for (std::uint64_t i = 1; i <= 40; ++i)
    events.push_back(numbered_event(i, sizes() % 600));
  auto ends = write_log(source, events);
  auto bytes = file_bytes(source + "/" + first_segment);
  ASSERT_EQ(bytes.size(), ends.back());

  constexpr std::uint64_t seed = 20240501;
  std::mt19937_64 random{seed};
  std::vector<std::uint64_t> cuts{0, 1, record_header_bytes, ends[0] - 1, ends[0], ends[0] + 1,
                                  ends.back() - 1, ends.back()};
  while (cuts.size() < 200)
    cuts.push_back(random() % (bytes.size() + 1));
  for (auto cut : cuts) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", cut at offset " << cut << " of "
                                      << bytes.size());
    auto dir = test::temp_dir();
    put_file_bytes(dir + "/" + first_segment, bytes.substr(0, cut));
    std::size_t whole = 0;
    while (whole < ends.size() && ends[whole] <= cut)
      ++whole;
    std::uint64_t kept = whole == 0 ? 0 : ends[whole - 1];

    event_log log{log_options(dir)};
    const auto& r = log.recovery();
    ASSERT_EQ(r.records, whole);
    EXPECT_EQ(r.next_sequence, whole + 1);
    EXPECT_EQ(r.first_sequence, 1u);
    EXPECT_EQ(r.truncated_bytes, cut - kept);
    EXPECT_EQ(r.problems.size(), cut == kept ? 0u : 1u);
    EXPECT_EQ(std::filesystem::file_size(dir + "/" + first_segment), kept);
    auto stored = replay_all(log);
    ASSERT_EQ(stored.size(), whole);
    for (std::size_t i = 0; i < whole; ++i)
      ASSERT_EQ(stored[i].data, events[i].data);
    EXPECT_EQ(append_wait(log, numbered_event(99)).sequence, whole + 1);
    EXPECT_EQ(replay_all(log, whole + 1).size(), 1u);
  }
}

TEST(EventLogRecovery, a_flipped_byte_in_the_newest_segment_truncates_there_and_is_reported) {
  auto dir = test::temp_dir();
  std::vector<event> events;
  for (std::uint64_t i = 1; i <= 20; ++i)
    events.push_back(numbered_event(i, 200));
  auto ends = write_log(dir, events);
  auto path = dir + "/" + first_segment;
  auto bytes = file_bytes(path);
  bytes[ends[9] + record_header_bytes + 50] ^= 0x20; // inside the payload of record 11
  put_file_bytes(path, bytes);

  event_log log{log_options(dir)};
  const auto& r = log.recovery();
  EXPECT_EQ(r.records, 10u);
  EXPECT_EQ(r.next_sequence, 11u);
  EXPECT_EQ(r.truncated_bytes, ends.back() - ends[9]);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0], fmt::format("{}: offset {}: checksum mismatch; truncated {} bytes",
                                       first_segment, ends[9], ends.back() - ends[9]));
  EXPECT_EQ(std::filesystem::file_size(path), ends[9]);
  EXPECT_EQ(append_wait(log, numbered_event(11)).sequence, 11u);
}

TEST(EventLogRecovery, a_flipped_byte_anywhere_cuts_at_the_record_that_holds_it) {
  auto source = test::temp_dir();
  std::vector<event> events;
  for (std::uint64_t i = 1; i <= 30; ++i)
    events.push_back(numbered_event(i, 50 + 37 * (i % 7)));
  auto ends = write_log(source, events);
  auto bytes = file_bytes(source + "/" + first_segment);

  constexpr std::uint64_t seed = 99;
  std::mt19937_64 random{seed};
  for (int round = 0; round < 100; ++round) {
    auto at = random() % bytes.size();
    auto flip = static_cast<char>(1 + random() % 255);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", byte " << at << " ^= "
                                      << int(static_cast<unsigned char>(flip)));
    auto damaged = bytes;
    damaged[at] ^= flip;
    auto dir = test::temp_dir();
    put_file_bytes(dir + "/" + first_segment, damaged);
    std::size_t holder = 0;
    while (ends[holder] <= at)
      ++holder;
    std::uint64_t kept = holder == 0 ? 0 : ends[holder - 1];

    event_log log{log_options(dir)};
    EXPECT_EQ(log.recovery().records, holder);
    EXPECT_EQ(log.recovery().truncated_bytes, bytes.size() - kept);
    ASSERT_EQ(log.recovery().problems.size(), 1u);
    EXPECT_EQ(replay_all(log).size(), holder);
    EXPECT_EQ(log.next_sequence(), holder + 1);
  }
}

TEST(EventLogRecovery, a_corrupt_older_segment_is_skipped_from_there_and_later_ones_kept) {
  auto dir = test::temp_dir();
  std::vector<event> events;
  for (std::uint64_t i = 1; i <= 60; ++i)
    events.push_back(numbered_event(i, 300));
  write_log(dir, events, 4096);
  auto names = segment_files(dir);
  ASSERT_GE(names.size(), 4u);
  // Break the magic of the second record of the second segment.
  auto path = dir + "/" + names[1];
  auto first = std::stoull(names[1].substr(0, 20));
  auto second_record = record_header_bytes + encoded_size(events[first - 1]);
  auto bytes = file_bytes(path);
  bytes[second_record] = 'X';
  put_file_bytes(path, bytes);

  event_log log{log_options(dir)};
  const auto& r = log.recovery();
  ASSERT_EQ(r.problems.size(), 2u);
  EXPECT_EQ(r.problems[0], fmt::format("{}: offset {}: bad record magic; skipped the remaining {} "
                                       "bytes", names[1], second_record,
                                       bytes.size() - second_record));
  auto third = std::stoull(names[2].substr(0, 20));
  EXPECT_EQ(r.problems[1],
            fmt::format("{}: sequences {}..{} are missing", names[2], first + 1, third - 1));
  EXPECT_EQ(r.next_sequence, 61u) << "sequences stay monotonic";
  EXPECT_EQ(r.truncated_bytes, 0u);
  EXPECT_EQ(segment_files(dir), names);
  std::vector<std::uint64_t> sequences;
  log.replay(1, [&](event&& e) { sequences.push_back(e.sequence); });
  EXPECT_EQ(sequences.size(), 60 - (third - first - 1));
  EXPECT_TRUE(std::is_sorted(sequences.begin(), sequences.end()));
  EXPECT_EQ(append_wait(log, numbered_event(61)).sequence, 61u);
}

TEST(EventLogRecovery, an_empty_newest_segment_names_the_next_sequence) {
  auto dir = test::temp_dir();
  write_log(dir, {numbered_event(1), numbered_event(2)});
  test::write_file(dir + "/00000000000000000042.log", "");
  event_log log{log_options(dir)};
  EXPECT_EQ(log.recovery().records, 2u);
  EXPECT_EQ(log.recovery().first_sequence, 1u);
  EXPECT_EQ(log.recovery().next_sequence, 42u);
  ASSERT_EQ(log.recovery().problems.size(), 0u);
  EXPECT_EQ(append_wait(log, numbered_event(42)).sequence, 42u);
  EXPECT_EQ(log.segments(), 2u);
}

TEST(EventLogRecovery, a_log_cut_to_nothing_never_reuses_the_segment_sequence) {
  auto dir = test::temp_dir();
  write_log(dir, {numbered_event(1)});
  test::write_file(dir + "/00000000000000000007.log", "GLG1 torn header");
  event_log log{log_options(dir)};
  EXPECT_EQ(log.recovery().next_sequence, 7u);
  EXPECT_EQ(log.recovery().truncated_bytes, 16u);
  EXPECT_EQ(append_wait(log, numbered_event(7)).sequence, 7u);
}

/// A log of 200 events in ~4 KB segments; the first sequence of each segment.
struct segmented_log {
  explicit segmented_log(event_log_options o) : log(o) {
    std::vector<event> events;
    for (std::uint64_t i = 1; i <= 200; ++i)
      events.push_back(numbered_event(i, 300));
    append_all(log, events);
    for (const auto& name : segment_files(o.directory))
      firsts.push_back(std::stoull(name.substr(0, 20)));
  }
  event_log log;
  std::vector<std::uint64_t> firsts;
};

event_log_options retention_options(std::uint64_t bytes, std::chrono::seconds age) {
  auto o = log_options(test::temp_dir());
  o.segment_bytes = 4096;
  o.retention_bytes = bytes;
  o.retention_age = age;
  return o;
}

TEST(EventLogRetention, deletes_consumed_segments_beyond_the_size_limit_oldest_first) {
  auto o = retention_options(5 * 4096, 24h);
  segmented_log s{o};
  ASSERT_GT(s.firsts.size(), 10u);
  s.log.flush();
  EXPECT_EQ(s.log.segments(), s.firsts.size()) << "nothing released, nothing deleted";

  std::uint64_t below = s.firsts[8] + 3; // inside the ninth segment
  s.log.release(below);
  s.log.flush();
  auto names = segment_files(o.directory);
  EXPECT_EQ(names.front().substr(0, 20), fmt::format("{:020}", s.firsts[8]))
    << "every segment wholly below the release is gone, the one holding it stays";
  EXPECT_EQ(s.log.segments(), names.size());
  auto stored = replay_all(s.log, below);
  ASSERT_EQ(stored.size(), 201 - below);
  EXPECT_EQ(stored.front().sequence, below);
}

TEST(EventLogRetention, stops_deleting_once_under_the_size_limit) {
  auto o = retention_options(0, 24h);
  segmented_log s{o};
  auto total = s.log.size_bytes();
  auto o2 = retention_options(total - 3 * 4096, 24h);
  segmented_log t{o2};
  t.log.release(t.log.next_sequence());
  t.log.flush();
  EXPECT_LE(t.log.size_bytes(), o2.retention_bytes);
  EXPECT_GE(t.log.size_bytes() + 4096 + 450, o2.retention_bytes)
    << "deleting stops as soon as the total is within the limit";
}

TEST(EventLogRetention, never_deletes_the_active_segment) {
  auto o = retention_options(0, 0s);
  segmented_log s{o};
  s.log.release(UINT64_MAX);
  s.log.flush();
  ASSERT_EQ(s.log.segments(), 1u);
  EXPECT_EQ(segment_files(o.directory).front().substr(0, 20),
            fmt::format("{:020}", s.firsts.back()));
  EXPECT_EQ(replay_all(s.log).front().sequence, s.firsts.back());
  EXPECT_EQ(append_wait(s.log, numbered_event(201)).sequence, 201u);
}

TEST(EventLogRetention, never_deletes_unconsumed_segments_however_large_or_old) {
  auto o = retention_options(0, 0s);
  segmented_log s{o};
  s.log.release(1);
  s.log.flush();
  EXPECT_EQ(s.log.segments(), s.firsts.size());
  EXPECT_EQ(replay_all(s.log).size(), 200u);
}

TEST(EventLogRetention, deletes_consumed_segments_older_than_the_age_limit) {
  auto o = retention_options(1ull << 30, 3600s);
  segmented_log s{o};
  s.log.release(s.log.next_sequence());
  s.log.flush();
  EXPECT_EQ(s.log.segments(), s.firsts.size()) << "young segments stay";

  auto names = segment_files(o.directory);
  auto old = std::filesystem::file_time_type::clock::now() - 2h;
  for (std::size_t i = 0; i < 3; ++i)
    std::filesystem::last_write_time(o.directory + "/" + names[i], old);
  s.log.release(s.log.next_sequence());
  s.log.flush();
  EXPECT_EQ(s.log.segments(), s.firsts.size() - 3);
  EXPECT_EQ(segment_files(o.directory), std::vector<std::string>(names.begin() + 3, names.end()));
}

} // namespace
} // namespace ganglion::core
