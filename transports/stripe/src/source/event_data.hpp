#pragma once

// A request body as Argo's stripe source reads it (json.Unmarshal into stripe-go v70.15's
// *stripe.Event) and the event data it publishes (json.Marshal of StripeEventData).

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::stripe::detail {

/// One Stripe event as the source publishes it.
struct stripe_event {
  /// `type` (what eventFilter matches); empty for a `null` body.
  std::string type;
  /// `{"event":{…},"metadata":{…}}`: stripe.Event's fields in its order (`account`, `created`,
  /// `data` with `previous_attributes` and the raw `object`, `id`, `livemode`,
  /// `pending_webhooks`, `request`, `type`), other keys dropped; `{"event":null}` for `null`.
  std::string data;
  /// False for a `null` body (Argo then has no event to filter).
  bool present = true;
};

/// The event of `body`, nullopt with `error` set (Go's reason) when json.Unmarshal into
/// *stripe.Event fails: not JSON, a field of another type, `data` without `object`, `object`
/// neither an object nor null. Keys match the fields case-insensitively, the last of duplicates
/// wins, as in Go.
std::optional<stripe_event> read_stripe_event(std::string_view body,
                                              const std::map<std::string, std::string>& metadata,
                                              std::string& error);

} // namespace ganglion::stripe::detail
