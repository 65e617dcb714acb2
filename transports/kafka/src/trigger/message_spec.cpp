#include "trigger/message_spec.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ganglion::kafka::detail {

message_fields fields_of(const trigger_spec& spec) {
  return message_fields{spec.topic, spec.partitioning_key, spec.partition, spec.headers};
}

message_fields read_message_fields(const std::string& kafka_json) {
  auto kafka = nlohmann::json::parse(kafka_json, nullptr, false);
  if (!kafka.is_object())
    throw std::runtime_error("the kafka trigger spec is not a JSON object");
  message_fields out;
  auto string_field = [&](const char* name) -> std::string {
    auto i = kafka.find(name);
    if (i == kafka.end() || i->is_null())
      return {};
    if (!i->is_string())
      throw std::runtime_error(fmt::format("kafka.{} must be a string, not {}", name, i->dump()));
    return i->get<std::string>();
  };
  out.topic = string_field("topic");
  out.key = string_field("partitioningKey");
  if (auto i = kafka.find("partition"); i != kafka.end() && !i->is_null()) {
    if (!i->is_number_integer())
      throw std::runtime_error(
        fmt::format("kafka.partition must be an integer, not {}", i->dump()));
    out.partition = i->get<std::int32_t>();
  }
  if (auto i = kafka.find("headers"); i != kafka.end() && !i->is_null()) {
    if (!i->is_object())
      throw std::runtime_error(fmt::format("kafka.headers must be an object, not {}", i->dump()));
    for (const auto& [name, value] : i->items()) {
      if (!value.is_string())
        throw std::runtime_error(
          fmt::format("kafka.headers.{} must be a string, not {}", name, value.dump()));
      out.headers.emplace(name, value.get<std::string>());
    }
  }
  return out;
}

message make_message(message_fields fields,
                     const std::vector<std::pair<std::string, std::string>>& secure_headers,
                     std::string payload) {
  if (fields.topic.empty())
    throw std::runtime_error("kafka trigger topic can't be empty");
  if (fields.partition && *fields.partition < 0)
    throw std::runtime_error(
      fmt::format("kafka trigger partition can't be negative, got {}", *fields.partition));
  message m;
  for (const auto& header : fields.headers)
    m.headers.push_back(header);
  for (const auto& header : secure_headers)
    m.headers.push_back(header);
  m.fields = std::move(fields);
  m.payload = std::move(payload);
  return m;
}

std::string describe(const message& m, std::size_t secure_count) {
  auto out = fmt::format("kafka {} partition {}\n", m.fields.topic,
                         m.fields.partition ? std::to_string(*m.fields.partition) : "any");
  out += fmt::format("key: {}\n", m.fields.key.empty() ? "(none)" : m.fields.key);
  std::size_t plain = m.headers.size() - secure_count;
  for (std::size_t i = 0; i < m.headers.size(); ++i)
    out += fmt::format("{}: {}\n", m.headers[i].first, i < plain ? m.headers[i].second : "***");
  out += "\n";
  out += m.payload;
  return out;
}

} // namespace ganglion::kafka::detail
