#include "ganglion/kubernetes/cluster_secrets.hpp"

#include <condition_variable>
#include <iterator>
#include <map>
#include <mutex>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/kubernetes/watch.hpp"

namespace ganglion::kubernetes {

namespace {

using json = nlohmann::json;

/// A Secret's namespace (`scope` when it names none), name and `data` (base64 values);
/// nullopt for anything else.
struct secret_entry {
  std::string namespace_name;
  std::string name;
  json data;
};

std::optional<secret_entry> secret_of(const std::string& text, const std::string& scope) {
  auto j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("metadata") || !j["metadata"].is_object())
    return std::nullopt;
  const auto& meta = j["metadata"];
  auto name = meta.contains("name") && meta["name"].is_string() ? meta["name"].get<std::string>()
                                                                : std::string{};
  if (name.empty())
    return std::nullopt;
  auto ns = meta.contains("namespace") && meta["namespace"].is_string()
              ? meta["namespace"].get<std::string>()
              : scope;
  if (!scope.empty() && ns != scope)
    return std::nullopt; // a namespace watch answers for its namespace only
  auto data = j.contains("data") && j["data"].is_object() ? j["data"] : json::object();
  return secret_entry{std::move(ns), std::move(name), std::move(data)};
}

/// What one watch knows of its collection.
struct collection_state {
  bool listed = false;
  std::string error;
};

} // namespace

struct cluster_secrets::impl {
  std::shared_ptr<api_client> client;
  bool every_namespace = false;
  std::string default_namespace;

  mutable std::mutex mutex;
  mutable std::condition_variable wake;
  /// (namespace, name) → data.
  std::map<std::pair<std::string, std::string>, json> secrets;
  /// By the namespace a watch serves; "" for the watch of every namespace.
  std::map<std::string, collection_state> collections;
  std::function<void()> changed;

  mutable std::mutex watches_mutex;
  std::map<std::string, std::unique_ptr<watcher>> watches;
  bool stopping = false; ///< under watches_mutex: no watch starts any more

  void notify_change() {
    std::function<void()> call;
    {
      std::lock_guard guard{mutex};
      call = changed;
    }
    if (call)
      call();
  }

  /// Starts the watch of `scope` ("" : every namespace) unless it runs.
  static void watch(const std::shared_ptr<impl>& owner, const std::string& scope) {
    std::lock_guard guard{owner->watches_mutex};
    if (owner->stopping || owner->watches.count(scope))
      return;
    std::weak_ptr<impl> weak = owner;
    watch_handlers handlers;
    handlers.on_list = [weak, scope](std::vector<std::string> items) {
      auto self = weak.lock();
      if (!self)
        return;
      {
        std::lock_guard guard{self->mutex};
        for (auto it = self->secrets.begin(); it != self->secrets.end();)
          it = scope.empty() || it->first.first == scope ? self->secrets.erase(it) : std::next(it);
        for (const auto& text : items)
          if (auto s = secret_of(text, scope))
            self->secrets[{s->namespace_name, s->name}] = std::move(s->data);
        auto& state = self->collections[scope];
        state.listed = true;
        state.error.clear();
        self->wake.notify_all();
      }
      self->notify_change();
    };
    handlers.on_event = [weak, scope](const watch_event& e) {
      auto self = weak.lock();
      if (!self)
        return;
      auto s = secret_of(e.object, scope);
      if (!s)
        return;
      {
        std::lock_guard guard{self->mutex};
        std::pair key{s->namespace_name, s->name};
        if (e.type == "DELETED")
          self->secrets.erase(key);
        else
          self->secrets[key] = std::move(s->data);
      }
      self->notify_change();
    };
    handlers.on_error = [weak, scope](const std::string& error) {
      auto self = weak.lock();
      if (!self)
        return;
      std::lock_guard guard{self->mutex};
      self->collections[scope].error = error;
      self->wake.notify_all();
    };
    auto collection =
      scope.empty() ? std::string{"/api/v1/secrets"} : "/api/v1/namespaces/" + scope + "/secrets";
    // The client outlives the watches: the impl holds it, and destroys the watches first.
    owner->watches.emplace(
      scope, std::make_unique<watcher>(*owner->client, collection, std::move(handlers)));
  }
};

cluster_secrets::cluster_secrets(std::shared_ptr<api_client> client,
                                 std::vector<std::string> namespaces,
                                 std::string default_namespace)
  : impl_(std::make_shared<impl>()) {
  impl_->client = std::move(client);
  impl_->every_namespace = namespaces.empty();
  impl_->default_namespace = std::move(default_namespace);
  if (impl_->every_namespace)
    impl::watch(impl_, "");
  for (const auto& ns : namespaces)
    impl::watch(impl_, ns);
}

cluster_secrets::~cluster_secrets() {
  std::map<std::string, std::unique_ptr<watcher>> stopping;
  {
    std::lock_guard guard{impl_->watches_mutex};
    impl_->stopping = true;
    stopping.swap(impl_->watches);
  }
  stopping.clear();
}

std::optional<std::string> cluster_secrets::read(const std::string& namespace_name,
                                                 const std::string& name, const std::string& key,
                                                 std::string* error,
                                                 std::chrono::milliseconds wait) const {
  auto fail = [&](std::string why) -> std::optional<std::string> {
    if (error)
      *error = std::move(why);
    return std::nullopt;
  };
  const auto& ns = namespace_name.empty() ? impl_->default_namespace : namespace_name;
  auto where = "secret " + name + "/" + key + " (namespace " + ns + ")";
  if (ns.empty() || ns.find('/') != std::string::npos || ns == "." || ns == "..")
    return fail(where + ": invalid namespace");
  auto scope = impl_->every_namespace ? std::string{} : ns;
  impl::watch(impl_, scope);
  std::unique_lock lock{impl_->mutex};
  impl_->wake.wait_for(lock, wait, [&] {
    const auto& state = impl_->collections[scope];
    return state.listed || !state.error.empty();
  });
  const auto& state = impl_->collections[scope];
  if (!state.listed)
    return fail(where + ": the Secrets cannot be read: "
                + (state.error.empty() ? std::string{"no answer from the API yet"} : state.error));
  auto secret = impl_->secrets.find({ns, name});
  if (secret == impl_->secrets.end())
    return fail(where + ": Secret \"" + name + "\" not found in namespace " + ns);
  auto value = secret->second.find(key);
  if (value == secret->second.end() || !value->is_string())
    return fail(where + ": Secret \"" + name + "\" has no key \"" + key + "\"");
  auto decoded = dsl::base64_decode(value->get<std::string>());
  if (decoded.illegal_at)
    return fail(where + ": data is not base64");
  auto out = std::move(decoded.bytes);
  if (!out.empty() && out.back() == '\n')
    out.pop_back();
  if (!out.empty() && out.back() == '\r')
    out.pop_back();
  return out;
}

void cluster_secrets::on_change(std::function<void()> changed) {
  std::lock_guard guard{impl_->mutex};
  impl_->changed = std::move(changed);
}

const std::string& cluster_secrets::default_namespace() const noexcept {
  return impl_->default_namespace;
}

} // namespace ganglion::kubernetes
