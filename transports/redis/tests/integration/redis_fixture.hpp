#pragma once

// What the redis integration tests share: a bus whose answer the test sets, a plain client for
// the test side, and a source started from a model as loading would make it.

#include <condition_variable>
#include <mutex>
#include <vector>

#include <gtest/gtest.h>

#include "client/connection.hpp"
#include "eventually.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/redis/spec.hpp"
#include "ganglion/redis/transport.hpp"
#include "kind_manifests.hpp"
#include "redis_server.hpp"
#include "test_support.hpp"

namespace ganglion::test {

/// A bus that answers each event with `answer` (accepted unless set) and keeps those accepted.
class answering_bus : public core::bus_publisher {
public:
  void publish(core::event&& e, core::publish_done done) override {
    core::publish_status status;
    {
      std::lock_guard guard{mutex_};
      status = answer_;
      ++offered_;
      if (status == core::publish_status::accepted)
        events_.push_back(std::move(e));
    }
    done(status, {});
  }
  void answer(core::publish_status status) {
    std::lock_guard guard{mutex_};
    answer_ = status;
  }
  std::vector<core::event> events() {
    std::lock_guard guard{mutex_};
    return events_;
  }
  std::size_t offered() {
    std::lock_guard guard{mutex_};
    return offered_;
  }
  /// True once `n` events were accepted (10 s at most).
  bool wait_for(std::size_t n) {
    return eventually([&] { return events().size() >= n; });
  }

private:
  std::mutex mutex_;
  core::publish_status answer_ = core::publish_status::accepted;
  std::size_t offered_ = 0;
  std::vector<core::event> events_;
};

/// The test side's client: one command at a time (reconnects when the server restarted).
class redis_client {
public:
  explicit redis_client(redis::server_settings settings) : settings_(std::move(settings)) {}

  /// Runs one command; its reply (a redis error reply included). Throws when the server does
  /// not answer.
  redis::reply run(const std::vector<std::string>& args) {
    if (!conn_)
      conn_ = redis::connection::open(settings_, waker_);
    try {
      auto r = conn_->call(args);
      if (!r)
        throw redis::connection_error("woken");
      return *r;
    } catch (const redis::connection_error&) {
      conn_.reset();
      throw;
    }
  }
  /// Like run(), false when the server does not answer (yet).
  bool try_run(const std::vector<std::string>& args) {
    try {
      run(args);
      return true;
    } catch (const redis::connection_error&) {
      return false;
    }
  }

private:
  redis::server_settings settings_;
  redis::waker waker_;
  std::unique_ptr<redis::connection> conn_;
};

/// The plain settings of `server`.
inline redis::server_settings plain(const redis_server& server) {
  redis::server_settings s;
  s.host_address = server.address();
  return s;
}

/// A source context of EventSource `es` (its event `name` of `type`), with `bus`.
inline core::source_context source_context(const dsl::event_source& es, const std::string& type,
                                           const std::string& name,
                                           std::shared_ptr<core::bus_publisher> bus,
                                           core::metrics_registry* metrics,
                                           std::shared_ptr<const core::secret_store> secrets) {
  core::source_context ctx;
  ctx.event_source_name = es.metadata.name;
  ctx.event_name = name;
  ctx.type = type;
  ctx.manifest = &es;
  ctx.bus = std::move(bus);
  ctx.metrics = metrics;
  ctx.secrets = std::move(secrets);
  return ctx;
}

/// Fast reconnection, for tests that restart the server.
inline redis::options fast_options() {
  redis::options opts;
  opts.min_reconnect_delay = std::chrono::milliseconds(20);
  opts.max_reconnect_delay = std::chrono::milliseconds(200);
  opts.block = std::chrono::milliseconds(200);
  opts.retry_delay = std::chrono::milliseconds(20);
  return opts;
}

/// The value of counter `name` with labels containing `labels` in `metrics`' text, or -1.
inline long counter_value(const core::metrics_registry& metrics, const std::string& series) {
  auto text = metrics.render();
  auto at = text.find(series + " ");
  if (at == std::string::npos)
    return -1;
  return std::stol(text.substr(at + series.size() + 1));
}

} // namespace ganglion::test
