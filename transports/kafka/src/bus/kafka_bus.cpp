#include "ganglion/kafka/kafka_bus.hpp"

#include <cstdlib>
#include <cstring>
#include <shared_mutex>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "ganglion/core/event_codec.hpp"
#include "bus/kafka_bus_acks.hpp"
#include "client/kafka_bus_admin.hpp"
#include "bus/kafka_bus_config.hpp"
#include "bus/kafka_bus_producer.hpp"
#include "bus/kafka_bus_subscription.hpp"
#include "bus/kafka_owners.hpp"
#include "bus/kafka_state.hpp"

namespace ganglion::kafka {

namespace {

using namespace detail;

class publish_report final : public delivery {
public:
  explicit publish_report(core::publish_done done) : done_(std::move(done)) {}

  void delivered(rd_kafka_resp_err_t err, const char* reason) noexcept override {
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR)
      finish(core::publish_status::accepted, {});
    else if (is_purged(err))
      finish(core::publish_status::stopped, "the bus closed before the cluster stored the event");
    else
      finish(core::publish_status::failed, reason);
  }

  void finish(core::publish_status status, const std::string& error) noexcept {
    try {
      done_(status, error);
    } catch (const std::exception& ex) {
      spdlog::error("kafka bus: a publish callback threw: {}", ex.what());
    }
  }

private:
  core::publish_done done_;
};

class kafka_bus final : public core::remote_bus {
public:
  explicit kafka_bus(bus_settings settings)
    : settings_(std::make_shared<const bus_settings>(std::move(settings))), producer_(*settings_),
      state_(settings_, producer_), owners_(settings_, producer_) {}

  ~kafka_bus() override { close(std::chrono::milliseconds(0)); }

  std::string kind() const override { return "kafka"; }

  void publish(core::event&& e, core::publish_done done) override {
    publish_report report(std::move(done));
    std::shared_lock guard{closing_};
    if (closed_) {
      guard.unlock();
      report.finish(core::publish_status::stopped, "the bus is closed");
      return;
    }
    std::string key = e.source + "." + e.subject;
    std::string value;
    value.reserve(core::encoded_size(e));
    core::encode_event(e, value);
    std::unique_ptr<delivery> queued = std::make_unique<publish_report>(std::move(report));
    auto err = producer_.produce(producer_.events_topic(), key, &value, queued);
    guard.unlock();
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR)
      return;
    auto* failed = static_cast<publish_report*>(queued.get());
    if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL)
      failed->finish(core::publish_status::saturated, "the Kafka producer queue is full");
    else
      failed->finish(core::publish_status::failed, rd_kafka_err2str(err));
  }

  std::unique_ptr<core::remote_subscription> subscribe(
    const std::string& sensor, const std::vector<std::pair<std::string, std::string>>& sources,
    core::delivery_handler handler) override {
    auto partitions =
      partition_count(producer_.get(), settings_->topic, settings_->options.request_timeout);
    return std::make_unique<bus_subscription>(settings_, sensor, sources, std::move(handler),
                                              partitions);
  }

  void forget(const std::string& sensor) override;

  core::state_store& state() override { return state_; }
  core::ownership& owners() override { return owners_; }

  void close(std::chrono::milliseconds grace) override {
    {
      std::unique_lock guard{closing_};
      if (closed_)
        return;
      closed_ = true;
    }
    producer_.drain(grace);
  }

private:
  void mark_forgotten(const std::string& group, int partitions);

  std::shared_ptr<const bus_settings> settings_;
  bus_producer producer_;
  kafka_state state_;
  kafka_owners owners_;
  std::shared_mutex closing_; // publishes hold it shared; close() takes it to set closed_
  bool closed_ = false;
};

void kafka_bus::forget(const std::string& sensor) {
  auto timeout = settings_->options.request_timeout;
  auto group = settings_->group_of(sensor);
  auto partitions = partition_count(producer_.get(), settings_->topic, timeout);
  // The marker makes a later subscription of the same name start at the end even where the
  // group cannot be deleted; deleting the group removes the marker too.
  mark_forgotten(group, partitions);
  if (admin_supported(producer_.get(), timeout))
    delete_group(producer_.get(), group, timeout);
  else
    spdlog::debug("kafka bus: the cluster cannot delete groups; group {} is marked forgotten",
                  group);
}

void kafka_bus::mark_forgotten(const std::string& group, int partitions) {
  auto timeout = settings_->options.request_timeout;
  auto cfg = settings_->client("forget");
  set_property(cfg, "group.id", group); // commits without joining
  set_property(cfg, "enable.auto.commit", "false");
  quiet_connection_errors(cfg);
  auto consumer = make_handle(RD_KAFKA_CONSUMER, std::move(cfg));
  auto ends = end_offsets(consumer.get(), settings_->topic, partitions, timeout);
  auto* list = rd_kafka_topic_partition_list_new(partitions);
  for (int p = 0; p < partitions; ++p) {
    auto* tp = rd_kafka_topic_partition_list_add(list, settings_->topic.c_str(), p);
    tp->offset = ends[static_cast<std::size_t>(p)];
    tp->metadata = std::malloc(forgotten_marker.size()); // freed by the list
    std::memcpy(tp->metadata, forgotten_marker.data(), forgotten_marker.size());
    tp->metadata_size = forgotten_marker.size();
  }
  auto error = commit_and_wait(consumer.get(), list, timeout);
  rd_kafka_topic_partition_list_destroy(list);
  close_consumer(consumer.get());
  if (!error.empty())
    throw std::runtime_error(
      fmt::format("kafka bus: forgetting consumer group {}: {}", group, error));
}

} // namespace

std::shared_ptr<core::remote_bus> make_kafka_bus(const bus_spec& spec,
                                                 std::shared_ptr<const core::secret_store> secrets,
                                                 kafka_bus_options options) {
  auto settings = make_bus_settings(spec, std::move(secrets), std::move(options));
  return std::make_shared<kafka_bus>(std::move(settings));
}

} // namespace ganglion::kafka
