#pragma once

// The subscription a pubSub source pulls from, prepared as Argo's prepareSubscription does:
//
// subscription exists | topic given | topic exists | action
// no                  | no          | -            | error
// yes                 | no          | -            | nothing
// yes                 | yes         | -            | verify the subscription's topic
// no                  | yes         | yes          | create the subscription
// no                  | yes         | no           | create the topic and the subscription

#include <string>

#include "client/api.hpp"

namespace ganglion::gcp::detail {

/// The names of one source's resources.
struct subscription_names {
  std::string subscription; ///< `projects/<projectID>/subscriptions/<subscriptionID>`
  std::string topic;        ///< `projects/<topicProjectID>/topics/<topic>`; empty: no topic
};

/// Prepares `names.subscription`. With the emulator, existence is a GET of the subscription;
/// otherwise Argo's trick, `:testIamPermissions` for `pubsub.subscriptions.consume`. Throws
/// api_error with Argo's messages; returns false when stopping.
bool prepare_subscription(api& pubsub, const subscription_names& names, bool emulator);

/// Deletes the subscription (deleteSubscriptionOnFinish). Throws api_error.
void delete_subscription(api& pubsub, const std::string& subscription);

} // namespace ganglion::gcp::detail
