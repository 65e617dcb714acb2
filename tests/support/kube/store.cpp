#include "store.hpp"

#include <algorithm>

#include "crds.hpp"
#include "errors.hpp"
#include "resources.hpp"
#include "text.hpp"

namespace ganglion::test::kube {

namespace {

json without_metadata_and_status(json object) {
  object.erase("metadata");
  object.erase("status");
  object.erase("apiVersion");
  object.erase("kind");
  return object;
}

std::uint64_t parse_version(const std::string& text) {
  try {
    std::size_t used = 0;
    auto value = std::stoull(text, &used);
    if (used == text.size())
      return value;
  } catch (const std::exception&) {
  }
  throw bad_request("resourceVersion: Invalid value: \"" + text + "\": must be a number");
}

} // namespace

store::store(std::size_t history_limit)
  : types_(builtin_resources()), history_limit_(std::max<std::size_t>(history_limit, 1)) {}

std::string store::key_of(const resource_type& type) {
  return type.group + "/" + type.version + "/" + type.plural;
}

void store::add_resource(resource_type type) {
  std::lock_guard guard{mutex_};
  add_locked(std::move(type));
}

void store::add_locked(resource_type type) {
  auto key = key_of(type);
  auto same = std::find_if(types_.begin(), types_.end(),
                           [&](const resource_type& t) { return key_of(t) == key; });
  if (same != types_.end())
    *same = std::move(type);
  else
    types_.push_back(std::move(type));
}

void store::remove_resource(const std::string& group, const std::string& version,
                            const std::string& plural) {
  std::lock_guard guard{mutex_};
  remove_locked(group, version, plural);
}

void store::remove_locked(const std::string& group, const std::string& version,
                          const std::string& plural) {
  std::erase_if(types_, [&](const resource_type& t) {
    return t.group == group && t.version == version && t.plural == plural;
  });
  objects_.erase(group + "/" + version + "/" + plural);
}

std::vector<resource_type> store::resources() const {
  std::lock_guard guard{mutex_};
  return types_;
}

std::optional<resource_type> store::find(const std::string& group, const std::string& version,
                                         const std::string& plural) const {
  std::lock_guard guard{mutex_};
  if (auto* type = type_locked(group + "/" + version + "/" + plural))
    return *type;
  return std::nullopt;
}

std::optional<resource_type> store::find_kind(std::string_view api_version,
                                              std::string_view kind) const {
  std::lock_guard guard{mutex_};
  return find_resource(types_, api_version, kind);
}

const resource_type* store::type_locked(const std::string& key) const {
  for (const auto& type : types_)
    if (key_of(type) == key)
      return &type;
  return nullptr;
}

std::optional<json> store::get(const resource_type& type, const std::string& ns,
                               const std::string& name) const {
  std::lock_guard guard{mutex_};
  auto of = objects_.find(key_of(type));
  if (of == objects_.end())
    return std::nullopt;
  auto it = of->second.find({type.namespaced ? ns : "", name});
  if (it == of->second.end())
    return std::nullopt;
  return it->second;
}

list_page store::list(const resource_type& type, const watch_filter& filter, std::int64_t limit,
                      const std::string& continue_token) const {
  std::lock_guard guard{mutex_};
  list_page page;
  page.resource_version = std::to_string(version_);
  std::pair<std::string, std::string> after;
  bool continuing = !continue_token.empty();
  if (continuing) {
    bool ok = false;
    json token = json::parse(base64_decode(continue_token, ok), nullptr, false);
    if (!ok || !token.is_object() || !token.contains("rv") || !token.contains("start"))
      throw bad_request("continue key is not valid: incorrect encoded start resourceVersion "
                        "(version meta.k8s.io/v1)");
    if (token["rv"].get<std::uint64_t>() < compacted_)
      throw api_error(410, "Expired",
                      "The provided continue parameter is too old to display a consistent list "
                      "result. You can start a new list without the continue parameter.");
    after = {token["start"][0].get<std::string>(), token["start"][1].get<std::string>()};
  }
  auto of = objects_.find(key_of(type));
  if (of == objects_.end())
    return page;
  bool strip = is_builtin(type);
  std::int64_t remaining = 0;
  std::pair<std::string, std::string> last;
  for (const auto& [key, object] : of->second) {
    if (continuing && key <= after)
      continue;
    if (!filter.ns.empty() && key.first != filter.ns)
      continue;
    if (!matches(object, filter.labels, filter.fields))
      continue;
    if (limit > 0 && static_cast<std::int64_t>(page.items.size()) >= limit) {
      ++remaining;
      continue;
    }
    json item = object;
    if (strip) {
      item.erase("kind");
      item.erase("apiVersion");
    }
    page.items.push_back(std::move(item));
    last = key;
  }
  if (remaining > 0) {
    json token = {{"v", "meta.k8s.io/v1"}, {"rv", version_}, {"start", {last.first, last.second}}};
    page.continue_token = base64_encode(token.dump());
    page.remaining = remaining;
  }
  return page;
}

json store::write(const resource_type& type, const std::string& ns, const std::string& name,
                  const object_change& change, const std::string& verb,
                  const std::string& subresource) {
  std::unique_lock lock{mutex_};
  auto key = key_of(type);
  if (!type_locked(key))
    throw api_error(404, "NotFound", "the server could not find the requested resource");
  auto& objects = objects_[key];
  std::pair<std::string, std::string> id{type.namespaced ? ns : "", name};
  auto it = objects.find(id);
  const json* current = it == objects.end() ? nullptr : &it->second;
  json object = change(current);
  std::optional<resource_type> defined;
  if (key == crd_key) {
    object["metadata"]["name"] = name;
    defined = crd_resource(object);
    object["status"] = crd_status(object, *defined);
  }
  json& metadata = object["metadata"];
  metadata["name"] = name;
  if (type.namespaced)
    metadata["namespace"] = ns;
  else
    metadata.erase("namespace");
  object["apiVersion"] = type.api_version();
  object["kind"] = type.kind;
  metadata["resourceVersion"] = std::to_string(++version_);
  if (current) {
    const json& before = (*current)["metadata"];
    metadata["uid"] = before["uid"];
    metadata["creationTimestamp"] = before["creationTimestamp"];
    std::int64_t generation = before.value("generation", std::int64_t{1});
    bool changed = without_metadata_and_status(object) != without_metadata_and_status(*current);
    metadata["generation"] = changed ? generation + 1 : generation;
  } else {
    if (!metadata.contains("uid") || !metadata["uid"].is_string())
      metadata["uid"] = random_uid();
    metadata["creationTimestamp"] = rfc3339_now();
    metadata["generation"] = 1;
  }
  json previous = current ? *current : json(nullptr);
  if (defined) {
    if (current) {
      auto before = crd_resource(*current);
      if (key_of(before) != key_of(*defined))
        remove_locked(before.group, before.version, before.plural);
    }
    add_locked(*defined);
  }
  objects[id] = object;
  record({version_, key, current ? "MODIFIED" : "ADDED", object, previous});
  hooks_.written(key, {verb, subresource, object});
  return object;
}

std::optional<json> store::remove(const resource_type& type, const std::string& ns,
                                  const std::string& name) {
  std::lock_guard guard{mutex_};
  auto key = key_of(type);
  auto of = objects_.find(key);
  if (of == objects_.end())
    return std::nullopt;
  auto it = of->second.find({type.namespaced ? ns : "", name});
  if (it == of->second.end())
    return std::nullopt;
  json object = std::move(it->second);
  of->second.erase(it);
  json previous = object;
  object["metadata"]["resourceVersion"] = std::to_string(++version_);
  record({version_, key, "DELETED", object, previous});
  hooks_.written(key, {"delete", "", object});
  if (key == crd_key) {
    auto defined = crd_resource(object);
    remove_locked(defined.group, defined.version, defined.plural);
  }
  return object;
}

std::string store::resource_version() const {
  std::lock_guard guard{mutex_};
  return std::to_string(version_);
}

void store::compact() {
  std::lock_guard guard{mutex_};
  history_.clear();
  compacted_ = version_;
}

void store::record(change c) {
  for (const auto& [id, sub] : subscribers_)
    if (sub.resource_key == c.resource_key)
      if (auto event = translate(c, sub.filter))
        sub.sink(*event);
  history_.push_back(std::move(c));
  while (history_.size() > history_limit_) {
    compacted_ = history_.front().version;
    history_.pop_front();
  }
}

std::optional<json> store::translate(const change& c, const watch_filter& filter) {
  const json& object = c.object;
  if (!filter.ns.empty() && object["metadata"].value("namespace", "") != filter.ns)
    return std::nullopt;
  bool now = matches(object, filter.labels, filter.fields);
  bool before = !c.previous.is_null() && matches(c.previous, filter.labels, filter.fields);
  std::string type;
  if (c.type == "ADDED")
    type = now ? "ADDED" : "";
  else if (c.type == "DELETED")
    type = before ? "DELETED" : "";
  else if (now)
    type = before ? "MODIFIED" : "ADDED";
  else
    type = before ? "DELETED" : "";
  if (type.empty())
    return std::nullopt;
  return json{{"type", type}, {"object", object}};
}

int store::watch(const resource_type& type, watch_filter filter, const std::string& from_version,
                 watch_sink sink) {
  std::lock_guard guard{mutex_};
  auto key = key_of(type);
  if (from_version.empty() || from_version == "0") {
    if (auto of = objects_.find(key); of != objects_.end())
      for (const auto& [id, object] : of->second)
        if (auto event = translate({version_, key, "ADDED", object, nullptr}, filter))
          sink(*event);
  } else {
    auto from = parse_version(from_version);
    if (from < compacted_)
      throw api_error(410, "Expired",
                      "too old resource version: " + from_version + " ("
                        + std::to_string(compacted_ + 1) + ")");
    for (const auto& c : history_)
      if (c.version > from && c.resource_key == key)
        if (auto event = translate(c, filter))
          sink(*event);
  }
  subscribers_.emplace(next_watch_, subscriber{key, std::move(filter), std::move(sink)});
  return next_watch_++;
}

void store::unwatch(int id) {
  std::lock_guard guard{mutex_};
  subscribers_.erase(id);
}

std::size_t store::watch_count() const {
  std::lock_guard guard{mutex_};
  return subscribers_.size();
}

} // namespace ganglion::test::kube
