#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "ganglion/http/hook_registrar.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::storagegrid::detail {

using namespace dsl::detail;

void check_event(const event_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  if (s.topic_arn.empty())
    cx.error(child_path(at, "topicArn"), "topic arn must be provided");
  if (s.api_url.empty())
    cx.error(child_path(at, "apiURL"), "api url must be provided");
  if (!s.auth_token)
    cx.error(child_path(at, "authToken"), "api auth token must be provided");
  check_secret(s.auth_token, child_path(at, "authToken"), cx);
  if (s.bucket.empty())
    cx.error(child_path(at, "bucket"), "bucket name must be provided");
  if (!s.events)
    cx.error(child_path(at, "events"), "event types must be provided");
  // *ganglion*: Argo checks tls only when it builds the API client (GetTLSConfig, at every
  // start); validate reports the same mistakes.
  check_tls(s.tls, child_path(at, "tls"), cx);
  if (s.webhook.url.empty())
    cx.warning(child_path(child_path(at, "webhook"), "url"),
               "webhook.url is empty: a StorageGRID endpoint made for topicArn gets the URI \""
                 + http::formatted_url({}, s.webhook.endpoint)
                 + "\", which StorageGRID cannot reach (Argo's FormattedURL)");
  if (!s.region.empty())
    cx.warning(child_path(at, "region"), "ignored: Argo reads region but uses it nowhere");
}

} // namespace ganglion::storagegrid::detail
