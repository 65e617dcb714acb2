#include "embedded_remote_bus.hpp"

#include <future>
#include <map>
#include <mutex>
#include <stdexcept>

#include "bus/embedded_bus.hpp"
#include "runtime/messages.hpp"
#include "eventually.hpp"
#include "sensor/dedup_window.hpp"
#include "sensor/sensor_ledger.hpp"
#include "storage/cursor_board.hpp"
#include "storage/event_log.hpp"
#include "storage/sensor_store.hpp"

namespace ganglion::test::bus_conformance {
namespace {

using namespace std::chrono_literals;

/// What a subscription and its actor share, under `mutex`.
struct subscriber_state {
  std::mutex mutex;
  bool closed = false;
  std::unique_ptr<core::sensor_ledger> ledger;
  core::dedup_window dedup{0ms, 0};
  /// Delivered and not acknowledged, by sequence: the sensor's handles.
  std::map<std::uint64_t, core::event_ptr> held;
  core::delivery_handler handler;

  /// Keeps the handles of admitted events and hands copies to the handler (the handler's
  /// copies do not hold the events unfinished).
  void deliver(const std::vector<core::event_ptr>& admitted) {
    std::vector<core::event_ptr> copies;
    for (auto& e : admitted) {
      held[e->sequence] = e;
      copies.push_back(std::make_shared<const core::event>(*e));
    }
    ledger->commit();
    if (!copies.empty())
      handler(std::move(copies));
  }
};

/// A sensor's subscription: its ledger, and the actor the embedded bus routes its events to.
class embedded_subscription final : public core::remote_subscription {
public:
  embedded_subscription(caf::actor_system& system, std::shared_ptr<core::embedded_bus> bus,
                        std::shared_ptr<core::work_tracker> work,
                        const std::vector<std::pair<std::string, std::string>>& sources,
                        std::shared_ptr<subscriber_state> state)
    : bus_(std::move(bus)), state_(std::move(state)) {
    // As a sensor: routed from the start, then recovered, before any routed batch is handled.
    auto ready = std::make_shared<std::promise<void>>();
    actor_ = system.spawn(
      [bus = bus_, sources, st = state_, work, ready](caf::event_based_actor* self) -> caf::behavior {
        for (const auto& [source, subject] : sources)
          bus->subscribe(source, subject, caf::actor_cast<caf::actor>(self));
        {
          std::lock_guard guard{st->mutex};
          std::vector<core::event_ptr> recovered;
          st->ledger->recover(st->dedup,
                              [&](const core::event_ptr& e) { recovered.push_back(e); });
          st->deliver(recovered);
        }
        ready->set_value();
        return {
          [=](core::event_batch& batch) {
            work->done(static_cast<std::int64_t>(batch.events.size()));
            std::lock_guard guard{st->mutex};
            if (st->closed)
              return;
            std::vector<core::event_ptr> admitted;
            for (auto& e : batch.events)
              if (auto handle = st->ledger->admit(e))
                admitted.push_back(std::move(handle));
            st->deliver(admitted);
          },
        };
      });
    ready->get_future().wait();
  }

  ~embedded_subscription() override {
    bus_->unsubscribe(actor_.address());
    {
      std::lock_guard guard{state_->mutex};
      state_->closed = true;
      state_->ledger->commit(true); // what is still held stays unfinished
      state_->ledger.reset();
      state_->held.clear();
    }
    caf::anon_send_exit(actor_, caf::exit_reason::user_shutdown);
  }

  void acknowledge(const std::vector<std::uint64_t>& sequences) override {
    std::lock_guard guard{state_->mutex};
    if (state_->closed)
      return;
    for (auto sequence : sequences)
      state_->held.erase(sequence);
    state_->ledger->commit();
  }

private:
  std::shared_ptr<core::embedded_bus> bus_;
  std::shared_ptr<subscriber_state> state_;
  caf::actor actor_;
};

/// The embedded bus over its log, with a subscription per sensor (embedded_remote_bus.hpp).
class embedded_remote_bus final : public core::remote_bus {
public:
  embedded_remote_bus(caf::actor_system& system, const std::string& directory,
                      std::size_t capacity)
    : system_(system), directory_(directory) {
    core::event_log_options options;
    options.directory = directory_ + "/log";
    options.fsync = core::fsync_policy::never;
    log_ = std::make_shared<core::event_log>(options);
    cursors_ = std::make_shared<core::cursor_board>(log_);
    bus_ = std::make_shared<core::embedded_bus>(capacity, metrics_, work_, log_);
    dispatcher_ = system_.spawn(core::bus_dispatcher, bus_);
  }

  ~embedded_remote_bus() override {
    bus_->close();
    caf::anon_send_exit(dispatcher_, caf::exit_reason::user_shutdown);
    dispatcher_ = nullptr;
    std::weak_ptr<core::event_log> log = log_;
    bus_.reset();
    cursors_.reset();
    log_.reset();
    // The dispatcher lets go of the bus and its log when it is gone: then the directory's
    // lock is free for the replica's restart.
    test::eventually([&] { return log.expired(); }, 10s);
  }

  std::string kind() const override { return "embedded"; }

  void publish(core::event&& e, core::publish_done done) override {
    bus_->publish(std::move(e), std::move(done));
  }

  std::unique_ptr<core::remote_subscription> subscribe(
    const std::string& sensor, const std::vector<std::pair<std::string, std::string>>& sources,
    core::delivery_handler handler) override {
    auto state = std::make_shared<subscriber_state>();
    core::sensor_durability durability;
    durability.directory = sensor_directory(sensor);
    durability.fsync = core::fsync_policy::never;
    durability.log = log_;
    durability.cursors = cursors_;
    state->ledger = std::make_unique<core::sensor_ledger>(sensor, durability);
    state->handler = std::move(handler);
    return std::make_unique<embedded_subscription>(system_, bus_, work_, sources,
                                                   std::move(state));
  }

  void forget(const std::string& sensor) override {
    core::sensor_store::remove(sensor_directory(sensor));
    cursors_->remove(sensor);
  }

  core::state_store& state() override {
    throw std::logic_error("the embedded bus has no state store");
  }

  core::ownership& owners() override {
    throw std::logic_error("the embedded bus has no ownership");
  }

  void close(std::chrono::milliseconds) override { bus_->close(); }

private:
  std::string sensor_directory(const std::string& sensor) const {
    return directory_ + "/sensors/" + sensor;
  }

  caf::actor_system& system_;
  std::string directory_;
  core::metrics_registry metrics_;
  std::shared_ptr<core::work_tracker> work_ = std::make_shared<core::work_tracker>();
  std::shared_ptr<core::event_log> log_;
  std::shared_ptr<core::cursor_board> cursors_;
  std::shared_ptr<core::embedded_bus> bus_;
  caf::actor dispatcher_;
};

} // namespace

std::shared_ptr<core::remote_bus> make_embedded_remote_bus(caf::actor_system& system,
                                                           const std::string& directory,
                                                           std::size_t capacity) {
  return std::make_shared<embedded_remote_bus>(system, directory, capacity);
}

} // namespace ganglion::test::bus_conformance
