#include "source/resource_event_data.hpp"

#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <simdjson.h>

namespace ganglion::kubernetes::detail {

namespace {

std::string minified(const std::string& object) {
  if (object.empty())
    return "null";
  auto buffer = std::make_unique<char[]>(object.size());
  std::size_t length = 0;
  if (simdjson::minify(object.data(), object.size(), buffer.get(), length) != simdjson::SUCCESS)
    throw std::invalid_argument("the object is not JSON");
  return std::string(buffer.get(), length);
}

std::string quoted(const std::string& text) {
  return nlohmann::json(text).dump();
}

} // namespace

std::string resource_event_data(const resource_change& change, const resource_event_spec& spec) {
  std::string out = "{\"type\":" + quoted(change.type);
  out += ",\"body\":" + minified(change.object);
  out += ",\"oldBody\":" + minified(change.old_object);
  out += ",\"group\":" + quoted(spec.group);
  out += ",\"version\":" + quoted(spec.version);
  out += ",\"resource\":" + quoted(spec.resource);
  if (!spec.metadata.empty())
    out += ",\"metadata\":" + nlohmann::json(spec.metadata).dump();
  out += '}';
  return out;
}

} // namespace ganglion::kubernetes::detail
