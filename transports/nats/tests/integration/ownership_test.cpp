// nats::jetstream_ownership: shard leases in a JetStream KV bucket, against a real nats-server.

#include <nats/nats.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "eventually.hpp"
#include "bus/jetstream_ownership.hpp"
#include "log_capture.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

namespace {

constexpr std::uint32_t shard_count = 32;
constexpr auto ttl = 1500ms;
constexpr auto tick = 250ms;

/// One name per shard: watching them all watches every shard.
const std::vector<std::string>& name_per_shard() {
  static const auto names = [] {
    std::vector<std::string> names(shard_count);
    for (int i = 0; std::any_of(names.begin(), names.end(), [](auto& n) { return n.empty(); });
         ++i) {
      auto name = "sensor-" + std::to_string(i);
      auto& slot = names[core::shard_of(name, shard_count)];
      if (slot.empty())
        slot = name;
    }
    return names;
  }();
  return names;
}

/// A client connection that reconnects forever, as the bus's does.
struct connection {
  explicit connection(const std::string& url) {
    natsOptions* options = nullptr;
    natsOptions_Create(&options);
    natsOptions_SetURL(options, url.c_str());
    natsOptions_SetMaxReconnect(options, -1);
    natsOptions_SetReconnectWait(options, 50);
    natsOptions_SetTimeout(options, 1000);
    auto status = natsConnection_Connect(&handle, options);
    natsOptions_Destroy(options);
    if (status != NATS_OK)
      throw std::runtime_error("cannot connect to " + url);
  }
  ~connection() { natsConnection_Destroy(handle); }
  natsConnection* handle = nullptr;
};

/// Several replicas, each watching one name per shard. Their `owned` flags change under one
/// mutex, so that a sample is one instant across replicas.
class cluster {
public:
  explicit cluster(const test::nats_server& server) : server_(server) {}

  ~cluster() {
    for (auto& r : replicas_) {
      r->watches.clear();
      r->owner.reset();
    }
  }

  /// Starts replica `r<index>` and returns its index.
  std::size_t add() {
    std::size_t index = replicas_.size();
    auto r = std::make_unique<replica>();
    r->link = std::make_unique<connection>(server_.url());
    nats::ownership_settings settings;
    settings.shards = shard_count;
    settings.lease_ttl = ttl;
    settings.tick = tick;
    settings.replica_id = "r" + std::to_string(index);
    r->owner = std::make_unique<nats::jetstream_ownership>(r->link->handle, settings);
    {
      std::lock_guard lock{mutex_};
      owned_.emplace_back(shard_count, false);
      alive_.push_back(true);
    }
    for (std::uint32_t k = 0; k < shard_count; ++k)
      r->watches.push_back(r->owner->watch(name_per_shard()[k], [this, index, k](bool owned) {
        std::lock_guard lock{mutex_};
        owned_[index][k] = owned;
      }));
    replicas_.push_back(std::move(r));
    return index;
  }

  nats::jetstream_ownership& owner(std::size_t index) { return *replicas_[index]->owner; }

  /// Stops replica `index` gracefully.
  void stop(std::size_t index) {
    replicas_[index]->owner.reset();
    std::lock_guard lock{mutex_};
    alive_[index] = false;
  }

  /// Kills replica `index` (no clean-up); its flags no longer count.
  void kill(std::size_t index) {
    replicas_[index]->owner->abandon();
    std::lock_guard lock{mutex_};
    alive_[index] = false;
  }

  /// Which live replicas own shard k, per shard, at one instant.
  std::vector<std::vector<std::size_t>> sample() {
    std::lock_guard lock{mutex_};
    std::vector<std::vector<std::size_t>> owners(shard_count);
    for (std::size_t r = 0; r < owned_.size(); ++r)
      for (std::uint32_t k = 0; k < shard_count; ++k)
        if (alive_[r] && owned_[r][k])
          owners[k].push_back(r);
    return owners;
  }

  /// The shards replica r owns.
  std::vector<std::uint32_t> shards_of(std::size_t r) {
    std::vector<std::uint32_t> out;
    auto owners = sample();
    for (std::uint32_t k = 0; k < shard_count; ++k)
      if (std::find(owners[k].begin(), owners[k].end(), r) != owners[k].end())
        out.push_back(k);
    return out;
  }

  /// No shard has two owners.
  bool exclusive() {
    auto owners = sample();
    return std::all_of(owners.begin(), owners.end(), [](auto& o) { return o.size() <= 1; });
  }

  /// Every shard has exactly one owner and every live replica owns some.
  bool settled() {
    auto owners = sample();
    std::vector<std::size_t> count(alive_.size(), 0);
    for (auto& o : owners) {
      if (o.size() != 1)
        return false;
      ++count[o[0]];
    }
    std::lock_guard lock{mutex_};
    for (std::size_t r = 0; r < alive_.size(); ++r)
      if (alive_[r] && count[r] == 0)
        return false;
    return true;
  }

  /// True when no live replica owns anything.
  bool nobody_owns() {
    auto owners = sample();
    return std::all_of(owners.begin(), owners.end(), [](auto& o) { return o.empty(); });
  }

private:
  struct replica {
    std::unique_ptr<connection> link;
    std::unique_ptr<nats::jetstream_ownership> owner;
    std::vector<std::shared_ptr<void>> watches;
  };

  const test::nats_server& server_;
  std::vector<std::unique_ptr<replica>> replicas_;
  std::mutex mutex_;
  std::vector<std::vector<bool>> owned_;
  std::vector<bool> alive_;
};

/// Polls until the cluster has been settled for four ticks in a row (a hand-over to a replica
/// that just joined takes at most two), checking at every sample that no shard has two owners.
bool settle(cluster& c, steady::duration limit = 10s) {
  std::optional<steady::time_point> since;
  return test::eventually(
    [&] {
      EXPECT_TRUE(c.exclusive());
      if (!c.settled())
        since.reset();
      else if (!since)
        since = steady::now();
      return since && steady::now() - *since >= 4 * tick;
    },
    limit);
}

/// Polls until every shard in `shards` is owned by a live replica, checking exclusivity at
/// every sample; returns how long it took (or `limit` + 1 s when it did not happen).
steady::duration until_owned(cluster& c, const std::vector<std::uint32_t>& shards,
                             steady::duration limit) {
  auto start = steady::now();
  bool done = test::eventually(
    [&] {
      EXPECT_TRUE(c.exclusive());
      auto owners = c.sample();
      return std::all_of(shards.begin(), shards.end(), [&](auto k) { return !owners[k].empty(); });
    },
    limit);
  return done ? steady::now() - start : limit + 1s;
}

long long ms(steady::duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

} // namespace

TEST(nats_ownership, one_replica_owns_every_shard_and_tells_watchers_from_its_thread) {
  test::nats_server server;
  cluster c{server};
  auto r = c.add();
  ASSERT_TRUE(settle(c));
  EXPECT_EQ(c.shards_of(r).size(), shard_count);

  std::atomic<int> late_calls{0};
  std::atomic<int> dropped_calls{0};
  std::atomic<bool> late_owned{false};
  std::atomic<bool> on_other_thread{true};
  auto caller = std::this_thread::get_id();
  auto late = c.owner(r).watch("a-sensor-watched-later", [&](bool owned) {
    on_other_thread = on_other_thread && std::this_thread::get_id() != caller;
    late_owned = owned;
    ++late_calls;
  });
  auto dropped = c.owner(r).watch("another-sensor", [&](bool) { ++dropped_calls; });
  ASSERT_TRUE(test::eventually([&] { return late_calls == 1 && dropped_calls == 1; }, 5s));
  EXPECT_TRUE(late_owned);
  EXPECT_TRUE(on_other_thread);

  dropped.reset();
  c.stop(r);
  EXPECT_EQ(late_calls, 2) << "a graceful stop reports the shard lost";
  EXPECT_FALSE(late_owned);
  EXPECT_EQ(dropped_calls, 1) << "no call after the handle is dropped";
}

TEST(nats_ownership, three_replicas_own_every_shard_exactly_once) {
  test::nats_server server;
  cluster c{server};
  for (int i = 0; i < 3; ++i)
    c.add();
  ASSERT_TRUE(settle(c));
  for (int i = 0; i < 200; ++i) {
    ASSERT_TRUE(c.settled()) << "sample " << i;
    std::this_thread::sleep_for(5ms); // samples an invariant over a second
  }
  for (std::size_t r = 0; r < 3; ++r)
    EXPECT_FALSE(c.shards_of(r).empty()) << "replica " << r;
}

TEST(nats_ownership, shards_of_a_killed_replica_move_within_ttl_and_two_ticks) {
  test::nats_server server;
  cluster c{server};
  for (int i = 0; i < 3; ++i)
    c.add();
  ASSERT_TRUE(settle(c));
  auto orphans = c.shards_of(0);
  ASSERT_FALSE(orphans.empty());
  c.kill(0);
  auto took = until_owned(c, orphans, 10s);
  std::printf("failover after kill: %lld ms (ttl %lld ms, tick %lld ms)\n", ms(took),
              static_cast<long long>(ttl.count()), static_cast<long long>(tick.count()));
  EXPECT_LE(took, ttl + 2 * tick);
  EXPECT_TRUE(test::eventually([&] {
    EXPECT_TRUE(c.exclusive());
    return c.settled();
  }));
}

TEST(nats_ownership, a_graceful_stop_hands_over_at_once) {
  test::nats_server server;
  cluster c{server};
  for (int i = 0; i < 3; ++i)
    c.add();
  ASSERT_TRUE(settle(c));
  auto leaving = c.shards_of(0);
  ASSERT_FALSE(leaving.empty());
  c.stop(0);
  auto took = until_owned(c, leaving, 10s);
  std::printf("hand-over after a graceful stop: %lld ms (ttl %lld ms)\n", ms(took),
              static_cast<long long>(ttl.count()));
  EXPECT_LT(took, ttl);
}

TEST(nats_ownership, a_joining_replica_takes_its_share_without_double_owners) {
  test::nats_server server;
  cluster c{server};
  c.add();
  c.add();
  ASSERT_TRUE(settle(c));
  auto before_0 = c.shards_of(0).size();
  auto before_1 = c.shards_of(1).size();
  auto joined = c.add();
  ASSERT_TRUE(settle(c));
  EXPECT_FALSE(c.shards_of(joined).empty());
  EXPECT_LE(c.shards_of(0).size(), before_0);
  EXPECT_LE(c.shards_of(1).size(), before_1);
  EXPECT_EQ(c.shards_of(0).size() + c.shards_of(1).size() + c.shards_of(joined).size(),
            shard_count);
}

TEST(nats_ownership, a_nats_outage_loses_the_shards_within_ttl_then_they_come_back) {
  test::log_capture capture;
  {
    test::nats_server server;
    cluster c{server};
    c.add();
    c.add();
    ASSERT_TRUE(settle(c));
    server.stop();
    auto stopped = steady::now();
    ASSERT_TRUE(test::eventually([&] { return c.nobody_owns(); }, 5s));
    auto lost_after = steady::now() - stopped;
    std::printf("shards lost %lld ms after the server stopped (ttl %lld ms)\n", ms(lost_after),
                static_cast<long long>(ttl.count()));
    EXPECT_LE(lost_after, ttl);
    std::this_thread::sleep_for(4 * tick); // kept: the outage goes on: no line per tick
    server.start();
    ASSERT_TRUE(settle(c, 15s));
  }
  for (std::string r : {"r0", "r1"}) {
    auto prefix = "ownership " + r + ": ";
    EXPECT_EQ(capture.lines(prefix + "NATS JetStream unreachable").size(), 1u) << r;
    EXPECT_EQ(capture.lines(prefix + "NATS JetStream reachable again").size(), 1u) << r;
    EXPECT_LE(capture.lines(prefix).size(), 4 * shard_count + 2) << r;
  }
}
