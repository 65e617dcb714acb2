#include "source/event_data.hpp"

#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::aws {

namespace {

std::string text_of(const nlohmann::json& object, const char* key) {
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string{};
}

/// A blob the JSON protocol sends as base64, as json.Marshal writes the []byte it decodes to.
void append_blob(std::string& out, const nlohmann::json& value) {
  auto decoded = dsl::base64_decode(value.is_string() ? value.get<std::string>() : "");
  dsl::append_go_json_bytes(out, decoded.bytes);
}

/// A list field: null when absent, else each item as `item` writes it.
template <class Item>
void append_list(std::string& out, const nlohmann::json& attribute, const char* key, Item item) {
  auto found = attribute.find(key);
  if (found == attribute.end() || !found->is_array()) {
    out += "null";
    return;
  }
  out += '[';
  for (std::size_t i = 0; i < found->size(); ++i) {
    if (i)
      out += ',';
    item(out, (*found)[i]);
  }
  out += ']';
}

void append_string_or_null(std::string& out, const nlohmann::json& attribute, const char* key) {
  auto found = attribute.find(key);
  if (found == attribute.end() || !found->is_string())
    out += "null";
  else
    dsl::append_go_json_string(out, found->get<std::string>());
}

/// One MessageAttributeValue, its fields in aws-sdk-go's order.
void append_attribute(std::string& out, const nlohmann::json& attribute) {
  static const nlohmann::json none = nlohmann::json::object();
  const auto& a = attribute.is_object() ? attribute : none;
  out += R"({"BinaryListValues":)";
  append_list(out, a, "BinaryListValues", append_blob);
  out += R"(,"BinaryValue":)";
  if (a.contains("BinaryValue") && a["BinaryValue"].is_string())
    append_blob(out, a["BinaryValue"]);
  else
    out += "null";
  out += R"(,"DataType":)";
  append_string_or_null(out, a, "DataType");
  out += R"(,"StringListValues":)";
  append_list(out, a, "StringListValues", [](std::string& o, const nlohmann::json& v) {
    if (v.is_string())
      dsl::append_go_json_string(o, v.get<std::string>());
    else
      o += "null";
  });
  out += R"(,"StringValue":)";
  append_string_or_null(out, a, "StringValue");
  out += '}';
}

} // namespace

std::optional<std::string> sqs_event_data(const nlohmann::json& message, bool json_body,
                                          const std::map<std::string, std::string>& metadata,
                                          std::string& error) {
  auto body = text_of(message, "Body");
  std::string out;
  out.reserve(body.size() * 4 / 3 + 128);
  out += R"({"messageId":)";
  dsl::append_go_json_string(out, text_of(message, "MessageId"));
  out += R"(,"messageAttributes":)";
  auto attributes = message.find("MessageAttributes");
  if (attributes == message.end() || !attributes->is_object()) {
    out += "null";
  } else {
    out += '{';
    bool first = true;
    for (const auto& [name, value] : attributes->items()) { // sorted, as Go sorts map keys
      if (!first)
        out += ',';
      first = false;
      dsl::append_go_json_string(out, name);
      out += ':';
      append_attribute(out, value);
    }
    out += '}';
  }
  out += R"(,"body":)";
  if (!json_body)
    dsl::append_go_json_bytes(out, body);
  else if (!dsl::append_go_json_body(out, body, "the message", error))
    return std::nullopt;
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace ganglion::aws
