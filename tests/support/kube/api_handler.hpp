#pragma once

// What the server answers to a request, independent of the connection it came on.

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "faults.hpp"
#include "impersonation.hpp"
#include "rbac.hpp"
#include "store.hpp"

namespace ganglion::test::kube {

/// One API request, as the connection read it.
struct api_call {
  std::string method;
  std::string target;
  std::string content_type;
  /// The `Accept` header.
  std::string accept;
  std::string body;
  bool authenticated = false;
  /// `system:anonymous`, the client certificate's CN and O, or the token's user; after
  /// handle(), the user the request acts as (impersonated).
  user_info user{"system:anonymous", {"system:unauthenticated"}};
  /// The `Impersonate-*` headers.
  impersonation_headers impersonation{};
  /// After handle(): the authenticated user when it impersonated `user`, else "".
  std::string impersonated_by{};
};

/// A watch stream to open.
struct watch_request {
  resource_type type;
  watch_filter filter;
  std::string from_version;
  bool bookmarks = false;
  /// `timeoutSeconds`; none when absent.
  std::optional<std::chrono::seconds> timeout;
};

/// The answer: a JSON body, or a watch stream to open.
struct api_reply {
  int status = 200;
  json body;
  /// Sent as text/plain instead of `body` when set (`/healthz`).
  std::optional<std::string> text;
  /// The Content-Type of `text` when not text/plain (`/openapi/v2` as protobuf).
  std::optional<std::string> content_type;
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<watch_request> watch;
};

/// A request's path and its decoded query parameters.
struct parsed_target {
  std::vector<std::string> segments;
  std::map<std::string, std::string> query;
};

/// Splits `target` into path segments and URL-decoded query parameters.
parsed_target parse_target(const std::string& target);

/// Answers API requests from a store, with the test's faults, requiring authentication when
/// `auth_required`, impersonating and authorizing through `authorize`.
class api_handler {
public:
  api_handler(store& objects, faults& injected, const authorizer& authorize, bool auth_required,
              std::string address);

  /// The reply to `call`, whose user becomes the one it acts as; never throws.
  api_reply handle(api_call& call) const;

private:
  api_reply route(const api_call& call, const parsed_target& target) const;
  /// `/openapi/v2` and `/openapi/v3/…` (openapi.hpp).
  api_reply openapi(const api_call& call, const std::vector<std::string>& segments) const;
  api_reply serve_resource(const api_call& call, const parsed_target& target,
                           const std::string& group, const std::string& version,
                           std::vector<std::string> rest) const;

  store& store_;
  faults& faults_;
  const authorizer& authorizer_;
  bool auth_required_;
  std::string address_;
};

/// The object verbs behind a resource URL (object_verbs.cpp).
namespace verbs {
/// A target's resource, namespace, object name and subresource.
struct where {
  resource_type type;
  std::string ns;
  std::string name;
  std::string subresource;
};
api_reply get(store& objects, const where& at);
api_reply list(store& objects, const where& at, const parsed_target& target);
api_reply create(store& objects, const where& at, const api_call& call);
api_reply update(store& objects, const where& at, const api_call& call);
api_reply patch(store& objects, const where& at, const api_call& call, const parsed_target& target);
api_reply remove(store& objects, const where& at);
/// The watch a `?watch=true` request asks for.
watch_request watch(const where& at, const parsed_target& target);
} // namespace verbs

} // namespace ganglion::test::kube
