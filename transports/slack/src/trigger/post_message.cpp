#include "trigger/post_message.hpp"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::slack::detail {

namespace {

std::string text_at(const nlohmann::json& object, const char* key, const std::string& fallback) {
  auto it = object.find(key);
  if (it == object.end())
    return fallback;
  return it->is_string() ? it->get<std::string>() : std::string{};
}

/// A JSON array given as text, compacted as Go's json.Compact does; "[]" when empty.
std::string json_array(const std::string& text, const char* what) {
  if (text.empty())
    return "[]";
  std::string out;
  std::string error;
  if (!dsl::append_go_json_raw(out, text, error))
    throw std::runtime_error("failed to unmarshal " + std::string{what} + " '" + text
                             + "' : " + error);
  if (out.front() != '[')
    throw std::runtime_error("failed to unmarshal " + std::string{what} + " '" + text
                             + "' : not a JSON array");
  return out;
}

bool is_icon_emoji(std::string_view icon) {
  return icon.size() >= 3 && icon.front() == ':' && icon.back() == ':'
         && icon.substr(1, icon.size() - 2).find('\n') == std::string_view::npos;
}

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size()
         && std::equal(prefix.begin(), prefix.end(), text.begin(),
                       [](char a, char b) { return a == std::tolower(b); });
}

} // namespace

trigger_spec fields_from_json(std::string_view resource_json, const trigger_spec& fallback) {
  auto object = nlohmann::json::parse(resource_json, nullptr, false);
  if (!object.is_object())
    throw std::runtime_error("the slack trigger after its parameters is not a JSON object");
  trigger_spec out = fallback;
  out.channel = text_at(object, "channel", fallback.channel);
  out.message = text_at(object, "message", fallback.message);
  out.attachments = text_at(object, "attachments", fallback.attachments);
  out.blocks = text_at(object, "blocks", fallback.blocks);
  out.thread = {};
  if (auto t = object.find("thread"); t != object.end() && t->is_object()) {
    out.thread.message_aggregation_key = text_at(*t, "messageAggregationKey", {});
    auto b = t->find("broadcastMessageToChannel");
    out.thread.broadcast_message_to_channel = b != t->end() && b->is_boolean() && b->get<bool>();
  }
  out.sender = {};
  if (auto s = object.find("sender"); s != object.end() && s->is_object()) {
    out.sender.username = text_at(*s, "username", {});
    out.sender.icon = text_at(*s, "icon", {});
  }
  return out;
}

std::string recipient_of(const trigger_spec& fields) {
  if (fields.channel.empty())
    throw std::runtime_error("no slack channel provided");
  std::string_view channel = fields.channel;
  if (channel.front() == '#')
    channel.remove_prefix(1);
  return std::string{channel};
}

bool is_icon_url(std::string_view icon) {
  std::string_view rest;
  if (starts_with_nocase(icon, "https://"))
    rest = icon.substr(8);
  else if (starts_with_nocase(icon, "http://"))
    rest = icon.substr(7);
  else
    return false;
  if (std::any_of(icon.begin(), icon.end(), [](unsigned char c) { return c <= 0x20 || c == 0x7f; }))
    return false;
  auto host = rest.substr(0, rest.find_first_of("/?#"));
  return !host.empty() && host.front() != '@';
}

std::map<std::string, std::string> post_message_form(const trigger_spec& fields,
                                                     const std::string& recipient,
                                                     const std::string& thread_ts) {
  if (fields.message.empty() && fields.attachments.empty() && fields.blocks.empty())
    throw std::runtime_error(
      "no text to post: At least one of message/attachments/blocks should be provided");
  std::map<std::string, std::string> form{{"channel", recipient}, {"text", fields.message}};
  if (!fields.sender.username.empty())
    form["username"] = fields.sender.username;
  const auto& icon = fields.sender.icon;
  if (is_icon_emoji(icon))
    form["icon_emoji"] = icon;
  else if (is_icon_url(icon))
    form["icon_url"] = icon;
  form["attachments"] = json_array(fields.attachments, "attachments");
  form["blocks"] = json_array(fields.blocks, "blocks");
  if (!fields.thread.message_aggregation_key.empty() && !thread_ts.empty())
    form["thread_ts"] = thread_ts;
  if (fields.thread.broadcast_message_to_channel)
    form["reply_broadcast"] = "true";
  return form;
}

} // namespace ganglion::slack::detail
