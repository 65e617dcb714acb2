#include "ganglion/kubernetes/cluster_manifests.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "client/shared_client.hpp"

namespace ganglion::kubernetes {

namespace {

using json = nlohmann::json;

constexpr const char* argo_prefix = "/apis/argoproj.io/v1alpha1";

/// One watched collection: a kind in one namespace (or in all).
struct collection {
  std::string kind;
  std::string plural;
  std::string namespace_name; ///< empty: every namespace
  std::string path;
};

/// The plural of each kind cluster mode runs, as in URLs.
const std::vector<std::pair<std::string, std::string>>& kinds() {
  static const std::vector<std::pair<std::string, std::string>> all{
    {"EventSource", "eventsources"}, {"Sensor", "sensors"}, {"EventBus", "eventbus"}};
  return all;
}

std::string plural_of(const std::string& kind) {
  for (const auto& [k, plural] : kinds())
    if (k == kind)
      return plural;
  return {};
}

/// The object of `text` as cluster mode keeps it; nullopt when it is no object with a name.
std::optional<cluster_object> read_object(const std::string& text, const std::string& kind) {
  auto j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("metadata") || !j["metadata"].is_object())
    return std::nullopt;
  auto& meta = j["metadata"];
  cluster_object out;
  out.kind = kind;
  out.name = meta.value("name", "");
  out.namespace_name = meta.value("namespace", "");
  out.uid = meta.value("uid", "");
  if (out.name.empty())
    return std::nullopt;
  if (auto status = j.find("status"); status != j.end()) {
    out.status = status->dump();
    j.erase(status);
  }
  meta.erase("managedFields");
  meta.erase("resourceVersion");
  // A list's items of a custom resource carry these, but a watch of some servers may not.
  j["kind"] = kind;
  j["apiVersion"] = "argoproj.io/v1alpha1";
  out.manifest = j.dump();
  return out;
}

std::string key_of(const std::string& kind, const std::string& ns, const std::string& name) {
  return kind + "\n" + ns + "\n" + name;
}

} // namespace

std::string cluster_object::label() const {
  return kind + " " + namespace_name + "/" + name;
}

std::string cluster_object::status_path() const {
  return std::string{argo_prefix} + "/namespaces/" + namespace_name + "/" + plural_of(kind) + "/"
         + name + "/status";
}

struct cluster_manifests::impl {
  std::shared_ptr<api_client> client;
  cluster_options options;
  std::function<void()> on_change;
  collection_health on_health;

  mutable std::mutex mutex;
  mutable std::condition_variable wake;
  std::map<std::string, cluster_object> objects;
  std::set<std::string> listed;
  std::set<std::string> failing;
  std::size_t collections = 0;
  bool dirty = false;
  bool stopping = false;
  std::thread debouncer;
  std::vector<std::unique_ptr<watcher>> watchers;

  bool in(const collection& c, const cluster_object& o) const {
    return o.kind == c.kind && (c.namespace_name.empty() || o.namespace_name == c.namespace_name);
  }

  void healthy(const collection& c, std::unique_lock<std::mutex>& lock) {
    bool first = listed.insert(c.path).second;
    bool recovered = failing.erase(c.path) > 0;
    if (first)
      wake.notify_all();
    if ((first || recovered) && on_health) {
      lock.unlock();
      on_health(c.path, {});
      lock.lock();
    }
  }

  void list(const collection& c, std::vector<std::string> items) {
    std::map<std::string, cluster_object> now;
    for (const auto& text : items)
      if (auto o = read_object(text, c.kind))
        now.emplace(key_of(o->kind, o->namespace_name, o->name), std::move(*o));
    std::unique_lock lock{mutex};
    for (auto it = objects.begin(); it != objects.end();) {
      if (in(c, it->second) && !now.count(it->first)) {
        it = objects.erase(it);
        dirty = true;
      } else {
        ++it;
      }
    }
    for (auto& [key, o] : now)
      keep(key, std::move(o));
    healthy(c, lock);
    wake.notify_all();
  }

  /// Stores `o`; a change outside its status makes the set dirty. Under the lock.
  void keep(const std::string& key, cluster_object o) {
    auto& slot = objects[key];
    if (slot.manifest != o.manifest)
      dirty = true;
    slot = std::move(o);
  }

  void event(const collection& c, const watch_event& e) {
    auto o = read_object(e.object, c.kind);
    std::unique_lock lock{mutex};
    if (o) {
      auto key = key_of(o->kind, o->namespace_name, o->name);
      if (e.type == "DELETED")
        dirty = objects.erase(key) > 0 || dirty;
      else
        keep(key, std::move(*o));
    }
    healthy(c, lock);
    wake.notify_all();
  }

  void failed(const collection& c, const std::string& error) {
    {
      std::lock_guard guard{mutex};
      failing.insert(c.path);
      wake.notify_all();
    }
    if (on_health)
      on_health(c.path, error);
  }

  void debounce() {
    std::unique_lock lock{mutex};
    for (;;) {
      wake.wait(lock, [this] { return stopping || dirty; });
      if (stopping)
        return;
      wake.wait_for(lock, options.debounce, [this] { return stopping; });
      if (stopping)
        return;
      dirty = false;
      lock.unlock();
      if (on_change)
        on_change();
      lock.lock();
    }
  }
};

cluster_manifests::cluster_manifests(std::shared_ptr<api_client> client, cluster_options options,
                                     std::function<void()> on_change, collection_health on_health)
  : impl_(std::make_unique<impl>()) {
  auto& self = *impl_;
  self.client = std::move(client);
  self.options = std::move(options);
  self.on_change = std::move(on_change);
  self.on_health = std::move(on_health);
  std::vector<collection> all;
  auto namespaces = self.options.namespaces;
  if (namespaces.empty())
    namespaces.emplace_back();
  for (const auto& ns : namespaces)
    for (const auto& [kind, plural] : kinds())
      all.push_back(collection{kind, plural, ns,
                               std::string{argo_prefix} + (ns.empty() ? "" : "/namespaces/" + ns)
                                 + "/" + plural});
  self.collections = all.size();
  self.debouncer = std::thread{[this] { impl_->debounce(); }};
  for (const auto& c : all) {
    watch_handlers handlers;
    handlers.on_list = [this, c](std::vector<std::string> items) {
      impl_->list(c, std::move(items));
    };
    handlers.on_event = [this, c](const watch_event& e) { impl_->event(c, e); };
    handlers.on_error = [this, c](const std::string& error) { impl_->failed(c, error); };
    self.watchers.push_back(
      std::make_unique<watcher>(*self.client, c.path, std::move(handlers), self.options.watch));
  }
}

cluster_manifests::~cluster_manifests() {
  impl_->watchers.clear();
  {
    std::lock_guard guard{impl_->mutex};
    impl_->stopping = true;
    impl_->wake.notify_all();
  }
  if (impl_->debouncer.joinable())
    impl_->debouncer.join();
}

bool cluster_manifests::wait_listed(std::chrono::milliseconds limit) const {
  std::unique_lock lock{impl_->mutex};
  return impl_->wake.wait_for(lock, limit, [this] {
    auto answered = impl_->listed.size();
    for (const auto& path : impl_->failing)
      answered += impl_->listed.count(path) ? 0 : 1;
    return answered == impl_->collections;
  });
}

std::vector<cluster_object> cluster_manifests::objects() const {
  std::lock_guard guard{impl_->mutex};
  std::vector<cluster_object> out;
  out.reserve(impl_->objects.size());
  for (const auto& [key, o] : impl_->objects)
    out.push_back(o);
  return out;
}

const std::shared_ptr<api_client>& cluster_manifests::client() const noexcept {
  return impl_->client;
}

std::shared_ptr<api_client> cluster_client(const std::string& kubeconfig) {
  options opts;
  opts.kubeconfig = kubeconfig;
  return detail::shared_client(opts);
}

} // namespace ganglion::kubernetes
