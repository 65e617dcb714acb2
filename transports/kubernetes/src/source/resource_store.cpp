#include "source/resource_store.hpp"

#include <unordered_set>

namespace ganglion::kubernetes::detail {

std::optional<resource_store::identity> resource_store::identify(const std::string& object) {
  simdjson::dom::element doc;
  std::string_view ns, name, version;
  if (parser_.parse(object).get(doc) != simdjson::SUCCESS) {
    ++skipped_;
    return std::nullopt;
  }
  auto metadata = doc["metadata"];
  if (metadata["name"].get(name) != simdjson::SUCCESS || name.empty()) {
    ++skipped_;
    return std::nullopt;
  }
  if (metadata["namespace"].get(ns) != simdjson::SUCCESS)
    ns = {};
  if (metadata["resourceVersion"].get(version) != simdjson::SUCCESS)
    version = {};
  identity id;
  id.key.reserve(ns.size() + name.size() + 1);
  id.key.append(ns).append("/").append(name);
  id.resource_version = version;
  return id;
}

void resource_store::upsert(identity id, const std::string& object,
                            std::vector<resource_change>& out) {
  auto [it, fresh] = objects_.try_emplace(std::move(id.key));
  auto& known = it->second;
  if (fresh) {
    out.push_back(resource_change{"ADD", object, {}});
  } else if (known.resource_version != id.resource_version) {
    // Argo's UPDATE handler drops an update whose resourceVersion did not change.
    out.push_back(resource_change{"UPDATE", object, known.object});
  }
  known.resource_version = std::move(id.resource_version);
  known.object = object;
}

std::vector<resource_change> resource_store::replace(const std::vector<std::string>& objects) {
  std::vector<resource_change> out;
  std::unordered_set<std::string> listed;
  for (const auto& object : objects) {
    auto id = identify(object);
    if (!id)
      continue;
    listed.insert(id->key);
    upsert(std::move(*id), object, out);
  }
  for (auto it = objects_.begin(); it != objects_.end();) {
    if (listed.contains(it->first)) {
      ++it;
      continue;
    }
    out.push_back(resource_change{"DELETE", std::move(it->second.object), {}});
    it = objects_.erase(it);
  }
  return out;
}

std::vector<resource_change> resource_store::apply(const watch_event& event) {
  std::vector<resource_change> out;
  if (event.type != "ADDED" && event.type != "MODIFIED" && event.type != "DELETED")
    return out;
  auto id = identify(event.object);
  if (!id)
    return out;
  if (event.type != "DELETED") {
    upsert(std::move(*id), event.object, out);
    return out;
  }
  if (objects_.erase(id->key) > 0)
    out.push_back(resource_change{"DELETE", event.object, {}});
  return out;
}

} // namespace ganglion::kubernetes::detail
