#pragma once

// What the tests of a push source with provider hooks (bitbucket, gerrit …) hand their source:
// a context whose fail and give_up are recorded, and an http runtime on 127.0.0.1.

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::test {

/// The failures a source reported, as `fail: <why>` or `give_up: <why>`.
class recorded_failures {
public:
  /// Records one.
  void add(const std::string& how, const std::string& why) {
    std::lock_guard lock{mutex_};
    all_.push_back(how + ": " + why);
  }
  /// Every failure so far.
  std::vector<std::string> all() const {
    std::lock_guard lock{mutex_};
    return all_;
  }

private:
  mutable std::mutex mutex_;
  std::vector<std::string> all_;
};

/// The context of event `name` (of `type`) of `es`, with its secrets under `secrets_dir` and
/// its failures going to `failures`.
inline core::source_context push_source_context(const dsl::event_source& es,
                                                const std::string& type, const std::string& name,
                                                std::shared_ptr<core::bus_publisher> bus,
                                                core::metrics_registry* metrics,
                                                const std::string& secrets_dir,
                                                recorded_failures& failures) {
  core::source_context ctx;
  ctx.event_source_name = es.metadata.name;
  ctx.event_name = name;
  ctx.type = type;
  ctx.manifest = &es;
  ctx.bus = std::move(bus);
  ctx.metrics = metrics;
  ctx.secrets = std::make_shared<core::secret_store>(secrets_dir);
  ctx.fail = [&failures](const std::string& why) { failures.add("fail", why); };
  ctx.give_up = [&failures](const std::string& why) { failures.add("give_up", why); };
  return ctx;
}

/// An http runtime whose servers listen on 127.0.0.1.
inline std::shared_ptr<http::runtime> loopback_runtime() {
  http::runtime_options settings;
  settings.bind_host = "127.0.0.1";
  return std::make_shared<http::runtime>(settings);
}

} // namespace ganglion::test
