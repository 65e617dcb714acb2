#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "files.hpp"
#include "storage/sensor_store.hpp"

namespace ganglion::core {
namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out{path, std::ios::binary | std::ios::trunc};
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

event held(std::uint64_t sequence, std::string data) {
  event e;
  e.id = "id-" + std::to_string(sequence);
  e.source = "webhook";
  e.type = "webhook";
  e.subject = "example";
  e.time = "2024-05-01T12:13:14.123456789Z";
  e.data = std::move(data);
  e.sequence = sequence;
  return e;
}

sensor_snapshot snapshot_at(std::uint64_t cursor) {
  sensor_snapshot s;
  s.cursor = cursor;
  s.held.push_back({"trigger-a", "dep-1", held(cursor - 2, R"({"x":1})")});
  s.held.push_back({"", "dep-2", held(cursor - 1, std::string("\0\xff\x01", 3))});
  return s;
}

void expect_same(const sensor_snapshot& a, const sensor_snapshot& b) {
  EXPECT_EQ(a.cursor, b.cursor);
  ASSERT_EQ(a.held.size(), b.held.size());
  for (std::size_t i = 0; i < a.held.size(); ++i) {
    EXPECT_EQ(a.held[i].trigger, b.held[i].trigger);
    EXPECT_EQ(a.held[i].dependency, b.held[i].dependency);
    EXPECT_EQ(a.held[i].e.sequence, b.held[i].e.sequence);
    EXPECT_EQ(a.held[i].e.id, b.held[i].e.id);
    EXPECT_EQ(a.held[i].e.data, b.held[i].e.data);
  }
}

std::vector<completion> completions(std::uint64_t from, std::uint64_t to) {
  std::vector<completion> out;
  for (auto s = from; s < to; ++s)
    out.push_back({s, s * 31, s * 77, static_cast<std::int64_t>(1700000000000 + s)});
  return out;
}

TEST(SensorStore, creates_its_directory_and_starts_empty) {
  auto dir = test::temp_dir() + "/sensors/my-sensor";
  sensor_store store{dir, fsync_policy::interval};
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  auto s = store.load_snapshot();
  EXPECT_EQ(s.cursor, 0u);
  EXPECT_TRUE(s.held.empty());
  EXPECT_TRUE(store.load_completions().empty());
}

TEST(SensorStore, a_snapshot_round_trips_across_reopen) {
  auto dir = test::temp_dir();
  for (auto policy : {fsync_policy::always, fsync_policy::interval, fsync_policy::never}) {
    sensor_store{dir, policy}.save_snapshot(snapshot_at(42 + static_cast<int>(policy)));
    expect_same(sensor_store{dir, policy}.load_snapshot(), snapshot_at(42 + static_cast<int>(policy)));
  }
  sensor_snapshot large;
  large.cursor = 7;
  large.held.push_back({"t", "d", held(3, std::string(2u << 20, 'z'))});
  sensor_store store{dir, fsync_policy::never};
  store.save_snapshot(large);
  expect_same(store.load_snapshot(), large);
  EXPECT_FALSE(std::filesystem::exists(dir + "/snapshot.tmp"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/snapshot.prev"));
}

TEST(SensorStore, a_torn_or_corrupt_snapshot_falls_back_to_the_previous_one) {
  auto dir = test::temp_dir();
  sensor_store store{dir, fsync_policy::always};
  store.save_snapshot(snapshot_at(10));
  store.save_snapshot(snapshot_at(20));
  auto good = read_bytes(dir + "/snapshot");

  auto flipped = good;
  flipped[flipped.size() / 2] ^= 0x01;
  write_bytes(dir + "/snapshot", flipped);
  expect_same(store.load_snapshot(), snapshot_at(10));

  write_bytes(dir + "/snapshot", good.substr(0, good.size() - 5));
  expect_same(store.load_snapshot(), snapshot_at(10));

  std::filesystem::remove(dir + "/snapshot");
  expect_same(store.load_snapshot(), snapshot_at(10));

  write_bytes(dir + "/snapshot.prev", "garbage");
  EXPECT_EQ(store.load_snapshot().cursor, 0u) << "neither is readable: start empty";

  store.save_snapshot(snapshot_at(30));
  expect_same(store.load_snapshot(), snapshot_at(30));
}

TEST(SensorStore, completions_survive_a_torn_tail_and_appends_stay_aligned) {
  auto dir = test::temp_dir();
  {
    sensor_store store{dir, fsync_policy::interval};
    store.append_completions(completions(1, 6));
    store.append_completions(completions(6, 11));
    EXPECT_EQ(store.load_completions(), completions(1, 11));
  }
  auto journal = dir + "/completed.1";
  auto bytes = read_bytes(journal);
  ASSERT_EQ(bytes.size(), 10u * 40u);
  write_bytes(journal, bytes.substr(0, bytes.size() - 7));
  {
    sensor_store store{dir, fsync_policy::interval};
    EXPECT_EQ(store.load_completions(), completions(1, 10));
    store.append_completions(completions(100, 102));
    auto expected = completions(1, 10);
    for (const auto& c : completions(100, 102))
      expected.push_back(c);
    EXPECT_EQ(store.load_completions(), expected);
  }
}

TEST(SensorStore, a_corrupt_completion_ends_what_is_read_of_its_generation) {
  auto dir = test::temp_dir();
  sensor_store store{dir, fsync_policy::never};
  store.append_completions(completions(1, 11));
  auto journal = dir + "/completed.1";
  auto bytes = read_bytes(journal);
  bytes[4 * 40 + 9] ^= 0x40; // inside the fifth record
  write_bytes(journal, bytes);
  EXPECT_EQ(store.load_completions(), completions(1, 5));
}

TEST(SensorStore, rotation_keeps_the_two_newest_generations) {
  auto dir = test::temp_dir();
  {
    sensor_store store{dir, fsync_policy::always};
    store.append_completions(completions(1, 4));
    store.rotate_completions();
    store.append_completions(completions(4, 6));
    EXPECT_EQ(store.load_completions(), completions(1, 6));
    store.rotate_completions();
    store.append_completions(completions(6, 9));
    EXPECT_EQ(store.load_completions(), completions(4, 9));
    EXPECT_FALSE(std::filesystem::exists(dir + "/completed.1"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/completed.2"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/completed.3"));
  }
  sensor_store store{dir, fsync_policy::always};
  EXPECT_EQ(store.generation(), 3u);
  store.append_completions(completions(9, 10));
  EXPECT_EQ(store.load_completions(), completions(4, 10));
  store.rotate_completions();
  EXPECT_EQ(store.load_completions(), completions(6, 10));
}

TEST(SensorStore, remove_deletes_the_sensor_directory) {
  auto dir = test::temp_dir() + "/sensors/gone";
  {
    sensor_store store{dir, fsync_policy::never};
    store.save_snapshot(snapshot_at(5));
    store.append_completions(completions(1, 3));
  }
  sensor_store::remove(dir);
  EXPECT_FALSE(std::filesystem::exists(dir));
  sensor_store::remove(dir); // already gone: nothing happens
}

} // namespace
} // namespace ganglion::core
