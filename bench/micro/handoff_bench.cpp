// Cross-thread hand-off of events (event_ptr) from a producer thread to an actor, end to end:
// the benchmark thread pushes a round of events and waits until the consumer has seen them all.
// - handoff/moodycamel_bulk/<batch>: what the embedded bus does — enqueue each event on a
//   moodycamel::ConcurrentQueue, wake a dispatcher actor with one CAF message when none is
//   pending, which dequeues in bulk (up to <batch>) and sends one event_batch message per bulk to
//   the consumer actor.
// - handoff/caf_message_per_event: one CAF message per event (anon_send(actor, event_ptr)).
// - handoff/embedded_bus: the engine's embedded_bus itself (publish copies the event into a new
//   one, as sources hand it over), with the engine's bus dispatcher actor.
// Baseline: handoff/caf_message_per_event. Times are wall-clock.

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <caf/all.hpp>
#include <concurrentqueue/concurrentqueue.h>

#include "bus/embedded_bus.hpp"
#include "fixtures.hpp"
#include "ganglion/core/metrics.hpp"
#include "runtime/messages.hpp"
#include "runtime/work_tracker.hpp"

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(ganglion::core::event_ptr)

namespace ganglion::bench {
namespace {

constexpr std::int64_t events_per_round = 16384;

/// Events the consumer has seen; wakes the producer when a round is complete.
class round_counter {
public:
  /// Starts a round of `n` more events; returns the token to wait on.
  std::uint32_t start(std::int64_t n) {
    target_.fetch_add(n, std::memory_order_acq_rel);
    return rounds_.load(std::memory_order_acquire);
  }

  void wait(std::uint32_t token) {
    while (rounds_.load(std::memory_order_acquire) == token)
      rounds_.wait(token, std::memory_order_acquire);
  }

  void seen(std::int64_t n) {
    if (seen_.fetch_add(n, std::memory_order_acq_rel) + n
        == target_.load(std::memory_order_acquire)) {
      rounds_.fetch_add(1, std::memory_order_acq_rel);
      rounds_.notify_one();
    }
  }

private:
  std::atomic<std::int64_t> seen_{0};
  std::atomic<std::int64_t> target_{0};
  std::atomic<std::uint32_t> rounds_{0};
};

caf::behavior consumer(caf::event_based_actor*, std::shared_ptr<round_counter> counter) {
  return {
    [=](const core::event_ptr& e) {
      benchmark::DoNotOptimize(e->data.size());
      counter->seen(1);
    },
    [=](const core::event_batch& batch) {
      for (const auto& e : batch.events)
        benchmark::DoNotOptimize(e->data.size());
      counter->seen(static_cast<std::int64_t>(batch.events.size()));
    },
  };
}

struct bulk_channel {
  moodycamel::ConcurrentQueue<core::event_ptr> queue;
  std::atomic<bool> wake_pending{false};
  std::size_t batch = 0;
};

caf::behavior bulk_dispatcher(caf::event_based_actor* self, std::shared_ptr<bulk_channel> channel,
                              caf::actor sink) {
  return {
    [=](core::drain_atom) {
      channel->wake_pending.store(false, std::memory_order_release);
      for (;;) {
        core::event_batch batch;
        batch.events.resize(channel->batch);
        auto n = channel->queue.try_dequeue_bulk(batch.events.begin(), channel->batch);
        if (n == 0)
          break;
        batch.events.resize(n);
        self->send(sink, std::move(batch));
      }
    },
  };
}

/// Runs rounds of `events_per_round` events through `push` until the state is done.
template <class Push>
void run_rounds(benchmark::State& state, round_counter& counter, Push&& push) {
  const auto& events = corpus_events();
  std::size_t next = 0;
  for (auto _ : state) {
    auto token = counter.start(events_per_round);
    for (std::int64_t i = 0; i < events_per_round; ++i) {
      push(events[next]);
      next = next_index(next, events.size());
    }
    counter.wait(token);
  }
  state.SetItemsProcessed(state.iterations() * events_per_round);
  state.SetBytesProcessed(corpus_bytes(state.iterations() * events_per_round));
}

void handoff_moodycamel_bulk(benchmark::State& state) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  auto counter = std::make_shared<round_counter>();
  auto channel = std::make_shared<bulk_channel>();
  channel->batch = static_cast<std::size_t>(state.range(0));
  auto sink = sys.spawn(consumer, counter);
  auto dispatcher = sys.spawn(bulk_dispatcher, channel, sink);
  run_rounds(state, *counter, [&](const core::event_ptr& e) {
    channel->queue.enqueue(e);
    if (!channel->wake_pending.exchange(true, std::memory_order_acq_rel))
      caf::anon_send(dispatcher, core::drain_atom::value);
  });
  caf::anon_send_exit(dispatcher, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(sink, caf::exit_reason::user_shutdown);
  sys.await_all_actors_done();
}

void handoff_caf_message_per_event(benchmark::State& state) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  auto counter = std::make_shared<round_counter>();
  auto sink = sys.spawn(consumer, counter);
  run_rounds(state, *counter, [&](const core::event_ptr& e) { caf::anon_send(sink, e); });
  caf::anon_send_exit(sink, caf::exit_reason::user_shutdown);
  sys.await_all_actors_done();
}

void handoff_embedded_bus(benchmark::State& state) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  core::metrics_registry metrics;
  auto bus = std::make_shared<core::embedded_bus>(std::size_t{1} << 22, metrics,
                                                  std::make_shared<core::work_tracker>());
  auto counter = std::make_shared<round_counter>();
  auto sink = sys.spawn(consumer, counter);
  bus->subscribe(std::string(corpus_source), std::string(corpus_event_name), sink);
  auto dispatcher = sys.spawn(core::bus_dispatcher, bus);
  bool refused = false;
  run_rounds(state, *counter, [&](const core::event_ptr& e) {
    if (bus->publish(core::event(*e)) == core::publish_status::accepted)
      return;
    counter->seen(1);
    if (!std::exchange(refused, true))
      state.SkipWithError("the bus refused an event");
  });
  bus->close();
  caf::anon_send_exit(dispatcher, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(sink, caf::exit_reason::user_shutdown);
  sys.await_all_actors_done();
}

} // namespace

BENCHMARK(handoff_moodycamel_bulk)->Name("handoff/moodycamel_bulk")->Arg(16)->Arg(64)->Arg(512)
  ->UseRealTime();
BENCHMARK(handoff_caf_message_per_event)->Name("handoff/caf_message_per_event")->UseRealTime();
BENCHMARK(handoff_embedded_bus)->Name("handoff/embedded_bus")->UseRealTime();

} // namespace ganglion::bench
