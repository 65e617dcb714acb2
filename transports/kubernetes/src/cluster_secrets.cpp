#include "ganglion/kubernetes/cluster_secrets.hpp"

#include <condition_variable>
#include <map>
#include <mutex>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/kubernetes/watch.hpp"

namespace ganglion::kubernetes {

namespace {

using json = nlohmann::json;

/// A Secret's `data` as JSON (base64 values), and its name; nullopt for anything else.
std::optional<std::pair<std::string, json>> secret_of(const std::string& text) {
  auto j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("metadata") || !j["metadata"].is_object())
    return std::nullopt;
  auto name = j["metadata"].value("name", "");
  if (name.empty())
    return std::nullopt;
  auto data = j.contains("data") && j["data"].is_object() ? j["data"] : json::object();
  return std::pair{std::move(name), std::move(data)};
}

} // namespace

struct cluster_secrets::impl {
  std::string namespace_name;
  std::string collection;
  mutable std::mutex mutex;
  mutable std::condition_variable wake;
  std::map<std::string, json> secrets;
  bool listed = false;
  std::string error;
  std::unique_ptr<watcher> watch;
};

cluster_secrets::cluster_secrets(std::shared_ptr<api_client> client, std::string namespace_name)
  : impl_(std::make_shared<impl>()) {
  impl_->namespace_name = std::move(namespace_name);
  impl_->collection = "/api/v1/namespaces/" + impl_->namespace_name + "/secrets";
  std::weak_ptr<impl> weak = impl_;
  watch_handlers handlers;
  handlers.on_list = [weak](std::vector<std::string> items) {
    auto self = weak.lock();
    if (!self)
      return;
    std::map<std::string, json> now;
    for (const auto& text : items)
      if (auto s = secret_of(text))
        now.emplace(std::move(s->first), std::move(s->second));
    std::lock_guard guard{self->mutex};
    self->secrets = std::move(now);
    self->listed = true;
    self->error.clear();
    self->wake.notify_all();
  };
  handlers.on_event = [weak](const watch_event& e) {
    auto self = weak.lock();
    auto s = secret_of(e.object);
    if (!self || !s)
      return;
    std::lock_guard guard{self->mutex};
    if (e.type == "DELETED")
      self->secrets.erase(s->first);
    else
      self->secrets[s->first] = std::move(s->second);
  };
  handlers.on_error = [weak](const std::string& error) {
    auto self = weak.lock();
    if (!self)
      return;
    std::lock_guard guard{self->mutex};
    self->error = error;
    self->wake.notify_all();
  };
  // The client outlives the watch: it is shared, and the watch is destroyed first.
  impl_->watch = std::make_unique<watcher>(*client, impl_->collection, std::move(handlers));
  client_ = std::move(client);
}

cluster_secrets::~cluster_secrets() {
  impl_->watch.reset();
}

std::optional<std::string> cluster_secrets::read(const std::string& name, const std::string& key,
                                                 std::string* error,
                                                 std::chrono::milliseconds wait) const {
  auto fail = [&](std::string why) -> std::optional<std::string> {
    if (error)
      *error = std::move(why);
    return std::nullopt;
  };
  auto where = "secret " + name + "/" + key + " (namespace " + impl_->namespace_name + ")";
  std::unique_lock lock{impl_->mutex};
  impl_->wake.wait_for(lock, wait, [this] { return impl_->listed || !impl_->error.empty(); });
  if (!impl_->listed)
    return fail(
      where + ": the Secrets cannot be read: "
      + (impl_->error.empty() ? std::string{"no answer from the API yet"} : impl_->error));
  auto secret = impl_->secrets.find(name);
  if (secret == impl_->secrets.end())
    return fail(where + ": Secret \"" + name + "\" not found");
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

const std::string& cluster_secrets::namespace_name() const noexcept {
  return impl_->namespace_name;
}

} // namespace ganglion::kubernetes
