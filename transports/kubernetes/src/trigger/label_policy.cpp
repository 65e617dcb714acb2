#include "trigger/label_policy.hpp"

#include <random>

#include <nlohmann/json.hpp>

#include "ganglion/core/internal/retry_schedule.hpp"

namespace ganglion::kubernetes::detail {

namespace {

bool labels_match(const nlohmann::json& object, const std::map<std::string, std::string>& want) {
  auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object())
    return false;
  auto labels = metadata->find("labels");
  if (labels == metadata->end() || !labels->is_object())
    return false;
  for (const auto& [key, value] : want) {
    auto found = labels->find(key);
    if (found == labels->end() || !found->is_string() || found->get<std::string>() != value)
      return false;
  }
  return true;
}

} // namespace

bool stoppable_sleep::sleep_for(std::chrono::nanoseconds d) {
  std::unique_lock lock{mutex_};
  return !cv_.wait_for(lock, d, [&] { return stopped_; });
}

void stoppable_sleep::stop() {
  {
    std::lock_guard guard{mutex_};
    stopped_ = true;
  }
  cv_.notify_all();
}

bool stoppable_sleep::stopped() const {
  std::lock_guard guard{mutex_};
  return stopped_;
}

label_wait wait_for_labels(api_client& client, const std::string& object_path,
                           const dsl::k8s_resource_policy& policy, stoppable_sleep& sleep,
                           std::string& error) {
  // An absent backoff is Argo's DefaultBackoff, which an engaged empty one gives.
  core::retry_schedule schedule{policy.backoff_ ? policy.backoff_ : dsl::backoff{}};
  thread_local std::mt19937_64 random{std::random_device{}()};
  std::uniform_real_distribution<double> unit{0.0, 1.0};
  for (std::uint32_t attempt = 0; attempt < schedule.attempts(); ++attempt) {
    api_request get;
    get.path = object_path;
    auto response = client.call(std::move(get));
    if (!response.ok()) {
      error = response.message();
      return label_wait::failed;
    }
    auto object = nlohmann::json::parse(response.body, nullptr, false);
    if (labels_match(object, policy.labels))
      return label_wait::matched;
    if (attempt + 1 == schedule.attempts())
      break;
    if (!sleep.sleep_for(schedule.delay(attempt, unit(random)))) {
      error = "the trigger stopped while waiting for the labels";
      return label_wait::failed;
    }
  }
  return label_wait::timed_out;
}

} // namespace ganglion::kubernetes::detail
