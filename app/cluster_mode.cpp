#include "cluster_mode.hpp"

#include <stdexcept>

#ifdef GANGLION_WITH_KUBERNETES

#include <atomic>
#include <condition_variable>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "ganglion/core/secret_files.hpp"
#include "ganglion/kubernetes/cluster_manifests.hpp"
#include "ganglion/kubernetes/cluster_secrets.hpp"
#include "ganglion/kubernetes/cluster_status.hpp"
#include "ganglion/kubernetes/config_map_store.hpp"

namespace ganglion::app {

namespace {

namespace k8s = kubernetes;

constexpr auto first_list_wait = std::chrono::seconds(30);
constexpr auto republish_every = std::chrono::seconds(5);

/// An object of the cluster and what its latest load found.
struct loaded_object {
  k8s::cluster_object object;
  k8s::object_verdict verdict;
};

/// The name the engine knows an object of the cluster by: `<namespace>/<name>`, since names
/// are unique per namespace only.
std::string qualified_name(const std::string& ns, const std::string& name) {
  return ns.empty() ? name : ns + "/" + name;
}

/// The namespace an EventSource or Sensor document names; empty for other kinds.
std::string namespace_of(const dsl::document& d) {
  if (const auto* es = std::get_if<dsl::event_source>(&d.body))
    return es->metadata.namespace_;
  if (const auto* sensor = std::get_if<dsl::sensor>(&d.body))
    return sensor->metadata.namespace_;
  return {};
}

/// Gives the EventSources and Sensors of `documents` (one object of the cluster) their
/// qualified name; EventBuses keep theirs, which Sensors and EventSources name as written.
void qualify(std::vector<dsl::document>& documents) {
  for (auto& d : documents) {
    auto rename = [&d](dsl::object_meta& meta) {
      meta.name = meta.namespaced_name();
      d.name = meta.name;
    };
    if (auto* es = std::get_if<dsl::event_source>(&d.body))
      rename(es->metadata);
    else if (auto* sensor = std::get_if<dsl::sensor>(&d.body))
      rename(sensor->metadata);
  }
}

/// Why the components of a valid object do not all run: its first refusal, else its first
/// component in phase Error; empty when it runs.
std::string not_running(const k8s::cluster_object& o, const std::vector<core::refusal>& refusals,
                        const std::vector<core::component_status>& phases) {
  auto label = o.label();
  for (const auto& r : refusals)
    if (r.why.where.object && r.why.where.file == label)
      return r.text();
  auto name = qualified_name(o.namespace_name, o.name);
  auto prefix = name + "/";
  for (const auto& c : phases) {
    if (c.phase != core::phase::error)
      continue;
    bool mine = o.kind == "EventSource" ? c.kind == "source" && c.name.starts_with(prefix)
                : o.kind == "Sensor"    ? (c.kind == "sensor" && c.name == name)
                                         || (c.kind == "trigger" && c.name.starts_with(prefix))
                                     : false;
    if (mine)
      return c.kind + " " + c.name + ": " + c.last_error;
  }
  return {};
}

} // namespace

struct cluster_mode::impl {
  dsl::load_options load;
  std::unique_ptr<k8s::cluster_manifests> manifests;
  std::unique_ptr<k8s::status_writer> writer;
  std::shared_ptr<k8s::cluster_secrets> secrets;
  std::shared_ptr<const core::secret_store> store;

  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  core::engine* engine = nullptr;
  std::function<void()> reload;
  bool changed_before_attach = false;
  std::map<std::string, loaded_object> objects; ///< by label, as of the latest load
  std::map<std::string, std::string> logged;    ///< by label: the last error logged
  std::map<std::string, std::string> health;    ///< by collection: "" or its error
  std::thread republisher;

  /// True when the objects differ from those of the latest load.
  bool differs() {
    auto now = manifests->objects();
    std::lock_guard guard{mutex};
    if (now.size() != objects.size())
      return true;
    for (const auto& o : now) {
      auto it = objects.find(o.label());
      if (it == objects.end() || it->second.object.manifest != o.manifest)
        return true;
    }
    return false;
  }

  void changed() {
    if (!differs())
      return;
    std::function<void()> call;
    {
      std::lock_guard guard{mutex};
      if (!reload) {
        changed_before_attach = true;
        return;
      }
      call = reload;
    }
    call();
  }

  void healthy(const std::string& collection, const std::string& error) {
    core::engine* running = nullptr;
    {
      std::lock_guard guard{mutex};
      auto [it, fresh] = health.try_emplace(collection, error);
      if (!fresh && it->second == error)
        return;
      it->second = error;
      running = engine;
    }
    if (error.empty())
      spdlog::info("cluster mode: watching {}", collection);
    else
      spdlog::error("cluster mode: {} (retried with backoff; its objects run once listed)", error);
    if (running)
      show(*running, collection, error);
  }

  static void show(core::engine& e, const std::string& collection, const std::string& error) {
    e.status().set("cluster", collection, error.empty() ? core::phase::running : core::phase::error,
                   error);
  }

  void republish_loop(cluster_mode& self) {
    std::unique_lock lock{mutex};
    while (!wake.wait_for(lock, republish_every, [this] { return stopping; })) {
      lock.unlock();
      self.publish();
      lock.lock();
    }
  }
};

cluster_mode::cluster_mode(const run_options& options, dsl::load_options load)
  : impl_(std::make_unique<impl>()) {
  impl_->load = std::move(load);
  std::shared_ptr<k8s::api_client> client;
  try {
    client = k8s::cluster_client(options.kubeconfig);
  } catch (const std::exception& ex) {
    throw std::runtime_error(std::string{"no Kubernetes configuration: "} + ex.what());
  }
  k8s::cluster_options watch;
  if (!options.all_namespaces)
    watch.namespaces = options.namespaces.empty()
                         ? std::vector<std::string>{client->config().default_namespace}
                         : options.namespaces;
  spdlog::info("cluster mode: {} of {}",
               options.all_namespaces
                 ? std::string{"every namespace"}
                 : "namespace(s) " + fmt::format("{}", fmt::join(watch.namespaces, ", ")),
               client->config().origin);
  impl_->writer = std::make_unique<k8s::status_writer>(client);
  // Each object reads the Secrets of its own namespace; an object of a `-f` file that names
  // no namespace reads those of the first namespace served (the context's with
  // --all-namespaces).
  impl_->secrets = std::make_shared<k8s::cluster_secrets>(
    client, watch.namespaces,
    watch.namespaces.empty() ? client->config().default_namespace : watch.namespaces.front());
  std::shared_ptr<k8s::cluster_secrets> from = impl_->secrets;
  auto files = std::make_shared<core::secret_files>();
  impl_->store = std::make_shared<const core::secret_store>(
    [from](const std::string& ns, const std::string& name, const std::string& key,
           std::string* error) { return from->read(ns, name, key, error); },
    files);
  // Runs on the watches' threads, which `from` joins before it is gone: the raw pointer is
  // valid there, and the callback owns neither the store nor the watches.
  impl_->secrets->on_change(
    [watched = from.get(), weak = std::weak_ptr<core::secret_files>{files}] {
      if (auto written = weak.lock())
        written->refresh([watched](const std::string& ns, const std::string& name,
                                   const std::string& key, std::string* error) {
          return watched->read(ns, name, key, error);
        });
    });
  if (!options.secrets_dir.empty())
    spdlog::warn("cluster mode reads Secrets through the API, each object in its namespace; "
                 "--secrets-dir {} is not used",
                 options.secrets_dir);
  impl_->manifests = std::make_unique<k8s::cluster_manifests>(
    client, std::move(watch), [this] { impl_->changed(); },
    [this](const std::string& collection, const std::string& error) {
      impl_->healthy(collection, error);
    });
  if (!impl_->manifests->wait_listed(first_list_wait))
    spdlog::warn("cluster mode: not every collection answered within {} s; what is not listed "
                 "yet runs once it is",
                 first_list_wait.count());
}

cluster_mode::~cluster_mode() {
  {
    std::lock_guard guard{impl_->mutex};
    impl_->stopping = true;
    impl_->reload = nullptr;
    impl_->wake.notify_all();
  }
  if (impl_->republisher.joinable())
    impl_->republisher.join();
  impl_->manifests.reset();
  impl_->secrets.reset();
  impl_->store.reset();
}

std::vector<dsl::document> cluster_mode::documents(const std::vector<dsl::document>& files) {
  // An object of a file that names no namespace serves every namespace: a cluster object of
  // its kind and name, in any namespace, is its duplicate.
  std::map<std::pair<std::string, std::string>, std::string> taken;
  std::map<std::pair<std::string, std::string>, std::string> everywhere;
  for (const auto& d : files) {
    if (d.name.empty())
      continue;
    auto ns = namespace_of(d);
    taken.emplace(std::pair{d.kind, qualified_name(ns, d.name)}, d.where.file);
    if (ns.empty())
      everywhere.emplace(std::pair{d.kind, d.name}, d.where.file);
  }
  std::vector<dsl::document> out;
  std::map<std::string, loaded_object> now;
  for (auto& o : impl_->manifests->objects()) {
    auto label = o.label();
    auto loaded = dsl::load_object_text(o.manifest, label, impl_->load);
    qualify(loaded.documents);
    k8s::object_verdict verdict;
    for (const auto& d : loaded.diagnostics)
      if (d.level == dsl::severity::error) {
        verdict.error_path = d.path;
        verdict.error = d.message;
        break;
      }
    if (verdict.error.empty()) {
      auto key = o.kind == "EventBus" ? o.name : qualified_name(o.namespace_name, o.name);
      auto [it, fresh] = taken.emplace(std::pair{o.kind, key}, label);
      auto file = everywhere.find(std::pair{o.kind, o.name});
      if (!fresh || file != everywhere.end()) {
        verdict.error_path = "metadata.name";
        verdict.error = "a" + std::string{o.kind == "EventSource" ? "n " : " "} + o.kind + " named "
                        + o.name + " is already loaded from "
                        + (fresh ? file->second : it->second)
                        + "; ganglion runs one of a kind and name in a namespace";
      }
    }
    std::string message;
    if (!verdict.error.empty())
      message = label + ": " + (verdict.error_path.empty() ? "" : verdict.error_path + ": ")
                + verdict.error;
    {
      std::lock_guard guard{impl_->mutex};
      auto& last = impl_->logged[label];
      if (!message.empty() && last != message)
        spdlog::error("cluster mode: {} is invalid and does not run: {}", label, message);
      last = message;
    }
    if (verdict.error.empty())
      for (auto& d : loaded.documents)
        out.push_back(std::move(d));
    now.emplace(label, loaded_object{std::move(o), std::move(verdict)});
  }
  std::lock_guard guard{impl_->mutex};
  for (auto it = impl_->logged.begin(); it != impl_->logged.end();)
    it = now.count(it->first) ? std::next(it) : impl_->logged.erase(it);
  impl_->objects = std::move(now);
  return out;
}

std::string cluster_mode::status_of(const dsl::document& document) const {
  if (!document.where.object)
    return "{}";
  std::lock_guard guard{impl_->mutex};
  auto it = impl_->objects.find(document.where.file);
  return it == impl_->objects.end() ? std::string{"{}"} : it->second.object.status;
}

std::shared_ptr<const core::secret_store> cluster_mode::secrets() const {
  return impl_->store;
}

core::config_map_stores cluster_mode::config_maps(const core::option_values& settings) const {
  return k8s::config_map_stores(k8s::options_from(settings));
}

void cluster_mode::attach(core::engine& engine, std::function<void()> reload) {
  bool pending = false;
  std::map<std::string, std::string> health;
  {
    std::lock_guard guard{impl_->mutex};
    impl_->engine = &engine;
    impl_->reload = std::move(reload);
    pending = impl_->changed_before_attach;
    health = impl_->health;
  }
  for (const auto& [collection, error] : health)
    impl::show(engine, collection, error);
  publish();
  impl_->republisher = std::thread{[this] { impl_->republish_loop(*this); }};
  if (pending)
    impl_->changed();
}

void cluster_mode::publish() {
  std::map<std::string, loaded_object> loaded;
  core::engine* engine = nullptr;
  {
    std::lock_guard guard{impl_->mutex};
    loaded = impl_->objects;
    engine = impl_->engine;
  }
  if (!engine)
    return;
  auto refusals = engine->refusals();
  auto phases = engine->status().snapshot();
  // The status as the API shows it now, which the writer compares with.
  std::map<std::string, k8s::cluster_object> current;
  for (auto& o : impl_->manifests->objects())
    current.emplace(o.label(), std::move(o));
  for (auto& [label, entry] : loaded) {
    auto found = current.find(label);
    if (found == current.end() || found->second.uid != entry.object.uid
        || found->second.manifest != entry.object.manifest)
      continue; // changed since: the reload it causes writes its status
    auto verdict = entry.verdict;
    if (verdict.error.empty())
      verdict.not_running = not_running(entry.object, refusals, phases);
    impl_->writer->write(found->second, k8s::conditions_of(entry.object.kind, verdict));
  }
}

} // namespace ganglion::app

#else

namespace ganglion::app {

struct cluster_mode::impl {};

cluster_mode::cluster_mode(const run_options&, dsl::load_options) {
  throw std::runtime_error(
    "this ganglion is built without Kubernetes (GANGLION_ENABLE_KUBERNETES)");
}

cluster_mode::~cluster_mode() = default;

std::vector<dsl::document> cluster_mode::documents(const std::vector<dsl::document>&) {
  return {};
}

std::string cluster_mode::status_of(const dsl::document&) const {
  return "{}";
}

std::shared_ptr<const core::secret_store> cluster_mode::secrets() const {
  return nullptr;
}

core::config_map_stores cluster_mode::config_maps(const core::option_values&) const {
  return nullptr;
}

void cluster_mode::attach(core::engine&, std::function<void()>) {}

void cluster_mode::publish() {}

} // namespace ganglion::app

#endif
