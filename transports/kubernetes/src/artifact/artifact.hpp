#pragma once

// The trigger `source` of the k8s and argoWorkflow triggers: Argo's ArtifactLocation
// (pkg/apis/events/v1alpha1 sensor_types.go), its reader and rules in the dsl kind style, and
// fetching the object it names (Argo's pkg/sensors/artifacts, FetchKubernetesResource).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/kind/load_context.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::core {
class secret_store;
} // namespace ganglion::core

namespace ganglion::kubernetes {
class api_client;
} // namespace ganglion::kubernetes

namespace ganglion::kubernetes::detail {

/// `configmap` (Kubernetes ConfigMapKeySelector).
struct configmap_key_selector {
  std::string name;
  std::string key;
  bool optional = false;
};

/// `file` (FileArtifact).
struct file_artifact {
  std::string path;
};

/// `url` (URLArtifact).
struct url_artifact {
  std::string path;
  /// Argo's default is false: the server's certificate is not checked.
  bool verify_cert = false;
  /// Whether the manifest sets verifyCert (unset is warned about).
  bool verify_cert_set = false;
};

/// `git.creds` (GitCreds): HTTP basic credentials from secrets.
struct git_creds {
  std::optional<dsl::secret_key_selector> username;
  std::optional<dsl::secret_key_selector> password;
};

/// `git.remote` (GitRemoteConfig): a remote fetched besides `origin`.
struct git_remote {
  std::string name;
  std::vector<std::string> urls;
};

/// `git.githubApp` (GithubAppCreds): a GitHub App whose installation token is the password.
struct github_app_creds {
  /// The App's private key (PEM, RSA).
  std::optional<dsl::secret_key_selector> private_key;
  std::int64_t app_id = 0;
  std::int64_t installation_id = 0;
};

/// `git` (GitArtifact).
struct git_artifact {
  std::string url;
  /// Where the clone lives; empty: a folder of the fetcher's cache (see fetch_options).
  std::string clone_directory;
  std::optional<git_creds> creds;
  std::optional<dsl::secret_key_selector> ssh_key_secret;
  std::string file_path;
  std::string branch; ///< empty: `master`, as Argo
  std::string tag;    ///< wins over branch
  std::string ref;    ///< wins over tag (a full ref name, `refs/heads/x`, `refs/pull/1/head`)
  std::optional<git_remote> remote;
  bool insecure_ignore_host_key = false;
  /// Argo takes creds over githubApp over sshKeySecret.
  std::optional<github_app_creds> github_app;
};

/// `s3.bucket` (S3Bucket).
struct s3_bucket {
  std::string name;
  std::string key;
};

/// `s3` (S3Artifact): GetObject of `bucket.name`/`bucket.key` at `endpoint`, signed with
/// AWS Signature V4 (Argo's minio client).
struct s3_artifact {
  /// `host[:port]`, no scheme: `insecure` chooses http.
  std::string endpoint;
  std::optional<s3_bucket> bucket;
  /// Empty: `us-east-1`.
  std::string region;
  bool insecure = false;
  std::optional<dsl::secret_key_selector> access_key;
  std::optional<dsl::secret_key_selector> secret_key;
  /// Fields of the event source's S3Artifact that a trigger source ignores (warned about).
  std::vector<std::string> ignored;
};

/// Which location Argo reads when several are set: the first of s3, inline, file, url, git,
/// configmap, resource (GetArtifactReader).
enum class artifact_kind { none, s3, inline_text, file, url, git, configmap, resource };

/// `source` (ArtifactLocation) of a k8s or argoWorkflow trigger.
struct artifact_location {
  std::optional<s3_artifact> s3;
  std::optional<std::string> inline_text;
  std::optional<file_artifact> file;
  std::optional<url_artifact> url;
  std::optional<git_artifact> git;
  std::optional<configmap_key_selector> configmap;
  /// `resource`: the embedded object as JSON text.
  std::optional<std::string> resource;

  /// The location Argo reads.
  artifact_kind kind() const noexcept;
  /// Argo's key of `kind()` (`inline`, `git` …); empty for none.
  std::string_view key() const noexcept;
};

/// Reads `source` (`node`, at YAML path `path`) onto the model; what the schema already
/// reported reads as absent.
artifact_location read_artifact_location(const YAML::Node& node, const std::string& path,
                                         const dsl::detail::load_context& cx);

/// Argo's rules for `source` (one location required; git's filePath and cloneDirectory without
/// `..`, `~`, `\`; a remote with a name and a URL; secrets with name and key; s3's endpoint,
/// bucket name and key and both keys, which Argo's reader needs) plus ganglion's:
/// `git.githubApp` with its key, App and installation, an unreadable `inline` or `resource`
/// refused, locations, credentials and s3 fields Argo would ignore warned about. Every problem
/// at its field under `path`.
void check_artifact_location(const artifact_location& location, const std::string& path,
                             const dsl::detail::load_context& cx);

/// A source that cannot be fetched or does not hold an object; what() starts with the field's
/// path (`k8s.source.git.branch: …`).
class artifact_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// What fetching needs.
struct fetch_options {
  /// The YAML path of the location, the start of every error message
  /// (`spec.triggers[0].template.k8s.source`).
  std::string path = "source";
  /// Reads `configmap` (GET /api/v1/namespaces/<ns>/configmaps/<name>); required for it.
  api_client* client = nullptr;
  /// The sensor's namespace, where Argo mounts the config map from; empty: the client's. Git
  /// clones of one namespace are never used by another.
  std::string namespace_name;
  /// Resolves `git.creds`, `git.githubApp.privateKey`, `git.sshKeySecret` and s3's keys;
  /// required when they are set.
  const core::secret_store* secrets = nullptr;
  /// Largest artifact accepted (file, URL body, S3 object, config map value, git file).
  std::size_t max_bytes = std::size_t{2} << 20;
  /// Longest a URL or S3 download, a config map read or a git transfer may take.
  std::chrono::milliseconds timeout{30000};
  /// The engine's data directory: git clones live in `<data_dir>/git/<namespace or _>/`, one
  /// folder per credentials (private, 0700); empty: `$TMPDIR/ganglion-git-<uid>`.
  std::string data_dir;
  /// Plain `http://` git URLs are cloned (never with `creds` or `githubApp`); else only
  /// https and ssh.
  bool allow_plain_http_git = false;
  /// The GitHub REST API root `githubApp` exchanges its JWT at; empty:
  /// `https://api.github.com` (never the host of `git.url`).
  std::string github_api_url;
  /// A PEM bundle trusted instead of the system's CAs by git over https and the GitHub API
  /// (GitHub Enterprise behind a private CA); empty: the system's.
  std::string ca_file;
  /// Why a `file` location is refused; empty: it is read. The engine's filesystem is every
  /// namespace's (other tenants' git clones, its data directory): only `--object-identity
  /// engine` reads it, as Argo's file artifact reads the sensor pod's own.
  std::string files_refused;
};

/// Why `file` trigger sources are refused with `mode` (`--object-identity`); empty for
/// `engine`.
std::string file_source_refusal(std::string_view mode);

/// Fetches the location Argo reads and returns its object as JSON text: YAML or JSON, of a
/// multi-document YAML the first document (ghodss/yaml, as Argo decodes it); anything but a
/// map is an error. `resource` and `inline` need nothing from `options` but `path` and never
/// change, so a caller may fetch them once. A git location fetches into its clone and checks
/// out again (no fresh clone after the first). Blocking: run it off the actor threads, never in
/// an api_client completion. Throws artifact_error.
std::string fetch_artifact(const artifact_location& location, const fetch_options& options);

/// The object in `text` (YAML or JSON) as JSON text, as fetch_artifact decodes a fetched
/// artifact; `where` starts the error message. Throws artifact_error.
std::string object_json(std::string_view text, const std::string& where);

} // namespace ganglion::kubernetes::detail
