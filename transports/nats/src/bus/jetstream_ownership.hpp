#pragma once

#include <nats/nats.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ganglion/core/remote_bus.hpp"

namespace ganglion::nats {

/// Where and how long the shard leases live.
struct ownership_settings {
  /// The JetStream KV bucket holding `members.<replica>` and `shards.<k>`.
  std::string bucket = "ganglion-owners";
  /// Names are grouped into this many shards; every replica must use the same number.
  std::uint32_t shards = 32;
  /// The bucket's TTL: a lease (or heartbeat) not renewed for this long vanishes.
  std::chrono::milliseconds lease_ttl{5000};
  /// How often leases and the heartbeat are renewed; at most lease_ttl / 3.
  std::chrono::milliseconds tick{1000};
  /// Unique among the live replicas; empty = `<hostname>-<pid>-<random>`.
  std::string replica_id;
};

/// core::ownership through leases in a JetStream KV bucket (history 1, TTL = lease_ttl).
/// Every tick the replica puts its heartbeat `members.<id>`, reads the bucket (one ordered
/// consumer: the last value of every key), computes each shard's preferred owner by rendezvous
/// hashing (highest XXH3 of `<member>/<k>`) over the live members, renews the leases it holds
/// (compare-and-set on the revision), hands over (deletes) those another live member prefers
/// and creates the leases of the free shards it prefers, or of a shard free for a whole TTL.
/// A lease still in the bucket under this replica's id (a restart with the same id) is taken
/// back at once.
///
/// Timing: a lease counts as held until `lease_ttl - tick` after its last successful renew was
/// sent, and every request times out after tick / 2, so the replica stops believing in a lease
/// before the server can expire it. Only the server's clock measures the TTL: clock skew between
/// replicas does not matter. Failover after a crash takes lease_ttl + up to one tick; a graceful
/// stop hands over at the other replicas' next tick; a replica cut off from NATS reports its
/// shards lost within lease_ttl - tick.
class jetstream_ownership : public core::ownership {
public:
  /// Binds to (creating when missing) the bucket and starts the ownership thread. `connection`
  /// is borrowed and must outlive this object. Throws std::invalid_argument for bad settings.
  jetstream_ownership(natsConnection* connection, ownership_settings settings);

  /// Stops the thread, reports every held shard lost, deletes the heartbeat and the leases.
  ~jetstream_ownership() override;

  jetstream_ownership(const jetstream_ownership&) = delete;
  jetstream_ownership& operator=(const jetstream_ownership&) = delete;

  /// See core::ownership::watch; callbacks run on the ownership thread (and, for the final
  /// `false`, on the destroying thread). Dropping the handle waits for a running callback.
  std::shared_ptr<void> watch(const std::string& name,
                              std::function<void(bool owned)> changed) override;

  /// This replica's id.
  const std::string& replica() const override { return settings_.replica_id; }

  /// Stops the thread and deletes nothing, as if the process had been killed (for tests): the
  /// other replicas take over once the leases expire. Watchers are not told.
  void abandon();

private:
  /// One watch; `report` runs its callback at most once per change, never after `active`
  /// is cleared (the handle's destructor clears it under `calling`).
  struct watcher {
    std::uint32_t shard = 0;
    std::function<void(bool)> changed;
    std::recursive_mutex calling;
    bool active = true;
    bool reported = false;
    void report(bool owned) {
      std::lock_guard lock{calling};
      if (!active || reported == owned)
        return;
      reported = owned;
      try {
        changed(owned);
      } catch (const std::exception& e) {
        spdlog::error("ownership watcher of shard {} threw: {}", shard, e.what());
      }
    }
  };
  /// The watches by shard, and those not yet told their shard's state.
  struct registry {
    std::mutex mutex;
    std::vector<std::vector<std::shared_ptr<watcher>>> by_shard;
    std::vector<std::shared_ptr<watcher>> fresh;

    std::vector<std::shared_ptr<watcher>> of(std::uint32_t k) {
      std::lock_guard lock{mutex};
      return by_shard[k];
    }
    void remove(const std::shared_ptr<watcher>& w) {
      std::lock_guard lock{mutex};
      std::erase(by_shard[w->shard], w);
      std::erase(fresh, w);
    }
  };
  struct lease {
    std::string owner;
    std::uint64_t revision = 0;
  };
  struct snapshot {
    std::vector<std::string> members;
    std::vector<std::optional<lease>> shards;
  };
  struct shard {
    bool held = false;
    std::chrono::steady_clock::time_point deadline;
    std::optional<std::chrono::steady_clock::time_point> empty_since;
    std::string passed_over;
  };
  enum class outcome { ok, rejected, unreachable };

  void run();
  void tick();
  bool step(std::uint32_t k, const std::optional<lease>& current, const std::string& preferred,
            bool preferred_takes_leases);
  bool ensure_bucket();
  void adopt_bucket_ttl();
  bool read(snapshot& out);
  outcome check(natsStatus status, const char* what);
  void unreachable();
  void set_held(std::uint32_t k, bool held, const std::string& why);
  /// Logs the shards gained and lost since the last call, one line per kind of change.
  void log_changes();
  void expire_overdue();
  void notify_fresh();
  void stop_thread();
  void release_all();
  std::string preferred_owner(std::uint32_t k, const std::vector<std::string>& members) const;
  std::string shard_key(std::uint32_t k) const;

  natsConnection* connection_;
  ownership_settings settings_;
  std::chrono::milliseconds ttl_;
  std::chrono::milliseconds wait_;
  std::string member_key_;
  jsCtx* js_ = nullptr;
  kvStore* kv_ = nullptr;
  std::vector<shard> shards_;
  std::string last_error_;
  /// Shard changes not logged yet, by what happened (`gained (preferred)` …).
  std::map<std::string, std::vector<std::uint32_t>> changes_;
  bool reachable_ = true;
  bool abandoned_ = false;
  std::shared_ptr<registry> registry_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool fresh_ = false;
  std::thread thread_;
};

} // namespace ganglion::nats
