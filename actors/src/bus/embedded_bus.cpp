#include "bus/embedded_bus.hpp"

#include <algorithm>
#include <future>

#include "storage/event_log.hpp"
#include "runtime/messages.hpp"

namespace ganglion::core {

namespace {

/// What an event costs against the bus's byte capacity: its fields.
std::size_t event_bytes(const event& e) {
  return sizeof(event) + e.id.size() + e.source.size() + e.type.size() + e.subject.size()
         + e.time.size() + e.datacontenttype.size() + e.specversion.size() + e.data.size();
}

} // namespace

/// An accepted event, counted in the bus's live events until the last holder lets go.
struct embedded_bus::live_event {
  live_event(event&& accepted, std::size_t size, std::shared_ptr<live_counts> counts)
    : e(std::move(accepted)), bytes(size), live(std::move(counts)) {}
  ~live_event() { live->release(bytes); }
  live_event(const live_event&) = delete;
  live_event& operator=(const live_event&) = delete;

  event e;
  std::size_t bytes;
  std::shared_ptr<live_counts> live;
};

embedded_bus::embedded_bus(std::size_t capacity, metrics_registry& metrics,
                           std::shared_ptr<work_tracker> work, std::shared_ptr<event_log> log,
                           std::size_t byte_capacity)
  : capacity_(capacity), byte_capacity_(byte_capacity), live_(std::make_shared<live_counts>()),
    work_(std::move(work)), log_(std::move(log)),
    accepted_(metrics.get_counter("ganglion_bus_events_total", "Events offered to the bus",
                                  {{"result", "accepted"}})),
    saturated_(metrics.get_counter("ganglion_bus_events_total", "Events offered to the bus",
                                   {{"result", "saturated"}})),
    failed_(metrics.get_counter("ganglion_bus_events_total", "Events offered to the bus",
                                {{"result", "failed"}})),
    unrouted_(metrics.get_counter("ganglion_bus_events_unrouted_total",
                                  "Accepted events that no sensor dependency listens to", {})) {}

void embedded_bus::publish(event&& e, publish_done done) {
  if (closed_.load(std::memory_order_relaxed)) {
    done(publish_status::stopped, {});
    return;
  }
  const auto bytes = event_bytes(e);
  if (!admit(bytes)) {
    saturated_.inc();
    done(publish_status::saturated, {});
    return;
  }
  if (!log_) {
    e.sequence = next_sequence_.fetch_add(1, std::memory_order_relaxed) + 1;
    enqueue(std::move(e), bytes);
    done(publish_status::accepted, {});
    return;
  }
  // The log's writer thread assigns the sequence, in append order, and calls back once the
  // record is durable under the fsync policy.
  log_->append(std::move(e),
               [this, bytes, done = std::move(done)](event&& stored, const std::string* error) {
                 if (error) {
                   live_->release(bytes);
                   failed_.inc();
                   done(publish_status::failed, *error);
                   return;
                 }
                 enqueue(std::move(stored), bytes);
                 done(publish_status::accepted, {});
               });
}

publish_status embedded_bus::publish(event&& e) {
  std::promise<publish_status> outcome;
  auto result = outcome.get_future();
  publish(std::move(e),
          [&](publish_status status, const std::string&) { outcome.set_value(status); });
  return result.get();
}

bool embedded_bus::admit(std::size_t bytes) {
  if (live_->events.fetch_add(1, std::memory_order_acq_rel) >= capacity_) {
    live_->events.fetch_sub(1, std::memory_order_acq_rel);
    return false;
  }
  // An event larger than the whole byte capacity still gets through an empty bus, so that it
  // is refused for a while, not for ever.
  auto before = live_->bytes.fetch_add(bytes, std::memory_order_acq_rel);
  if (before > 0 && before + bytes > byte_capacity_) {
    live_->release(bytes);
    return false;
  }
  return true;
}

void embedded_bus::enqueue(event&& e, std::size_t bytes) {
  auto sequence = e.sequence;
  // One allocation holds the event, its counts in `live_` and the shared_ptr control block.
  auto held = std::make_shared<live_event>(std::move(e), bytes, live_);
  event_ptr ptr{held, &held->e};
  work_->add();
  queue_.enqueue({sequence, std::move(ptr)});
  accepted_.inc();
  if (!wake_pending_.exchange(true, std::memory_order_acq_rel)) {
    std::lock_guard guard{mutex_};
    if (dispatcher_)
      caf::anon_send(dispatcher_, drain_atom::value);
  }
}

void embedded_bus::set_dispatcher(caf::actor dispatcher) {
  std::lock_guard guard{mutex_};
  dispatcher_ = std::move(dispatcher);
  if (dispatcher_)
    caf::anon_send(dispatcher_, drain_atom::value);
}

void embedded_bus::subscribe(const std::string& source, const std::string& subject,
                             caf::actor subscriber) {
  std::lock_guard guard{mutex_};
  auto& list = routes_.at_or_add(source, subject);
  if (std::find(list.begin(), list.end(), subscriber) == list.end())
    list.push_back(std::move(subscriber));
}

void embedded_bus::track(const caf::actor& subscriber, std::shared_ptr<sensor_backlog> backlog) {
  std::lock_guard guard{mutex_};
  backlogs_[subscriber] = std::move(backlog);
}

void embedded_bus::unsubscribe(const caf::actor_addr& subscriber) {
  std::lock_guard guard{mutex_};
  routes_.erase_if([&](const caf::actor& a) { return a.address() == subscriber; });
  std::erase_if(backlogs_, [&](const auto& b) { return b.first.address() == subscriber; });
}

void embedded_bus::unsubscribe(const std::string& source, const std::string& subject,
                               const caf::actor_addr& subscriber) {
  std::lock_guard guard{mutex_};
  auto& list = routes_.at_or_add(source, subject);
  std::erase_if(list, [&](const caf::actor& a) { return a.address() == subscriber; });
}

void embedded_bus::drain(caf::event_based_actor* self) {
  wake_pending_.store(false, std::memory_order_release);
  // Each producer thread has a sub-queue of its own, so a bulk dequeue may return a later
  // publish before an earlier one. Take everything present, then restore publish order: an
  // event accepted before another was published reaches every sensor first.
  constexpr std::size_t bulk = 512;
  for (;;) {
    auto taken = drained_.size();
    drained_.resize(taken + bulk);
    auto n = queue_.try_dequeue_bulk(drained_.begin() + static_cast<std::ptrdiff_t>(taken), bulk);
    drained_.resize(taken + n);
    if (n < bulk)
      break;
  }
  if (drained_.empty())
    return;
  std::sort(drained_.begin(), drained_.end(),
            [](const sequenced_event& a, const sequenced_event& b) {
              return a.sequence < b.sequence;
            });
  std::unordered_map<caf::actor, event_batch> batches;
  {
    // Routes change only when sensors start or stop; one lock per drain.
    std::lock_guard guard{mutex_};
    for (auto& item : drained_) {
      const auto* subscribers = routes_.find(item.event->source, item.event->subject);
      if (!subscribers) {
        unrouted_.inc();
      } else {
        work_->add(static_cast<std::int64_t>(subscribers->size()));
        for (const auto& subscriber : *subscribers)
          batches[subscriber].events.push_back(item.event);
      }
      work_->done();
      item.event.reset();
    }
    auto now = sensor_backlog::clock::now();
    for (auto& [subscriber, batch] : batches)
      if (auto it = backlogs_.find(subscriber); it != backlogs_.end())
        batch.waiting = it->second->enter(batch.events.size(), now);
  }
  drained_.clear();
  for (auto& [subscriber, batch] : batches) {
    batch.ticket =
      std::make_shared<work_ticket>(work_, static_cast<std::int64_t>(batch.events.size()));
    self->send(subscriber, std::move(batch));
  }
}

caf::behavior bus_dispatcher(caf::event_based_actor* self, std::shared_ptr<embedded_bus> bus) {
  bus->set_dispatcher(caf::actor_cast<caf::actor>(self));
  return {
    [=](drain_atom) { bus->drain(self); },
  };
}

} // namespace ganglion::core
