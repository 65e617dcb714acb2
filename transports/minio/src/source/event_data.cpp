#include "source/event_data.hpp"

#include <strings.h>

#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::minio::detail {

namespace {

using json = nlohmann::json;

/// Go's decoder: the exact key, else one equal to `name` ignoring ASCII case.
const json* field(const json& object, std::string_view name) {
  if (!object.is_object())
    return nullptr;
  if (auto i = object.find(std::string{name}); i != object.end())
    return &*i;
  for (const auto& [key, value] : object.items())
    if (key.size() == name.size() && ::strncasecmp(key.data(), name.data(), name.size()) == 0)
      return &value;
  return nullptr;
}

[[noreturn]] void fail(std::string_view what, const json& value) {
  throw std::runtime_error(fmt::format("{} cannot be {}", what, value.dump()));
}

std::string text(const json& object, std::string_view name) {
  const auto* value = field(object, name);
  if (value == nullptr || value->is_null())
    return {};
  if (!value->is_string())
    fail(name, *value);
  return value->get<std::string>();
}

const json& object_at(const json& object, std::string_view name) {
  static const json empty = json::object();
  const auto* value = field(object, name);
  if (value == nullptr || value->is_null())
    return empty;
  if (!value->is_object())
    fail(name, *value);
  return *value;
}

/// A map[string]string field: nullopt for Go's nil map.
std::optional<std::map<std::string, std::string>> string_map(const json& object,
                                                             std::string_view name) {
  const auto* value = field(object, name);
  if (value == nullptr || value->is_null())
    return std::nullopt;
  if (!value->is_object())
    fail(name, *value);
  std::map<std::string, std::string> out;
  for (const auto& [key, item] : value->items()) {
    if (!item.is_null() && !item.is_string())
      fail(fmt::format("{}.{}", name, key), item);
    out[key] = item.is_string() ? item.get<std::string>() : std::string{};
  }
  return out;
}

void append_text(std::string& out, std::string_view name, const std::string& value,
                 bool first = false) {
  out += first ? "\"" : ",\"";
  out += name;
  out += "\":";
  dsl::append_go_json_string(out, value);
}

void append_identity(std::string& out, std::string_view name, const json& parent) {
  out += ",\"";
  out += name;
  out += "\":{";
  append_text(out, "principalId", text(object_at(parent, name), "principalId"), true);
  out += '}';
}

void append_map(std::string& out, std::string_view name,
                const std::optional<std::map<std::string, std::string>>& map) {
  out += ",\"";
  out += name;
  out += "\":";
  if (map)
    dsl::append_go_json_object(out, *map);
  else
    out += "null";
}

void append_object_meta(std::string& out, const json& object) {
  out += R"(,"object":{)";
  append_text(out, "key", text(object, "key"), true);
  if (const auto* size = field(object, "size"); size != nullptr && !size->is_null()) {
    if (!size->is_number_integer())
      fail("size", *size);
    if (auto n = size->get<std::int64_t>(); n != 0)
      out += fmt::format(R"(,"size":{})", n);
  }
  for (const char* name : {"eTag", "contentType"})
    if (auto value = text(object, name); !value.empty())
      append_text(out, name, value);
  if (auto user = string_map(object, "userMetadata"); user && !user->empty())
    append_map(out, "userMetadata", user);
  if (auto value = text(object, "versionId"); !value.empty())
    append_text(out, "versionId", value);
  append_text(out, "sequencer", text(object, "sequencer"));
  out += '}';
}

void append_record(std::string& out, const json& r) {
  if (!r.is_null() && !r.is_object())
    fail("a record", r);
  out += '{';
  append_text(out, "eventVersion", text(r, "eventVersion"), true);
  for (const char* name : {"eventSource", "awsRegion", "eventTime", "eventName"})
    append_text(out, name, text(r, name));
  append_identity(out, "userIdentity", r);
  append_map(out, "requestParameters", string_map(r, "requestParameters"));
  append_map(out, "responseElements", string_map(r, "responseElements"));
  const auto& s3 = object_at(r, "s3");
  out += R"(,"s3":{)";
  append_text(out, "s3SchemaVersion", text(s3, "s3SchemaVersion"), true);
  append_text(out, "configurationId", text(s3, "configurationId"));
  const auto& bucket = object_at(s3, "bucket");
  out += R"(,"bucket":{)";
  append_text(out, "name", text(bucket, "name"), true);
  append_identity(out, "ownerIdentity", bucket);
  append_text(out, "arn", text(bucket, "arn"));
  out += '}';
  append_object_meta(out, object_at(s3, "object"));
  out += '}';
  const auto& source = object_at(r, "source");
  out += R"(,"source":{)";
  append_text(out, "host", text(source, "host"), true);
  append_text(out, "port", text(source, "port"));
  append_text(out, "userAgent", text(source, "userAgent"));
  out += "}}";
}

} // namespace

std::optional<std::string> minio_event_data(std::string_view line,
                                            const std::map<std::string, std::string>& metadata) {
  auto start = line.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos)
    return std::nullopt;
  auto info = json::parse(line.substr(start), nullptr, false);
  if (info.is_discarded())
    throw std::runtime_error("the line is not JSON");
  if (!info.is_object())
    fail("a notification", info);
  const auto* records = field(info, "Records");
  if (records == nullptr || records->is_null() || (records->is_array() && records->empty()))
    return std::nullopt;
  if (!records->is_array())
    fail("Records", *records);
  std::string out = R"({"notification":[)";
  bool first = true;
  for (const auto& r : *records) {
    if (!first)
      out += ',';
    first = false;
    append_record(out, r);
  }
  out += ']';
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace ganglion::minio::detail
