#include "ganglion/kafka/internal/producer_properties.hpp"

#include <spdlog/spdlog.h>

#include "client/client_config.hpp"

namespace ganglion::kafka::detail {

namespace {

bool has_snappy() {
  conf_ptr conf{rd_kafka_conf_new()};
  char features[512];
  std::size_t size = sizeof features;
  if (rd_kafka_conf_get(conf.get(), "builtin.features", features, &size) != RD_KAFKA_CONF_OK)
    return false;
  return std::string_view(features).find("snappy") != std::string_view::npos;
}

} // namespace

std::map<std::string, std::string> producer_properties(const trigger_spec& spec,
                                                       const trigger_options& options,
                                                       const std::string& client) {
  auto acks = spec.required_acks == 0 || spec.required_acks == -1
                ? std::string("all")
                : std::to_string(spec.required_acks);
  std::map<std::string, std::string> props{
    {"acks", acks},
    {"linger.ms", std::to_string(options.linger.count())},
    {"message.timeout.ms", std::to_string(options.message_timeout.count())}};
  if (spec.compress) {
    static const bool snappy = has_snappy();
    if (snappy)
      props["compression.codec"] = "snappy";
    else
      spdlog::warn("kafka {}: this librdkafka has no snappy; sending uncompressed", client);
  }
  return props;
}

} // namespace ganglion::kafka::detail
