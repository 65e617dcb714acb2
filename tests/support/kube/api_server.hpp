#pragma once

// A test Kubernetes API server on 127.0.0.1 (README.md in this folder says what it emulates).

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ganglion::test::kube {

using json = nlohmann::json;

/// A user as authentication (or impersonation) establishes it.
struct user_info {
  std::string name;
  /// Its groups; `system:authenticated` (and a service account's groups) are added by the
  /// server, so a test names only its own.
  std::vector<std::string> groups{};
};

/// How a test server is started.
struct server_options {
  /// HTTPS with a CA generated for this server (ca_pem()); plain HTTP otherwise.
  bool tls = false;
  /// Bearer tokens accepted; when non-empty, a request without one of them (or a client
  /// certificate when require_client_certificate) gets `401 Unauthorized`.
  std::vector<std::string> tokens;
  /// A request must present a client certificate signed by the CA (or one of `tokens`);
  /// requires `tls`.
  bool require_client_certificate = false;
  /// Watch events kept for replay; a watch from an older resourceVersion gets `410 Expired`.
  std::size_t history_limit = 1000;
  /// Interval of BOOKMARK events on watches that ask for them (`allowWatchBookmarks=true`).
  std::chrono::milliseconds bookmark_interval{1000};
  /// Seed the namespaces `default` and `kube-system` (as a real cluster has them).
  bool seed_namespaces = true;
  /// The 127.0.0.1 port to listen on; 0: a free one.
  std::uint16_t port = 0;
  /// Bearer tokens that authenticate as a given user (accepted as `tokens` are). A token of
  /// `tokens` only is the user `token-user` in the group `system:masters` (unrestricted).
  std::map<std::string, user_info> token_users{};
  /// Enforce RBAC (README.md, "RBAC and impersonation"): serve Roles, ClusterRoles, their
  /// bindings and ServiceAccounts, seed Kubernetes' bootstrap policy, and authorize every
  /// request as an API server does. Off: every authenticated request is allowed (only
  /// `forbid()` refuses); impersonation headers still set the request's user.
  bool rbac = false;
  /// Users that bypass RBAC.
  std::vector<std::string> admin_users{"system:admin"};
  /// Groups whose members bypass RBAC (as `system:masters` does in Kubernetes).
  std::vector<std::string> admin_groups{"system:masters"};
};

/// A rule of a Role or ClusterRole (`rbac.authorization.k8s.io/v1` PolicyRule).
struct policy_rule {
  std::vector<std::string> api_groups; ///< "" for the core group, `*` for all
  std::vector<std::string> resources;  ///< plurals, `pods/status`, `*`, `*/status`
  std::vector<std::string> verbs;      ///< get, list, watch, create, …, impersonate, `*`
  std::vector<std::string> resource_names{};

  /// The rule as Kubernetes writes it (`apiGroups`, `resources`, `verbs`, `resourceNames`).
  json to_json() const;
};

/// A subject of a RoleBinding or ClusterRoleBinding.
struct rbac_subject {
  std::string kind; ///< `User`, `Group` or `ServiceAccount`
  std::string name;
  std::string ns{}; ///< a ServiceAccount's namespace

  /// The service account `ns`/`name` (user `system:serviceaccount:<ns>:<name>`).
  static rbac_subject service_account(std::string ns, std::string name);
  static rbac_subject user(std::string name);
  static rbac_subject group(std::string name);
  /// The subject as Kubernetes writes it (`kind`, `name`, `apiGroup` or `namespace`).
  json to_json() const;
};

/// A resource the server serves (a row of discovery).
struct resource_type {
  std::string group; ///< "" for the core group
  std::string version;
  std::string kind;
  std::string plural;
  bool namespaced = true;
  /// A status subresource: `<plural>/status` in discovery; writes to the object keep `status`.
  bool has_status = false;
  /// Discovery's `shortNames` (`po`, `wf` …): what `kubectl get po` resolves.
  std::vector<std::string> short_names{};

  /// `v1` or `group/version`.
  std::string api_version() const;
};

/// A client certificate and its key, PEM, signed by the server's CA.
struct client_credentials {
  std::string certificate_pem;
  std::string key_pem;
};

/// One request the server received.
struct request_record {
  std::string method;
  /// Path and query, as sent.
  std::string target;
  std::string content_type;
  std::string body;
  /// A valid bearer token or client certificate was presented (always true without auth).
  bool authenticated = false;
  /// The status answered (200 for a watch stream).
  int status = 0;
  /// The user the request acted as: the impersonated one when impersonating, else the
  /// authenticated one (`system:anonymous` without credentials).
  std::string user{};
  /// That user's groups (`system:authenticated` … included).
  std::vector<std::string> groups{};
  /// The authenticated user that impersonated `user`; "" when not impersonating.
  std::string impersonated_by{};
};

/// A write the server made, as a write hook sees it.
struct write_event {
  /// `create`, `update`, `patch`, `delete`, or `put` (a test's put()/update()).
  std::string verb;
  /// The subresource written: "" or `status`.
  std::string subresource;
  /// The object as stored (for `delete`, as it was).
  json object;
};

/// Called after a write to a resource, on the server's hook thread (never while the server
/// holds a lock), one at a time in write order: it may call put(), update(), remove().
using write_hook = std::function<void(const write_event&)>;

/// A Kubernetes API server for tests: discovery, CRUD with resourceVersion and 409s, patches,
/// the status subresource, list chunking, selectors, watch streams with replay, bookmarks and
/// 410, bearer-token / client-certificate auth over HTTP or HTTPS. Runs on its own threads
/// from construction; serves connections concurrently with keep-alive; stops when destroyed.
/// Thread-safe.
class api_server {
public:
  /// Starts listening on a free 127.0.0.1 port. Throws std::runtime_error.
  explicit api_server(server_options options = {});
  /// Closes open watches and connections and joins the threads.
  ~api_server();
  api_server(const api_server&) = delete;
  api_server& operator=(const api_server&) = delete;

  std::uint16_t port() const;
  /// `http://127.0.0.1:<port>` or `https://…`, no trailing slash.
  std::string url() const;
  /// The CA that signed the server certificate (PEM); "" without TLS.
  std::string ca_pem() const;
  /// A client certificate for `user` (its CN; `groups` its O entries) signed by the CA.
  /// Throws std::logic_error without TLS.
  client_credentials issue_client_certificate(const std::string& user = "test-user",
                                              const std::vector<std::string>& groups = {}) const;
  /// A kubeconfig (YAML) whose current context reaches this server with `token`, or with
  /// `credentials` when given; the CA inline (`certificate-authority-data`); `ns` as the
  /// context's namespace.
  std::string kubeconfig(const std::string& token = {},
                         const std::optional<client_credentials>& credentials = std::nullopt,
                         const std::string& ns = "default") const;

  // Resources

  /// Serves a resource (a CRD, for discovery and CRUD); replaces one of the same group,
  /// version and plural.
  void add_resource(const std::string& group, const std::string& version, const std::string& kind,
                    const std::string& plural, bool namespaced = true, bool has_status = false);
  /// Serves `type` (with its short names); replaces one of the same group, version and plural.
  /// Creating a CustomResourceDefinition through the API does the same.
  void add_resource(resource_type type);
  /// Stops serving a resource (its objects are dropped; discovery no longer lists it).
  void remove_resource(const std::string& group, const std::string& version,
                       const std::string& plural);
  /// The resources served, in discovery order.
  std::vector<resource_type> resources() const;

  // Objects, directly (no auth, no fail_next, no forbid; watches and hooks see the writes)

  /// Creates or replaces `object` (its apiVersion, kind, metadata.name and, when namespaced,
  /// metadata.namespace — `default` when absent) whatever its resourceVersion, status
  /// included; fills uid, resourceVersion, creationTimestamp, generation. Returns it as stored.
  /// Throws std::invalid_argument for an unknown kind or a missing name.
  json put(json object);
  /// The object, or nullopt. `kind` may be the kind (`ConfigMap`) or the plural (`configmaps`);
  /// `ns` is ignored for a cluster-scoped resource.
  std::optional<json> get(std::string_view api_version, std::string_view kind, std::string_view ns,
                          std::string_view name) const;
  /// The objects of a resource in `ns` (every namespace when empty), sorted by namespace and
  /// name.
  std::vector<json> list(std::string_view api_version, std::string_view kind,
                         std::string_view ns = {}) const;
  /// Changes an object in place through `change` (e.g. sets status or labels, as a controller
  /// would), then stores it as put() does. Returns the stored object, nullopt when absent.
  /// `change` runs under the server's lock: it must not call the server.
  std::optional<json> update(std::string_view api_version, std::string_view kind,
                             std::string_view ns, std::string_view name,
                             const std::function<void(json&)>& change);
  /// Deletes an object; false when absent.
  bool remove(std::string_view api_version, std::string_view kind, std::string_view ns,
              std::string_view name);
  /// The last resourceVersion the server gave out.
  std::string resource_version() const;

  /// Runs `hook` after every write (API or direct) to the resource `kind` (kind or plural) of
  /// `api_version`, on the hook thread. Returns an id for remove_hook().
  int on_write(std::string_view api_version, std::string_view kind, write_hook hook);
  /// Removes a hook (later writes do not run it).
  void remove_hook(int id);

  // Watches

  /// Drops the whole watch history: a watch from any earlier resourceVersion then gets `410`.
  void compact();
  /// Ends every open watch stream (as an API server restart or a timeout would).
  void close_watches();
  /// The number of watch streams open now.
  std::size_t open_watches() const;
  /// Sets the interval of BOOKMARK events (for streams opened from now on).
  void set_bookmark_interval(std::chrono::milliseconds interval);

  // RBAC (server_options::rbac)

  /// Creates (or replaces) a Role `name` in `ns` with `rules` and a RoleBinding `name` in `ns`
  /// of it to `subjects`; with `ns` empty, a ClusterRole and a ClusterRoleBinding. Returns
  /// the binding as stored.
  json grant(const std::string& ns, const std::string& name, const std::vector<policy_rule>& rules,
             const std::vector<rbac_subject>& subjects);
  /// grant() to the service account `ns`/`service_account`, in `ns`, named after it.
  json grant_service_account(const std::string& ns, const std::string& service_account,
                             const std::vector<policy_rule>& rules);

  // Faults

  /// The next `count` API requests get `status` (a Status with the usual reason; a
  /// `Retry-After: retry_after_seconds` header when > 0). Only requests whose target starts
  /// with `path_prefix` count, when given.
  void fail_next(int count, int status, int retry_after_seconds = 0,
                 const std::string& path_prefix = {});
  /// API requests of `verb` (get, list, watch, create, update, patch, delete; `*` for all) on
  /// `resource` (a plural, `pods/status` for the subresource, `*` for all) get `403 Forbidden`.
  void forbid(const std::string& verb, const std::string& resource);
  /// Undoes every forbid().
  void allow_all();

  // Requests received

  /// Every request received so far, in arrival order.
  std::vector<request_record> requests() const;
  /// The requests whose method is `method` (any when empty) and whose path (before `?`)
  /// starts with `path_prefix`.
  std::vector<request_record> requests(std::string_view method, std::string_view path_prefix) const;
  /// The users (record.user) of requests() with `method` and `path_prefix`, in order.
  std::vector<std::string> users_of(std::string_view method, std::string_view path_prefix) const;
  /// Forgets the requests received so far.
  void clear_requests();
  /// Waits until a received request satisfies `match`; false when `limit` passes first.
  bool wait_for_request(const std::function<bool(const request_record&)>& match,
                        std::chrono::milliseconds limit = std::chrono::seconds(10)) const;
  /// Waits until the object exists and satisfies `match` (any when empty); returns it, or
  /// nullopt when `limit` passes first.
  std::optional<json> wait_for_object(
    std::string_view api_version, std::string_view kind, std::string_view ns, std::string_view name,
    const std::function<bool(const json&)>& match = {},
    std::chrono::milliseconds limit = std::chrono::seconds(10)) const;
  /// Waits until the object is absent; false when `limit` passes first.
  bool wait_for_absent(std::string_view api_version, std::string_view kind, std::string_view ns,
                       std::string_view name,
                       std::chrono::milliseconds limit = std::chrono::seconds(10)) const;
  /// Waits until `count` watch streams are open; false when `limit` passes first.
  bool wait_for_watches(std::size_t count,
                        std::chrono::milliseconds limit = std::chrono::seconds(10)) const;

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test::kube
