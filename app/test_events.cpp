#include "test_events.hpp"

#include "ganglion/http/spec.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ganglion/http/webhook_event.hpp"

namespace ganglion::app {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in{path};
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void replace_all(std::string& text, std::string_view from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

/// `Name: value` → (Name, value), the value trimmed.
std::pair<std::string, std::string> parse_header(const std::string& text) {
  auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0 || text.find_first_of(" \t") < colon)
    throw std::runtime_error(fmt::format("--header '{}': expected 'Name: value'", text));
  auto value = text.substr(colon + 1);
  value.erase(0, value.find_first_not_of(" \t"));
  value.erase(value.find_last_not_of(" \t") + 1);
  return {text.substr(0, colon), value};
}

bool named(const std::string& header, std::string_view name) {
  return header.size() == name.size()
         && std::equal(header.begin(), header.end(), name.begin(), [](char a, char b) {
              return std::tolower(static_cast<unsigned char>(a)) == b;
            });
}

/// The `metadata` of webhook event `source`/`subject`; a warning on stderr when the manifests
/// have no such webhook.
std::map<std::string, std::string> webhook_metadata(const std::vector<dsl::document>& documents,
                                                    const std::string& source,
                                                    const std::string& subject) {
  for (const auto& doc : documents)
    if (auto es = std::get_if<dsl::event_source>(&doc.body); es && es->metadata.name == source)
      if (auto found = es->spec.find("webhook", subject))
        if (const auto* spec = std::any_cast<http::webhook_spec>(&found->spec))
          return spec->metadata;
  std::fprintf(stderr,
               "warning: the manifests have no webhook event %s/%s; the event is built as a "
               "webhook's without metadata\n",
               source.c_str(), subject.c_str());
  return {};
}

} // namespace

core::event read_event_file(const std::string& path) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::parse_error& ex) {
    throw std::runtime_error(fmt::format("{}: not valid JSON: {}", path, ex.what()));
  }
  if (!doc.is_object())
    throw std::runtime_error(path + ": expected a CloudEvent object");
  auto field = [&](const char* key, std::string fallback) {
    auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : fallback;
  };
  core::event e;
  e.source = field("source", "");
  e.subject = field("subject", "");
  if (e.source.empty() || e.subject.empty())
    throw std::runtime_error(path + ": \"source\" (EventSource name) and \"subject\" (event "
                                    "name) are required");
  e.id = field("id", core::new_event_id());
  e.type = field("type", "webhook");
  e.time = field("time", core::now_rfc3339());
  e.datacontenttype = field("datacontenttype", "application/json");
  e.specversion = field("specversion", "1.0");
  if (auto data = doc.find("data"); data != doc.end()) {
    bool json = e.datacontenttype == "application/json";
    e.data = !json && data->is_string() ? data->get<std::string>() : data->dump();
  }
  return e;
}

core::event read_body_event(const test_options& options,
                            const std::vector<dsl::document>& documents) {
  http::request req;
  req.method = "POST";
  req.body = read_file(options.body);
  // The load generator's placeholders, as in its first request.
  replace_all(req.body, "{{seq}}", "1");
  auto now = std::chrono::system_clock::now().time_since_epoch();
  replace_all(req.body, "{{send_ns}}",
              std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()));
  bool has_type = false;
  bool has_length = false;
  for (const auto& text : options.headers) {
    auto header = parse_header(text);
    has_type = has_type || named(header.first, "content-type");
    has_length = has_length || named(header.first, "content-length");
    req.headers.push_back(std::move(header));
  }
  if (!has_type)
    req.headers.emplace_back("Content-Type", "application/json");
  if (!has_length)
    req.headers.emplace_back("Content-Length", std::to_string(req.body.size()));
  std::string error;
  auto e = http::webhook_event(options.source, options.subject, req,
                               webhook_metadata(documents, options.source, options.subject),
                               error);
  if (!e)
    throw std::runtime_error(fmt::format("{}: the webhook would answer 400: the request body is "
                                         "not valid JSON: {}",
                                         options.body, error));
  return std::move(*e);
}

} // namespace ganglion::app
