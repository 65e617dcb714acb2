#include "artifact/artifact.hpp"

#include <array>
#include <utility>

#include "artifact/fetchers.hpp"
#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::kubernetes::detail {

using namespace dsl::detail;

namespace {

/// Argo's NewGitReader refuses these in filePath and cloneDirectory; false when it did.
bool check_git_path(const std::string& value, const std::string& path, std::string_view field,
                    const load_context& cx) {
  for (std::string_view bad : {"..", "~", "\\"})
    if (value.find(bad) != std::string::npos) {
      cx.error(path, "\"" + std::string{bad} + "\" is not allowed in the " + std::string{field});
      return false;
    }
  return true;
}

/// https and ssh only; plain http warned about (the engine may allow it), never with
/// credentials that would cross the network in clear.
void check_git_url(const std::string& url, const std::string& path, bool sends_password,
                   const load_context& cx) {
  if (url.empty())
    return;
  if (auto problem = git_url_problem(url); !problem.empty()) {
    cx.error(path, problem);
  } else if (is_plain_http(url) && sends_password) {
    cx.error(path, "creds and githubApp are refused over plain http:// (the password would "
                   "cross the network in clear): use https");
  } else if (is_plain_http(url)) {
    cx.warning(path, "plain http:// is cloned only when the engine allows it "
                     "(allow_plain_http_git); use https or ssh");
  }
}

/// Argo checks none of these; without them GitHub refuses the token exchange.
void check_github_app(const github_app_creds& app, const std::string& path,
                      const load_context& cx) {
  if (!app.private_key)
    cx.error(child_path(path, "privateKey"), "privateKey is required (the App's private key)");
  check_secret(app.private_key, child_path(path, "privateKey"), cx);
  if (app.app_id <= 0)
    cx.error(child_path(path, "appID"), "appID is required (a positive GitHub App ID)");
  if (app.installation_id <= 0)
    cx.error(child_path(path, "installationID"),
             "installationID is required (a positive installation ID of the App)");
}

void check_git(const git_artifact& git, const std::string& path, const load_context& cx) {
  require(git.url, child_path(path, "url"), "url", cx);
  bool sends_password = git.creds || git.github_app;
  check_git_url(git.url, child_path(path, "url"), sends_password, cx);
  auto file_path = child_path(path, "filePath");
  if (require(git.file_path, file_path, "filePath", cx)
      && check_git_path(git.file_path, file_path, "filePath", cx))
    if (auto problem = repo_file_path_problem(git.file_path); !problem.empty())
      cx.error(file_path, problem);
  auto clone_dir = child_path(path, "cloneDirectory");
  if (check_git_path(git.clone_directory, clone_dir, "cloneDirectory", cx)) {
    auto confined = confined_clone_directory(git.clone_directory);
    if (!git.clone_directory.empty() && (!confined || confined->empty()))
      cx.error(clone_dir, "cloneDirectory must stay beneath the namespace's clone root");
    else if (git.clone_directory.starts_with("/"))
      cx.warning(clone_dir, "the clone is kept under the namespace's clone root "
                            "(<data dir>/git/<namespace>/…), not at this absolute path");
  }
  if (git.creds) {
    auto creds = child_path(path, "creds");
    if (!git.creds->username)
      cx.error(child_path(creds, "username"), "username is required");
    if (!git.creds->password)
      cx.error(child_path(creds, "password"), "password is required");
    check_secret(git.creds->username, child_path(creds, "username"), cx);
    check_secret(git.creds->password, child_path(creds, "password"), cx);
    const char* why = "ignored: creds is used (Argo takes creds over githubApp over "
                      "sshKeySecret)";
    if (git.github_app)
      cx.warning(child_path(path, "githubApp"), why);
    if (git.ssh_key_secret)
      cx.warning(child_path(path, "sshKeySecret"), why);
  } else if (git.github_app && git.ssh_key_secret) {
    cx.warning(child_path(path, "sshKeySecret"), "ignored: githubApp is used (Argo takes "
                                                 "githubApp over sshKeySecret)");
  }
  if (git.github_app)
    check_github_app(*git.github_app, child_path(path, "githubApp"), cx);
  check_secret(git.ssh_key_secret, child_path(path, "sshKeySecret"), cx);
  if (git.remote) {
    auto remote = child_path(path, "remote");
    require(git.remote->name, child_path(remote, "name"), "name", cx);
    if (git.remote->name == "origin")
      cx.error(child_path(remote, "name"), "the remote must not be named origin (the "
                                           "repository of url is origin)");
    if (git.remote->urls.empty() || git.remote->urls.front().empty())
      cx.error(child_path(remote, "urls"), "urls needs the remote's URL");
    else
      check_git_url(git.remote->urls.front(), child_path(remote, "urls") + "[0]",
                    sends_password, cx);
  }
  if (!git.ref.empty() && (!git.tag.empty() || !git.branch.empty()))
    cx.warning(child_path(path, git.tag.empty() ? "branch" : "tag"),
               "ignored: ref is used (Argo takes ref over tag over branch)");
  else if (!git.tag.empty() && !git.branch.empty())
    cx.warning(child_path(path, "branch"), "ignored: tag is used (Argo takes tag over branch)");
}

void check_url(const url_artifact& url, const std::string& path, const load_context& cx) {
  auto at = child_path(path, "path");
  if (!require(url.path, at, "path", cx))
    return;
  if (!url.path.starts_with("http://") && !url.path.starts_with("https://"))
    cx.error(at, "path must be an http:// or https:// URL");
  else if (url.path.starts_with("https://") && !url.verify_cert_set)
    cx.warning(child_path(path, "verifyCert"),
               "verifyCert is not set: the server's certificate is not checked (Argo's "
               "default); set verifyCert: true");
}

/// What Argo's S3 reader needs (minio.New refuses an endpoint with a scheme or a path; a
/// missing bucket, key or key selector fails every fetch), and the event source's fields that
/// a trigger source ignores.
void check_s3(const s3_artifact& s3, const std::string& path, const load_context& cx) {
  auto endpoint = child_path(path, "endpoint");
  if (require(s3.endpoint, endpoint, "endpoint", cx) && !s3_endpoint_problem(s3.endpoint).empty())
    cx.error(endpoint, s3_endpoint_problem(s3.endpoint));
  auto bucket = child_path(path, "bucket");
  if (!s3.bucket) {
    cx.error(bucket, "bucket is required (name and key of the object)");
  } else {
    require(s3.bucket->name, child_path(bucket, "name"), "name", cx);
    require(s3.bucket->key, child_path(bucket, "key"), "key", cx);
  }
  for (auto [key, selector] :
       {std::pair{"accessKey", &s3.access_key}, std::pair{"secretKey", &s3.secret_key}}) {
    if (!*selector)
      cx.error(child_path(path, key), std::string{key} + " is required");
    check_secret(*selector, child_path(path, key), cx);
  }
  for (const auto& key : s3.ignored)
    cx.warning(
      child_path(path, key),
      "ignored: Argo's trigger source reads only endpoint, bucket, region, insecure, "
      "accessKey and secretKey"
        + std::string{key == "caCertificate" ? " (the system's CAs verify the server)" : ""});
}

/// Locations set besides the one Argo reads.
void warn_shadowed(const artifact_location& loc, const std::string& path, const load_context& cx) {
  const std::array<std::pair<std::string_view, bool>, 7> set{{
    {"s3", loc.s3.has_value()},
    {"inline", loc.inline_text.has_value()},
    {"file", loc.file.has_value()},
    {"url", loc.url.has_value()},
    {"git", loc.git.has_value()},
    {"configmap", loc.configmap.has_value()},
    {"resource", loc.resource.has_value()},
  }};
  auto used = loc.key();
  for (auto [key, is_set] : set)
    if (is_set && key != used)
      cx.warning(child_path(path, key), "ignored: " + std::string{used}
                                          + " is used (Argo reads the first of s3, "
                                            "inline, file, url, git, configmap, resource)");
}

} // namespace

void check_artifact_location(const artifact_location& loc, const std::string& path,
                             const load_context& cx) {
  warn_shadowed(loc, path, cx);
  switch (loc.kind()) {
    case artifact_kind::none:
      cx.error(path,
               "source is required: one of resource, inline, file, url, configmap, git or s3");
      break;
    case artifact_kind::s3: check_s3(*loc.s3, child_path(path, "s3"), cx); break;
    case artifact_kind::inline_text: try { decode_object(*loc.inline_text);
      } catch (const artifact_error& e) {
        cx.error(child_path(path, "inline"), e.what());
      }
      break;
    case artifact_kind::file:
      require(loc.file->path, child_path(child_path(path, "file"), "path"), "path", cx);
      break;
    case artifact_kind::url: check_url(*loc.url, child_path(path, "url"), cx); break;
    case artifact_kind::git: check_git(*loc.git, child_path(path, "git"), cx); break;
    case artifact_kind::configmap:
      require(loc.configmap->name, child_path(child_path(path, "configmap"), "name"), "name", cx);
      require(loc.configmap->key, child_path(child_path(path, "configmap"), "key"), "key", cx);
      break;
    case artifact_kind::resource:
      if (!loc.resource->starts_with("{"))
        cx.error(child_path(path, "resource"), "resource must be an object (a Kubernetes "
                                               "manifest)");
      break;
  }
}

} // namespace ganglion::kubernetes::detail
