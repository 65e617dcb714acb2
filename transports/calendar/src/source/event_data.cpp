#include "source/event_data.hpp"

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::calendar::detail {

std::optional<std::string> calendar_event_data(dsl::go_time_point tick,
                                               const std::string& time_zone,
                                               const std::map<std::string, std::string>& metadata) {
  auto time = dsl::go_time_string(tick, time_zone);
  if (!time)
    return std::nullopt;
  std::string out = R"({"eventTime":)";
  dsl::append_go_json_string(out, *time);
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

std::optional<dsl::go_time_point> event_time_of(const std::string& data) {
  auto json = nlohmann::json::parse(data, nullptr, false);
  if (!json.is_object() || !json.contains("eventTime") || !json["eventTime"].is_string())
    return std::nullopt;
  return dsl::parse_go_time_string(json["eventTime"].get<std::string>());
}

} // namespace ganglion::calendar::detail
