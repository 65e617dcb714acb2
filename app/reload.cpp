#include "reload.hpp"

#include <iterator>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "ganglion/core/event.hpp"
#include "ganglion/dsl/load.hpp"

namespace ganglion::app {

std::string reload_outcome::to_json() const {
  if (what != kind::applied)
    return nlohmann::json{{"applied", false}, {"errors", errors}}.dump(2);
  return nlohmann::json{{"applied", true},
                        {"summary", result.summary()},
                        {"started", result.started},
                        {"stopped", result.stopped},
                        {"restarted", result.restarted},
                        {"reconfigured", result.reconfigured},
                        {"unchanged", result.unchanged},
                        {"needsRestart", result.needs_restart}}
    .dump(2);
}

reloader::reloader(core::engine& engine, std::vector<std::string> paths, dsl::load_options load,
                   extra_documents extra)
  : engine_(engine), paths_(std::move(paths)), load_(std::move(load)), extra_(std::move(extra)),
    thread_([this] { run(); }) {}

reloader::~reloader() {
  stop();
}

void reloader::request(std::string reason, callback done) {
  {
    std::lock_guard guard{mutex_};
    if (!stopping_) {
      queue_.push_back(pending{std::move(reason), std::move(done)});
      wake_.notify_one();
      return;
    }
  }
  if (done)
    done(reload_outcome{reload_outcome::kind::stopping, {}, {"ganglion is stopping"}});
}

void reloader::stop() {
  {
    std::lock_guard guard{mutex_};
    stopping_ = true;
    wake_.notify_one();
  }
  if (thread_.joinable())
    thread_.join();
}

void reloader::run() {
  std::unique_lock lock{mutex_};
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    auto batch = std::move(queue_);
    queue_.clear();
    if (stopping_) {
      lock.unlock();
      for (auto& p : batch)
        if (p.done)
          p.done(reload_outcome{reload_outcome::kind::stopping, {}, {"ganglion is stopping"}});
      return;
    }
    lock.unlock();
    for (const auto& p : batch)
      spdlog::info("reloading the manifests: {}", p.reason);
    auto outcome = reload_once();
    for (auto& p : batch)
      if (p.done)
        p.done(outcome);
    lock.lock();
  }
}

reload_outcome reloader::reload_once() {
  reload_outcome outcome;
  core::config_status config;
  config.reloads = ++reloads_;
  config.last_reload = core::now_rfc3339();
  auto loaded = dsl::load_manifests(paths_, load_);
  for (const auto& d : loaded.diagnostics) {
    if (d.level == dsl::severity::error)
      outcome.errors.push_back(d.to_string());
    else
      spdlog::warn("{}", d.without_level());
  }
  if (outcome.errors.empty()) {
    try {
      if (extra_.load) {
        auto more = extra_.load(loaded.documents);
        loaded.documents.insert(loaded.documents.end(), std::make_move_iterator(more.begin()),
                                std::make_move_iterator(more.end()));
      }
      outcome.result = engine_.reload(loaded.documents);
    } catch (const std::exception& ex) {
      outcome.errors.push_back(std::string{"the engine cannot reload: "} + ex.what());
    }
  }
  if (!outcome.errors.empty()) {
    outcome.what = reload_outcome::kind::invalid;
    spdlog::error("reload refused, the running manifests stay: {} error(s)", outcome.errors.size());
    for (const auto& e : outcome.errors)
      spdlog::error("{}", e);
    config.phase = core::to_string(core::phase::error);
    config.errors = outcome.errors;
  }
  engine_.status().set_config(std::move(config));
  if (outcome.what == reload_outcome::kind::applied && extra_.applied)
    extra_.applied();
  return outcome;
}

} // namespace ganglion::app
