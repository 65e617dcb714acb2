#pragma once

// Helpers shared by the core_event_log*_test.cpp files.

#include <cstdint>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <future>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/event_log.hpp"

namespace ganglion::core::testing {

/// How one append completed.
struct appended {
  std::uint64_t sequence = 0;
  std::optional<std::string> error;
};

/// Appends `e` and waits for its completion.
inline appended append_wait(event_log& log, event e) {
  std::promise<appended> outcome;
  auto result = outcome.get_future();
  log.append(std::move(e), [&](event&& stored, const std::string* error) {
    outcome.set_value({stored.sequence, error ? std::optional(*error) : std::nullopt});
  });
  return result.get();
}

/// Appends every event of `events` at once and waits for all completions; the sequences, in
/// completion order.
inline std::vector<std::uint64_t> append_all(event_log& log, const std::vector<event>& events) {
  std::vector<std::uint64_t> sequences;
  std::promise<void> all_done;
  auto finished = all_done.get_future();
  std::size_t remaining = events.size();
  for (const auto& e : events) {
    log.append(event(e), [&](event&& stored, const std::string* error) {
      EXPECT_EQ(error, nullptr) << *error;
      sequences.push_back(stored.sequence);
      if (--remaining == 0)
        all_done.set_value();
    });
  }
  if (!events.empty())
    finished.wait();
  return sequences;
}

/// Every record from `from` on.
inline std::vector<event> replay_all(const event_log& log, std::uint64_t from = 1) {
  std::vector<event> out;
  log.replay(from, [&](event&& e) { out.push_back(std::move(e)); });
  return out;
}

/// An event numbered `i` with `data_bytes` of data.
inline event numbered_event(std::uint64_t i, std::size_t data_bytes = 100) {
  event e;
  e.id = "id-" + std::to_string(i);
  e.source = "bench";
  e.type = "webhook";
  e.subject = "example";
  e.time = "2024-05-01T12:13:14.123456789Z";
  e.data = "{\"n\":" + std::to_string(i) + ",\"pad\":\"";
  e.data.append(data_bytes > e.data.size() + 2 ? data_bytes - e.data.size() - 2 : 0,
                static_cast<char>('a' + i % 26));
  e.data += "\"}";
  return e;
}

/// Options for a log in `dir`.
inline event_log_options log_options(std::string dir, fsync_policy policy = fsync_policy::never) {
  event_log_options o;
  o.directory = std::move(dir);
  o.fsync = policy;
  return o;
}

/// The segment files of `dir`, sorted by name.
inline std::vector<std::string> segment_files(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".log")
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// The bytes of `path`.
inline std::string file_bytes(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Replaces `path` with `bytes`.
inline void put_file_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out{path, std::ios::binary | std::ios::trunc};
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Every field of `a` equals `b`'s (the sequence aside).
inline void expect_same_event(const event& a, const event& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.subject, b.subject);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.datacontenttype, b.datacontenttype);
  EXPECT_EQ(a.specversion, b.specversion);
  EXPECT_EQ(a.data, b.data);
  EXPECT_EQ(a.namespace_, b.namespace_);
}

} // namespace ganglion::core::testing
