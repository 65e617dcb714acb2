#include "ganglion/kafka/kafka_source.hpp"

#include "ganglion/kafka/spec.hpp"

#include <charconv>

#include <fmt/format.h>

#include "client/client_config.hpp"
#include "source/consumer_loop.hpp"
#include "ganglion/core/kind_check.hpp"

namespace ganglion::kafka {

namespace {

using detail::client_settings;
using detail::consumer_loop;

void on_rebalance(rd_kafka_t*, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* list,
                  void* opaque) {
  if (auto* loop = static_cast<consumer_loop*>(detail::user_of(opaque)))
    loop->on_rebalance(err, list);
}

void on_commit(rd_kafka_t*, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t*,
               void* opaque) {
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR__NO_OFFSET && opaque)
    static_cast<detail::client_hooks*>(opaque)->log.warn(
      fmt::format("cannot commit offsets: {}", rd_kafka_err2str(err)));
}

/// librdkafka's partition.assignment.strategy for Argo's `rebalanceStrategy`.
std::string assignment_strategy(const std::string& rebalance) {
  if (rebalance == "sticky")
    return "cooperative-sticky";
  if (rebalance == "roundrobin")
    return "roundrobin";
  return "range"; // Argo's default, also for an unknown value
}

std::int32_t parse_partition(const std::string& text) {
  std::int32_t value = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || value < 0)
    throw core::source_error(
      fmt::format("kafka partition '{}' is not a partition number", text));
  return value;
}

/// The consumer's librdkafka properties before the spec's own `config`.
std::map<std::string, std::string> consumer_properties(const core::source_context& ctx,
                                                       const event_spec& spec) {
  std::map<std::string, std::string> props{{"enable.auto.commit", "false"},
                                           {"enable.auto.offset.store", "false"}};
  if (spec.consumer_group) {
    props["group.id"] = spec.consumer_group->group_name;
    props["auto.offset.reset"] = spec.consumer_group->oldest ? "earliest" : "latest";
    props["partition.assignment.strategy"] =
      assignment_strategy(spec.consumer_group->rebalance_strategy);
  } else {
    // The group only stores this source's offsets (no subscription, no rebalance).
    props["group.id"] = fmt::format("ganglion-{}-{}", ctx.event_source_name, ctx.event_name);
    props["auto.offset.reset"] = "latest";
  }
  for (const auto& [name, value] : spec.config)
    props[name] = value;
  return props;
}

/// A running kafka source: its consumer loop.
class kafka_source final : public core::source {
public:
  explicit kafka_source(std::unique_ptr<consumer_loop> loop) : loop_(std::move(loop)) {}

private:
  std::unique_ptr<consumer_loop> loop_;
};

std::unique_ptr<core::source> start(const source_options& options,
                                    const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  if (!ctx.bus)
    throw core::source_error("kafka source started without a bus");

  detail::consumer_spec run;
  run.event_source = ctx.event_source_name;
  run.event_name = ctx.event_name;
  run.url = spec.url;
  run.topic = spec.topic;
  run.json_body = spec.json_body;
  run.metadata = spec.metadata;
  run.limit_per_second = static_cast<double>(spec.limit_events_per_second);
  if (!spec.consumer_group)
    run.partition = parse_partition(spec.partition);

  client_settings settings;
  settings.name = fmt::format("eventsource {}/{}", ctx.event_source_name, ctx.event_name);
  settings.url = spec.url;
  settings.tls = spec.tls;
  settings.sasl = spec.sasl;
  settings.version = spec.version;
  settings.properties = consumer_properties(ctx, spec);

  auto loop = std::make_unique<consumer_loop>(
    std::move(run), ctx.bus,
    detail::source_metrics{ctx.metrics, ctx.event_source_name, ctx.event_name}, options);
  try {
    auto cfg = detail::make_client_config(settings, ctx.secrets.get());
    cfg.hooks->user = loop.get();
    rd_kafka_conf_set_rebalance_cb(cfg.conf.get(), on_rebalance);
    rd_kafka_conf_set_offset_commit_cb(cfg.conf.get(), on_commit);
    loop->start(detail::make_handle(RD_KAFKA_CONSUMER, std::move(cfg)));
  } catch (const detail::config_error& e) {
    throw core::source_error(fmt::format("kafka source {}/{}: {}", ctx.event_source_name,
                                         ctx.event_name, e.what()));
  }
  return std::make_unique<kafka_source>(std::move(loop));
}

} // namespace

std::vector<std::string> check_kafka_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const auto& spec) {
    std::vector<std::string> problems;
    if (spec.url.empty())
      problems.emplace_back("kafka url can't be empty");
    if (spec.topic.empty())
      problems.emplace_back("kafka topic can't be empty");
    if (spec.limit_events_per_second < 0)
      problems.push_back(fmt::format("kafka limitEventsPerSecond can't be negative, got {}",
                                     spec.limit_events_per_second));
    if (spec.consumer_group && spec.consumer_group->group_name.empty())
      problems.emplace_back("kafka consumerGroup.groupName can't be empty");
    if (!spec.consumer_group && spec.partition.empty())
      problems.emplace_back("kafka needs either consumerGroup or partition");
    if (!spec.consumer_group && !spec.partition.empty()) {
      try {
        parse_partition(spec.partition);
      } catch (const core::source_error& e) {
        problems.emplace_back(e.what());
      }
    }
    return problems;
  });
}

core::source_factory make_kafka_source_factory(source_options options) {
  return {[options](const core::source_context& ctx) { return start(options, ctx); },
          check_kafka_source, source_spec_step()};
}

} // namespace ganglion::kafka
