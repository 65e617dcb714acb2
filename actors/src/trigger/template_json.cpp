#include "trigger/template_json.hpp"

#include <nlohmann/json.hpp>

namespace ganglion::core {

namespace {

nlohmann::json http_json(const dsl::http_trigger& h) {
  nlohmann::json http{{"url", h.url},
                      {"method", h.method},
                      {"headers", h.headers},
                      {"timeout", h.timeout_seconds}};
  if (!h.host.empty())
    http["host"] = h.host;
  return http;
}

nlohmann::json kafka_json(const dsl::kafka_trigger& k) {
  nlohmann::json kafka{{"url", k.url},
                       {"topic", k.topic},
                       {"requiredAcks", k.required_acks},
                       {"compress", k.compress},
                       {"flushFrequency", k.flush_frequency_ms},
                       {"headers", k.headers}};
  if (k.partition)
    kafka["partition"] = *k.partition;
  if (!k.partitioning_key.empty())
    kafka["partitioningKey"] = k.partitioning_key;
  if (!k.version.empty())
    kafka["version"] = k.version;
  return kafka;
}

} // namespace

std::string template_json(const dsl::trigger_template& t) {
  if (!t.json.empty())
    return t.json;
  nlohmann::json out{{"name", t.name}, {"conditions", t.conditions}};
  if (t.http)
    out["http"] = http_json(*t.http);
  else if (t.kafka)
    out["kafka"] = kafka_json(*t.kafka);
  else if (t.nats)
    out["nats"] = nlohmann::json{{"url", t.nats->url}, {"subject", t.nats->subject}};
  return out.dump();
}

} // namespace ganglion::core
