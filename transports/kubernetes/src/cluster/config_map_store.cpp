// A ConfigMap as an event source's store: where Argo's calendar keeps its last tick.

#include "ganglion/kubernetes/config_map_store.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/acting_identity.hpp"
#include "client/object_names.hpp"
#include "client/shared_client.hpp"
#include "ganglion/dsl/model/event_source.hpp"

namespace ganglion::kubernetes {

namespace {

constexpr int save_attempts = 5;
constexpr auto first_retry = std::chrono::milliseconds(200);

/// The ConfigMap and the client that reads and writes it.
struct config_map_target {
  std::shared_ptr<api_client> client;
  std::string namespace_name;
  std::string name;
  bool create = false;

  std::string path() const {
    return "/api/v1/namespaces/" + namespace_name + "/configmaps/" + name;
  }

  std::string label() const {
    return "config map " + namespace_name + "/" + name + detail::as_user(client->acting_user());
  }

  std::string missing() const {
    return label()
           + " does not exist and createIfNotExist is false: create it, or set "
             "persistence.configMap.createIfNotExist: true";
  }

  /// Creates the ConfigMap, empty; one that exists already is fine.
  std::string create_map() const {
    api_request request;
    request.method = "POST";
    request.path = "/api/v1/namespaces/" + namespace_name + "/configmaps";
    request.body = nlohmann::json{{"apiVersion", "v1"},
                                  {"kind", "ConfigMap"},
                                  {"metadata", {{"name", name}, {"namespace", namespace_name}}}}
                     .dump();
    auto response = client->call(std::move(request));
    if (response.ok() || response.status == 409)
      return {};
    return "cannot create " + label() + ": " + response.message();
  }

  /// One attempt at `data[key] = value`; the error, or empty.
  std::string patch(const std::string& key, const std::string& value) const {
    api_request request;
    request.method = "PATCH";
    request.path = path();
    request.content_type = "application/merge-patch+json";
    request.body = nlohmann::json{{"data", {{key, value}}}}.dump();
    auto response = client->call(request);
    if (response.status == 404 && create) {
      if (auto error = create_map(); !error.empty())
        return error;
      response = client->call(std::move(request));
    }
    if (response.ok())
      return {};
    if (response.status == 404)
      return missing();
    return "cannot write " + label() + ": " + response.message();
  }
};

/// The saves not made yet; shared by the store and its thread, so that the store may be
/// destroyed on that thread (by a `done` that held the last reference to its user).
struct save_queue {
  struct waiting_save {
    std::string value;
    std::vector<core::source_store::save_done> done;
  };

  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::map<std::string, waiting_save> waiting;

  /// Waits `delay` unless the store stops; false when it does.
  bool pause(std::chrono::milliseconds delay) {
    std::unique_lock lock{mutex};
    return !wake.wait_for(lock, delay, [this] { return stopping; });
  }
};

/// Makes the saves of `queue` until the store stops and nothing waits.
void save_loop(std::shared_ptr<save_queue> queue, config_map_target target) {
  std::unique_lock lock{queue->mutex};
  for (;;) {
    queue->wake.wait(lock, [&] { return queue->stopping || !queue->waiting.empty(); });
    if (queue->waiting.empty())
      return;
    auto batch = std::exchange(queue->waiting, {});
    lock.unlock();
    for (auto& [key, save] : batch) {
      std::string error;
      auto delay = first_retry;
      for (int attempt = 1; attempt <= save_attempts; ++attempt, delay *= 2) {
        error = target.patch(key, save.value);
        if (error.empty() || attempt == save_attempts || !queue->pause(delay))
          break;
      }
      for (auto& done : save.done)
        done(error);
    }
    batch.clear();
    lock.lock();
  }
}

class config_map_store final : public core::source_store {
public:
  explicit config_map_store(config_map_target target)
    : target_(std::move(target)), queue_(std::make_shared<save_queue>()),
      thread_(save_loop, queue_, target_) {}

  ~config_map_store() override {
    {
      std::lock_guard guard{queue_->mutex};
      queue_->stopping = true;
    }
    queue_->wake.notify_all();
    // The waiting saves are made (without further retries) before the thread ends.
    if (thread_.get_id() == std::this_thread::get_id())
      thread_.detach();
    else
      thread_.join();
  }

  config_map_store(const config_map_store&) = delete;
  config_map_store& operator=(const config_map_store&) = delete;

  std::optional<std::string> load(const std::string& key) override {
    api_request request;
    request.path = target_.path();
    auto response = target_.client->call(std::move(request));
    if (response.status == 404) {
      if (!target_.create)
        throw std::runtime_error(target_.missing());
      if (auto error = target_.create_map(); !error.empty())
        throw std::runtime_error(error);
      return std::nullopt;
    }
    if (!response.ok())
      throw std::runtime_error("cannot read " + target_.label() + ": " + response.message());
    auto map = nlohmann::json::parse(response.body, nullptr, false);
    if (!map.is_object())
      throw std::runtime_error("the API's answer for " + target_.label()
                               + " is not a JSON object");
    auto data = map.find("data");
    if (data == map.end() || !data->is_object())
      return std::nullopt;
    auto value = data->find(key);
    if (value == data->end() || !value->is_string())
      return std::nullopt;
    return value->get<std::string>();
  }

  void save(const std::string& key, std::string value, save_done done) override {
    {
      std::lock_guard guard{queue_->mutex};
      auto& waiting = queue_->waiting[key];
      waiting.value = std::move(value);
      waiting.done.push_back(std::move(done));
    }
    queue_->wake.notify_all();
  }

  std::string where() const override { return "the " + target_.label(); }
  bool durable() const override { return true; }

private:
  config_map_target target_;
  std::shared_ptr<save_queue> queue_;
  std::thread thread_;
};

} // namespace

std::shared_ptr<core::source_store> make_config_map_store(std::shared_ptr<api_client> client,
                                                          std::string namespace_name,
                                                          std::string name, bool create) {
  if (!detail::dns_label(namespace_name))
    throw std::runtime_error("\"" + namespace_name + "\" is not a namespace name");
  if (!detail::dns_subdomain(name))
    throw std::runtime_error("configMap name \"" + name
                             + "\" is not a config map name (lowercase letters, digits, '-' "
                               "and '.', at most 253)");
  return std::make_shared<config_map_store>(
    config_map_target{std::move(client), std::move(namespace_name), std::move(name), create});
}

core::config_map_stores config_map_stores(options opts) {
  using store_key = std::tuple<std::string, std::string, std::string, bool>;
  struct shared_stores {
    std::mutex mutex;
    std::map<store_key, std::weak_ptr<core::source_store>> stores;
  };
  auto known = std::make_shared<shared_stores>();
  return [opts = std::move(opts), known](const dsl::event_source& owner, const std::string& name,
                                         bool create) -> std::shared_ptr<core::source_store> {
    std::shared_ptr<api_client> client;
    try {
      client = detail::shared_client(opts);
    } catch (const config_error& e) {
      throw std::runtime_error(std::string{"no usable Kubernetes configuration: "} + e.what());
    }
    detail::acting_identity identity;
    try {
      identity = detail::identity_for(opts.object_identity, client, owner.metadata.namespace_,
                                      owner.spec.service_account_name);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(std::string{"cannot act as the EventSource's service account: "}
                               + e.what());
    }
    auto ns = owner.metadata.namespace_.empty() ? client->config().default_namespace
                                                : owner.metadata.namespace_;
    std::lock_guard guard{known->mutex};
    auto& slot = known->stores[store_key{ns, name, identity.user, create}];
    if (auto store = slot.lock())
      return store;
    auto store = make_config_map_store(std::move(identity.client), ns, name, create);
    slot = store;
    return store;
  };
}

} // namespace ganglion::kubernetes
