#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "core_event_log_support.hpp"
#include "ganglion/core/event_codec.hpp"

namespace ganglion::core {
namespace {

event sample_event() {
  event e;
  e.id = "4f1c0f6e9a2b4c1d8e3f5a6b7c8d9e0f";
  e.source = "webhook";
  e.type = "webhook";
  e.subject = "example";
  e.time = "2024-05-01T12:13:14.123456789Z";
  e.data = R"({"body":{"message":"hello"}})";
  e.sequence = 17;
  return e;
}


event round_trip(const event& e) {
  std::string bytes;
  encode_event(e, bytes);
  EXPECT_EQ(bytes.size(), encoded_size(e));
  event out;
  EXPECT_TRUE(decode_event(bytes, out));
  return out;
}

TEST(EventCodec, round_trips_every_field_but_the_sequence) {
  auto e = sample_event();
  auto out = round_trip(e);
  testing::expect_same_event(e, out);
  EXPECT_EQ(out.sequence, 0u) << "the log keeps the sequence in its record header";
}

TEST(EventCodec, keeps_the_namespace_and_encodes_an_event_without_one_as_before) {
  auto e = sample_event();
  std::string before;
  encode_event(e, before);
  e.namespace_ = "team-a";
  auto out = round_trip(e);
  EXPECT_EQ(out.namespace_, "team-a");
  std::string with;
  encode_event(e, with);
  EXPECT_EQ(with.substr(0, before.size()), before) << "the namespace is appended, last";

  event old;
  old.namespace_ = "stale";
  ASSERT_TRUE(decode_event(before, old)) << "a log written before namespaces decodes";
  EXPECT_EQ(old.namespace_, "") << "and names none";
  EXPECT_FALSE(decode_event(with + "x", old)) << "trailing bytes after the namespace";
  EXPECT_FALSE(decode_event(before + std::string(4, '\0'), old)) << "an empty namespace field";
}

TEST(EventCodec, round_trips_binary_empty_and_large_data) {
  event empty;
  empty.datacontenttype.clear();
  empty.specversion.clear();
  testing::expect_same_event(empty, round_trip(empty));

  auto binary = sample_event();
  binary.datacontenttype = "application/octet-stream";
  binary.data.assign("\0\x01\xff\x7f\0\n\r", 7);
  for (int i = 0; i < 256; ++i)
    binary.data.push_back(static_cast<char>(i));
  testing::expect_same_event(binary, round_trip(binary));

  auto large = sample_event();
  large.data.assign(5u << 20, 'x');
  large.id.assign(70000, 'i');
  testing::expect_same_event(large, round_trip(large));
}

TEST(EventCodec, appends_to_what_the_buffer_holds) {
  std::string bytes = "prefix";
  auto e = sample_event();
  encode_event(e, bytes);
  encode_event(e, bytes);
  ASSERT_EQ(bytes.size(), 6 + 2 * encoded_size(e));
  EXPECT_EQ(bytes.substr(0, 6), "prefix");
  event out;
  EXPECT_TRUE(decode_event(std::string_view(bytes).substr(6, encoded_size(e)), out));
  testing::expect_same_event(e, out);
}

TEST(EventCodec, lengths_are_u32_little_endian_before_each_field) {
  event e;
  e.id = "ab";
  std::string bytes;
  encode_event(e, bytes);
  ASSERT_GE(bytes.size(), 6u);
  EXPECT_EQ(bytes.substr(0, 6), std::string("\x02\0\0\0ab", 6));
}

TEST(EventCodec, rejects_every_truncation_and_trailing_bytes) {
  std::string bytes;
  encode_event(sample_event(), bytes);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    event out;
    EXPECT_FALSE(decode_event(std::string_view(bytes).substr(0, n), out)) << "prefix " << n;
  }
  event out;
  EXPECT_FALSE(decode_event(bytes + "x", out));
}

TEST(EventCodec, rejects_a_length_past_the_end) {
  std::string bytes;
  encode_event(sample_event(), bytes);
  bytes[3] = '\x7f'; // the id's length becomes ~2 GiB
  event out;
  EXPECT_FALSE(decode_event(bytes, out));
  bytes[3] = '\xff';
  EXPECT_FALSE(decode_event(bytes, out));
}

TEST(EventCodec, random_and_mutated_input_never_reads_out_of_bounds) {
  std::mt19937_64 random{12345};
  std::string valid;
  encode_event(sample_event(), valid);
  for (int round = 0; round < 20000; ++round) {
    std::string bytes;
    if (round % 2 == 0) {
      bytes.resize(random() % 96);
      for (auto& c : bytes)
        c = static_cast<char>(random());
      // Small lengths so that decoding gets past the first fields now and then.
      for (std::size_t at = 0; at + 4 <= bytes.size(); at += 7)
        bytes[at + 1] = bytes[at + 2] = bytes[at + 3] = 0, bytes[at] = static_cast<char>(random() % 8);
    } else {
      bytes = valid;
      for (int flips = 1 + random() % 3; flips > 0; --flips)
        bytes[random() % bytes.size()] = static_cast<char>(random());
      bytes.resize(random() % (bytes.size() + 1));
    }
    event out;
    if (decode_event(bytes, out)) {
      EXPECT_EQ(encoded_size(out), bytes.size()) << "round " << round;
    }
  }
}

} // namespace
} // namespace ganglion::core
