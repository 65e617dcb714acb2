#include "ganglion/kubernetes/watch.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include <curl/curl.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "client/client_impl.hpp"
#include "client/watch_impl.hpp"

namespace ganglion::kubernetes {

namespace {

using nlohmann::json;
using namespace std::chrono_literals;

std::string string_at(const json& object, const char* key) {
  if (!object.is_object())
    return {};
  auto i = object.find(key);
  return i != object.end() && i->is_string() ? i->get<std::string>() : std::string();
}

std::string escaped(const std::string& text) {
  char* out = curl_easy_escape(nullptr, text.c_str(), static_cast<int>(text.size()));
  std::string result = out ? out : "";
  curl_free(out);
  return result;
}

/// Runs a handler; what it throws is logged, not propagated into the watcher's loop.
template <typename F>
void guarded(const std::string& collection, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    spdlog::error("kubernetes watch {}: a handler threw: {}", collection, e.what());
  }
}

} // namespace

watcher::impl::impl(api_client& c, watch_client_parts p, std::string coll, watch_handlers h,
                    watch_options o)
  : client(c), parts(p), collection(std::move(coll)), handlers(std::move(h)), options(o) {
  multi = curl_multi_init();
  if (!multi)
    throw std::runtime_error("kubernetes watch " + collection + ": curl_multi_init failed");
  if (options.page_size <= 0)
    options.page_size = 500;
  if (options.min_backoff <= 0ms)
    options.min_backoff = 1ms;
  options.max_backoff = std::max(options.max_backoff, options.min_backoff);
}

watcher::impl::~impl() {
  curl_multi_cleanup(static_cast<CURLM*>(multi));
}

std::string watcher::impl::url_path(const std::string& extra) const {
  auto path = collection + (collection.find('?') == std::string::npos ? "?" : "&") + extra;
  if (!options.label_selector.empty())
    path += "&labelSelector=" + escaped(options.label_selector);
  if (!options.field_selector.empty())
    path += "&fieldSelector=" + escaped(options.field_selector);
  return path;
}

std::string watcher::impl::version() const {
  std::lock_guard guard{version_mutex};
  return last_version;
}

void watcher::impl::set_version(std::string version) {
  if (version.empty())
    return;
  std::lock_guard guard{version_mutex};
  last_version = std::move(version);
}

void watcher::impl::report(const std::string& error) {
  if (handlers.on_error)
    guarded(collection, [&] { handlers.on_error(error); });
  else
    spdlog::warn("kubernetes: {}", error);
}

std::optional<api_response> watcher::impl::fetch(api_request request) {
  {
    std::lock_guard guard{signal->mutex};
    signal->response.reset();
  }
  client.request(std::move(request), [s = signal](api_response response) {
    std::lock_guard guard{s->mutex};
    s->response = std::move(response);
    s->wake.notify_all();
  });
  std::unique_lock lock{signal->mutex};
  signal->wake.wait(lock, [&] { return signal->stopping || signal->response.has_value(); });
  if (signal->stopping)
    return std::nullopt;
  return std::move(signal->response);
}

bool watcher::impl::wait(std::chrono::milliseconds delay) {
  std::unique_lock lock{signal->mutex};
  return !signal->wake.wait_for(lock, delay, [&] { return signal->stopping; });
}

bool watcher::impl::list() {
  std::vector<std::string> objects;
  std::string next;
  std::string list_version;
  do {
    auto extra = "limit=" + std::to_string(options.page_size);
    if (!next.empty())
      extra += "&continue=" + escaped(next);
    auto path = url_path(extra);
    auto response = fetch(api_request{.path = path});
    if (!response)
      return false;
    if (!response->ok()) {
      report("list " + collection + ": " + response->message());
      return false;
    }
    auto page = json::parse(response->body, nullptr, false);
    auto items = page.is_object() ? page.find("items") : page.end();
    if (!page.is_object() || (items != page.end() && !items->is_null() && !items->is_array())) {
      report("list " + collection + ": the response is not a list");
      return false;
    }
    // Items of a built-in kind's list carry no kind and apiVersion: the list's tell them.
    auto list_kind = string_at(page, "kind");
    auto kind = list_kind.ends_with("List") ? list_kind.substr(0, list_kind.size() - 4) : "";
    auto api_version = string_at(page, "apiVersion");
    if (items != page.end() && items->is_array()) {
      for (auto& item : *items) {
        if (item.is_object() && !item.contains("kind") && !kind.empty())
          item["kind"] = kind;
        if (item.is_object() && !item.contains("apiVersion") && !api_version.empty())
          item["apiVersion"] = api_version;
        objects.push_back(item.dump());
      }
    }
    const auto& metadata = page.contains("metadata") ? page["metadata"] : json();
    list_version = string_at(metadata, "resourceVersion");
    next = string_at(metadata, "continue");
  } while (!next.empty() && !stop);
  if (stop)
    return false;
  set_version(list_version);
  if (handlers.on_list)
    guarded(collection, [&] { handlers.on_list(std::move(objects)); });
  return true;
}

void watcher::impl::run() {
  auto backoff = options.min_backoff;
  auto grow = [&] { backoff = std::min(backoff * 2, options.max_backoff); };
  bool listed = false;
  while (!stop) {
    if (!listed) {
      listed = list();
      if (listed) {
        backoff = options.min_backoff;
      } else if (!stop) {
        wait(backoff);
        grow();
      }
      continue;
    }
    std::string error;
    bool received = false;
    auto opened = std::chrono::steady_clock::now();
    switch (watch(error, received)) {
      case watch_end::stopped: return;
      case watch_end::closed:
        parts.metrics->watch_restart("closed");
        backoff = options.min_backoff;
        // A stream the server ends at once would otherwise be opened again in a tight loop.
        if (!received && std::chrono::steady_clock::now() - opened < 1s)
          wait(options.min_backoff);
        break;
      case watch_end::expired:
        parts.metrics->watch_restart("expired");
        listed = false;
        break;
      case watch_end::failed:
        parts.metrics->watch_restart("error");
        report("watch " + collection + ": " + error);
        wait(backoff);
        grow();
        break;
    }
  }
}

watcher::watcher(api_client& client, std::string collection, watch_handlers handlers,
                 watch_options options) {
  auto& state = *client.impl_;
  watch_client_parts parts{&state.config, &state.token, &state.metrics,
                           state.options.request_timeout, client.acting_user()};
  impl_ =
    std::make_unique<impl>(client, parts, std::move(collection), std::move(handlers), options);
  impl_->thread = std::thread([state = impl_.get()] { state->run(); });
}

watcher::~watcher() {
  {
    std::lock_guard guard{impl_->signal->mutex};
    impl_->signal->stopping = true;
  }
  impl_->stop = true;
  impl_->signal->wake.notify_all();
  curl_multi_wakeup(static_cast<CURLM*>(impl_->multi));
  if (impl_->thread.joinable())
    impl_->thread.join();
}

std::string watcher::resource_version() const {
  return impl_->version();
}

} // namespace ganglion::kubernetes
