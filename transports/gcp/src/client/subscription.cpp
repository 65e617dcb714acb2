#include "client/subscription.hpp"

#include <nlohmann/json.hpp>

namespace ganglion::gcp::detail {

namespace {

/// Whether the subscription exists; nullopt when stopping.
std::optional<bool> subscription_exists(api& pubsub, const std::string& subscription,
                                        bool emulator) {
  auto path = "/v1/" + subscription;
  if (emulator) {
    try {
      return pubsub.call("GET", path, {}).has_value() ? std::optional{true} : std::nullopt;
    } catch (const api_error& e) {
      if (e.status == 404)
        return false;
      throw api_error("failed to check if subscription " + subscription + " exists: " + e.what(),
                      e.status, e.code);
    }
  }
  try {
    auto answer = pubsub.call("POST", path + ":testIamPermissions",
                              R"({"permissions":["pubsub.subscriptions.consume"]})");
    if (!answer)
      return std::nullopt;
    auto j = nlohmann::json::parse(*answer, nullptr, false);
    auto granted = j.is_object() && j.contains("permissions") && j["permissions"].is_array()
                     ? j["permissions"].size()
                     : 0;
    if (granted != 1)
      throw api_error("you lack permission to pull from " + subscription, 200, {});
    return true;
  } catch (const api_error& e) {
    if (e.status == 404)
      return false;
    if (e.status == 200)
      throw;
    throw api_error("failed to test permission for subscription " + subscription + ", " + e.what(),
                    e.status, e.code);
  }
}

/// The topic the existing subscription belongs to; nullopt when stopping.
std::optional<std::string> topic_of(api& pubsub, const std::string& subscription) {
  try {
    auto answer = pubsub.call("GET", "/v1/" + subscription, {});
    if (!answer)
      return std::nullopt;
    auto j = nlohmann::json::parse(*answer, nullptr, false);
    return j.is_object() && j.contains("topic") && j["topic"].is_string()
             ? j["topic"].get<std::string>()
             : std::string{};
  } catch (const api_error& e) {
    throw api_error(std::string{"failed to get subscription's config for verifying topic, "}
                      + e.what(),
                    e.status, e.code);
  }
}

/// PUT of the subscription on `topic`; false when stopping.
bool create_subscription(api& pubsub, const subscription_names& names) {
  nlohmann::json body{{"topic", names.topic}};
  return pubsub.call("PUT", "/v1/" + names.subscription, body.dump()).has_value();
}

} // namespace

bool prepare_subscription(api& pubsub, const subscription_names& names, bool emulator) {
  auto exists = subscription_exists(pubsub, names.subscription, emulator);
  if (!exists)
    return false;
  if (names.topic.empty()) {
    if (!*exists)
      throw api_error("you need to specify topicID to create missing subscription "
                        + names.subscription,
                      404, "NOT_FOUND");
    return true;
  }
  if (*exists) {
    auto actual = topic_of(pubsub, names.subscription);
    if (!actual)
      return false;
    if (*actual == "_deleted-topic_")
      throw api_error("the topic for the subscription has been deleted", 200, {});
    if (*actual != names.topic)
      throw api_error("this subscription belongs to wrong topic " + *actual, 200, {});
    return true;
  }
  auto failed_to_create = [&](const api_error& e) {
    return api_error("failed to create " + names.subscription + " for " + names.topic + ", "
                       + e.what(),
                     e.status, e.code);
  };
  try {
    return create_subscription(pubsub, names);
  } catch (const api_error& e) {
    if (e.status != 404)
      throw failed_to_create(e);
  }
  try { // the topic does not seem to exist either
    if (!pubsub.call("PUT", "/v1/" + names.topic, "{}"))
      return false;
  } catch (const api_error& e) {
    throw api_error("failed to create " + names.topic + ", " + e.what(), e.status, e.code);
  }
  try {
    return create_subscription(pubsub, names);
  } catch (const api_error& e) {
    throw failed_to_create(e);
  }
}

void delete_subscription(api& pubsub, const std::string& subscription) {
  pubsub.call("DELETE", "/v1/" + subscription, {});
}

} // namespace ganglion::gcp::detail
