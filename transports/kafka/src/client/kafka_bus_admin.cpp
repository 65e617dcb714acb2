#include "client/kafka_bus_admin.hpp"

#include <memory>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

namespace ganglion::kafka::detail {

namespace {

using clock = std::chrono::steady_clock;

struct queue_deleter {
  void operator()(rd_kafka_queue_t* q) const noexcept { rd_kafka_queue_destroy(q); }
};
struct event_deleter {
  void operator()(rd_kafka_event_t* e) const noexcept { rd_kafka_event_destroy(e); }
};
struct options_deleter {
  void operator()(rd_kafka_AdminOptions_t* o) const noexcept { rd_kafka_AdminOptions_destroy(o); }
};
struct list_deleter {
  void operator()(rd_kafka_topic_partition_list_t* l) const noexcept {
    rd_kafka_topic_partition_list_destroy(l);
  }
};
using queue_ptr = std::unique_ptr<rd_kafka_queue_t, queue_deleter>;
using event_ptr = std::unique_ptr<rd_kafka_event_t, event_deleter>;
using options_ptr = std::unique_ptr<rd_kafka_AdminOptions_t, options_deleter>;

int remaining_ms(clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
  return static_cast<int>(std::max<std::int64_t>(left.count(), 1));
}

options_ptr admin_options(rd_kafka_t* rk, rd_kafka_admin_op_t op,
                          std::chrono::milliseconds timeout) {
  options_ptr options{rd_kafka_AdminOptions_new(rk, op)};
  char error[256];
  rd_kafka_AdminOptions_set_request_timeout(options.get(), static_cast<int>(timeout.count()),
                                            error, sizeof error);
  rd_kafka_AdminOptions_set_operation_timeout(options.get(), static_cast<int>(timeout.count()),
                                              error, sizeof error);
  return options;
}

/// The admin result event on `queue`; throws when none comes in time or it carries an error.
event_ptr wait_result(rd_kafka_queue_t* queue, std::chrono::milliseconds timeout,
                      const std::string& what) {
  // The request times out on its own within `timeout`; the extra second covers the delivery.
  event_ptr ev{rd_kafka_queue_poll(queue, static_cast<int>(timeout.count()) + 1000)};
  if (!ev)
    throw std::runtime_error(fmt::format("kafka bus: {}: no answer from the cluster", what));
  if (rd_kafka_event_error(ev.get()) != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error(
      fmt::format("kafka bus: {}: {}", what, rd_kafka_event_error_string(ev.get())));
  return ev;
}

} // namespace

int partition_count(rd_kafka_t* rk, const std::string& topic, std::chrono::milliseconds timeout) {
  auto deadline = clock::now() + timeout;
  std::string last = "no answer from the cluster";
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
  if (rkt == nullptr)
    throw std::runtime_error(fmt::format("kafka bus: topic {}: {}", topic,
                                         rd_kafka_err2str(rd_kafka_last_error())));
  std::unique_ptr<rd_kafka_topic_t, void (*)(rd_kafka_topic_t*)> guard{rkt, rd_kafka_topic_destroy};
  auto backoff = std::chrono::milliseconds(50);
  while (true) {
    const rd_kafka_metadata_t* md = nullptr;
    auto err = rd_kafka_metadata(rk, 0, rkt, &md, remaining_ms(deadline));
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      int count = 0;
      auto topic_err = RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART;
      for (int i = 0; i < md->topic_cnt; ++i)
        if (topic == md->topics[i].topic) {
          topic_err = md->topics[i].err;
          count = md->topics[i].partition_cnt;
        }
      rd_kafka_metadata_destroy(md);
      if (topic_err == RD_KAFKA_RESP_ERR_NO_ERROR && count > 0)
        return count;
      last = rd_kafka_err2str(topic_err);
    } else {
      last = rd_kafka_err2str(err);
    }
    if (clock::now() + backoff >= deadline)
      throw std::runtime_error(fmt::format("kafka bus: topic {}: {}", topic, last));
    std::this_thread::sleep_for(backoff);
    backoff = std::min(backoff * 2, std::chrono::milliseconds(1000));
  }
}

bool admin_supported(rd_kafka_t* rk, std::chrono::milliseconds timeout) {
  // DescribeGroups (Kafka 0.9) answers at once with "not supported" where the broker lacks it.
  const rd_kafka_group_list* groups = nullptr;
  auto err = rd_kafka_list_groups(rk, "ganglion-probe", &groups, static_cast<int>(timeout.count()));
  if (groups != nullptr)
    rd_kafka_group_list_destroy(groups);
  if (err == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE)
    return false;
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error(
      fmt::format("kafka bus: cannot reach the cluster: {}", rd_kafka_err2str(err)));
  return true;
}

void create_topic(rd_kafka_t* rk, const std::string& topic, int partitions,
                  const std::map<std::string, std::string>& configs,
                  std::chrono::milliseconds timeout) {
  char error[512];
  rd_kafka_NewTopic_t* spec =
    rd_kafka_NewTopic_new(topic.c_str(), partitions, -1, error, sizeof error);
  if (spec == nullptr)
    throw std::runtime_error(fmt::format("kafka bus: topic {}: {}", topic, error));
  std::unique_ptr<rd_kafka_NewTopic_t, void (*)(rd_kafka_NewTopic_t*)> guard{
    spec, rd_kafka_NewTopic_destroy};
  for (const auto& [name, value] : configs)
    rd_kafka_NewTopic_set_config(spec, name.c_str(), value.c_str());
  queue_ptr queue{rd_kafka_queue_new(rk)};
  auto options = admin_options(rk, RD_KAFKA_ADMIN_OP_CREATETOPICS, timeout);
  rd_kafka_CreateTopics(rk, &spec, 1, options.get(), queue.get());
  auto what = fmt::format("creating topic {}", topic);
  auto ev = wait_result(queue.get(), timeout, what);
  std::size_t count = 0;
  const auto** results =
    rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &count);
  for (std::size_t i = 0; i < count; ++i) {
    auto err = rd_kafka_topic_result_error(results[i]);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
      throw std::runtime_error(
        fmt::format("kafka bus: {}: {}", what, rd_kafka_topic_result_error_string(results[i])));
  }
}

void delete_group(rd_kafka_t* rk, const std::string& group, std::chrono::milliseconds timeout) {
  rd_kafka_DeleteGroup_t* spec = rd_kafka_DeleteGroup_new(group.c_str());
  std::unique_ptr<rd_kafka_DeleteGroup_t, void (*)(rd_kafka_DeleteGroup_t*)> guard{
    spec, rd_kafka_DeleteGroup_destroy};
  queue_ptr queue{rd_kafka_queue_new(rk)};
  auto options = admin_options(rk, RD_KAFKA_ADMIN_OP_DELETEGROUPS, timeout);
  rd_kafka_DeleteGroups(rk, &spec, 1, options.get(), queue.get());
  auto what = fmt::format("deleting consumer group {}", group);
  auto ev = wait_result(queue.get(), timeout, what);
  std::size_t count = 0;
  const auto** results =
    rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev.get()), &count);
  for (std::size_t i = 0; i < count; ++i) {
    const rd_kafka_error_t* err = rd_kafka_group_result_error(results[i]);
    if (err == nullptr)
      continue;
    auto code = rd_kafka_error_code(err);
    if (code == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND)
      continue;
    throw std::runtime_error(fmt::format("kafka bus: {}: {}", what, rd_kafka_error_string(err)));
  }
}

std::vector<std::int64_t> end_offsets(rd_kafka_t* rk, const std::string& topic, int partitions,
                                      std::chrono::milliseconds timeout) {
  std::unique_ptr<rd_kafka_topic_partition_list_t, list_deleter> list{
    rd_kafka_topic_partition_list_new(partitions)};
  for (int p = 0; p < partitions; ++p)
    rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), p)->offset = RD_KAFKA_OFFSET_END;
  auto err = rd_kafka_offsets_for_times(rk, list.get(), static_cast<int>(timeout.count()));
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error(fmt::format("kafka bus: the end offsets of topic {}: {}", topic,
                                         rd_kafka_err2str(err)));
  std::vector<std::int64_t> ends(static_cast<std::size_t>(partitions), 0);
  for (int i = 0; i < list->cnt; ++i) {
    const auto& tp = list->elems[i];
    if (tp.err != RD_KAFKA_RESP_ERR_NO_ERROR || tp.offset < 0)
      throw std::runtime_error(fmt::format("kafka bus: the end offset of {}[{}]: {}", topic,
                                           tp.partition, rd_kafka_err2str(tp.err)));
    ends[static_cast<std::size_t>(tp.partition)] = tp.offset;
  }
  return ends;
}

std::string commit_and_wait(rd_kafka_t* rk, const rd_kafka_topic_partition_list_t* offsets,
                            std::chrono::milliseconds timeout) {
  queue_ptr queue{rd_kafka_queue_new(rk)};
  auto err = rd_kafka_commit_queue(rk, offsets, queue.get(), nullptr, nullptr);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    return rd_kafka_err2str(err);
  event_ptr ev{rd_kafka_queue_poll(queue.get(), static_cast<int>(timeout.count()))};
  if (!ev)
    return "no answer from the cluster";
  if (rd_kafka_event_error(ev.get()) != RD_KAFKA_RESP_ERR_NO_ERROR)
    return rd_kafka_event_error_string(ev.get());
  const auto* result = rd_kafka_event_topic_partition_list(ev.get());
  for (int i = 0; result && i < result->cnt; ++i)
    if (result->elems[i].err != RD_KAFKA_RESP_ERR_NO_ERROR)
      return fmt::format("{}[{}]: {}", result->elems[i].topic, result->elems[i].partition,
                         rd_kafka_err2str(result->elems[i].err));
  return {};
}

} // namespace ganglion::kafka::detail
