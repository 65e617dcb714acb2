#include <map>
#include <mutex>
#include <stdexcept>

#include "artifact/fetchers.hpp"
#include "artifact/git_cache.hpp"
#include "artifact/git_repo.hpp"
#include "artifact/github_app.hpp"
#include "artifact/repo_path.hpp"
#include "ganglion/core/redact.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::kubernetes::detail {

namespace {

using dsl::detail::child_path;

/// One fetch at a time per clone directory, across every trigger of the process.
std::mutex& lock_of(const std::string& dir) {
  static std::mutex guard;
  static std::map<std::string, std::mutex> locks;
  std::lock_guard lock{guard};
  return locks[dir];
}

/// The credentials a fetch uses and the identity its clone folder is keyed by.
struct credentials {
  git_auth auth;
  std::string id;
};

credentials auth_of(const git_artifact& git, const fetch_options& options,
                    const std::string& path) {
  credentials out;
  auto& auth = out.auth;
  auth.insecure_ignore_host_key = git.insecure_ignore_host_key;
  auth.deadline = std::chrono::steady_clock::now() + options.timeout;
  auto creds_path = child_path(path, "creds");
  auto ref_of = [](const dsl::secret_key_selector& s) { return s.name + "/" + s.key + "\n"; };
  if (git.creds && git.creds->username && git.creds->password) {
    auto username = read_secret(options, *git.creds->username, child_path(creds_path, "username"));
    auto password = read_secret(options, *git.creds->password, child_path(creds_path, "password"));
    out.id = credentials_identity("creds", ref_of(*git.creds->username) + ref_of(*git.creds->password),
                                  username + '\0' + password);
    auth.basic.emplace(std::move(username), std::move(password));
  } else if (git.creds) {
    throw artifact_error(creds_path + ": creds needs both username and password");
  } else if (git.github_app) {
    auto at = child_path(path, "githubApp");
    if (!git.github_app->private_key)
      throw artifact_error(child_path(at, "privateKey") + ": privateKey is required");
    github_app_request request;
    request.api_url = github_api_url(options.github_api_url);
    if (auto problem = github_api_url_problem(request.api_url); !problem.empty())
      throw artifact_error(at + ": " + problem);
    request.app_id = git.github_app->app_id;
    request.installation_id = git.github_app->installation_id;
    request.private_key_pem =
      read_secret(options, *git.github_app->private_key, child_path(at, "privateKey"));
    request.timeout = options.timeout;
    request.ca_file = options.ca_file;
    out.id = credentials_identity("githubApp",
                                  ref_of(*git.github_app->private_key) + request.api_url + "\n"
                                    + std::to_string(request.app_id) + "\n"
                                    + std::to_string(request.installation_id),
                                  request.private_key_pem);
    auth.basic.emplace("x-access-token", github_app_token(request, at));
  } else if (git.ssh_key_secret) {
    // libgit2 reads the key from a file: the mounted one, or (cluster mode) a private copy.
    auto at = child_path(path, "sshKeySecret");
    if (!options.secrets)
      throw artifact_error(at + ": no secrets are available (--secrets-dir)");
    out.id = credentials_identity("ssh", ref_of(*git.ssh_key_secret),
                                  read_secret(options, *git.ssh_key_secret, at));
    std::string error;
    auto file = options.secrets->file(git.ssh_key_secret->name, git.ssh_key_secret->key, &error);
    if (!file)
      throw artifact_error(at + ": " + error);
    auth.ssh_key_file = std::move(*file);
  } else {
    out.id = credentials_identity("none", {}, {});
  }
  return out;
}

/// https and ssh only; plain http with options.allow_plain_http_git and no password.
void check_url(const std::string& url, const std::string& at, const git_artifact& git,
               const fetch_options& options) {
  if (auto problem = git_url_problem(url); !problem.empty())
    throw artifact_error(at + ": " + problem);
  if (!is_plain_http(url))
    return;
  if (!options.allow_plain_http_git)
    throw artifact_error(at + ": plain http:// is refused (use https or ssh; the engine "
                              "option allow_plain_http_git allows it without credentials)");
  if (git.creds || git.github_app)
    throw artifact_error(at + ": creds and githubApp are refused over plain http:// (the "
                              "password would cross the network in clear): use https");
}

bool is_hex(const std::string& text) {
  return text.size() >= 4 && text.size() <= 40
         && text.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
}

/// What to check out: ref, else tag, else branch (master by default), as Argo's
/// getBranchOrTag; the field it came from for messages.
struct wanted {
  std::string field;
  std::string name;
  bool defaulted = false; ///< branch not set: master
};

wanted wanted_of(const git_artifact& git) {
  if (!git.ref.empty())
    return {"ref", git.ref};
  if (!git.tag.empty())
    return {"tag", git.tag};
  if (git.branch.empty())
    return {"branch", "master", true};
  return {"branch", git.branch};
}

git_oid resolve(git_repo& repo, const wanted& want, const std::string& remote,
                const std::string& url, const std::string& path) {
  std::optional<git_oid> commit;
  if (want.field == "branch") {
    commit = repo.commit_of_ref("refs/remotes/" + remote + "/" + want.name);
  } else if (want.field == "tag") {
    commit = repo.commit_of_ref("refs/tags/" + want.name);
  } else if (want.name.starts_with("refs/heads/")) {
    commit = repo.commit_of_ref("refs/remotes/" + remote + "/" + want.name.substr(11));
  } else if (want.name.starts_with("refs/")) {
    commit = repo.commit_of_ref(want.name);
  } else if (is_hex(want.name)) {
    commit = repo.commit_of_revision(want.name);
  }
  if (commit)
    return *commit;
  throw artifact_error(child_path(path, want.field) + ": no " + want.field + " \"" + want.name
                       + "\" in " + core::redact_url_userinfo(url)
                       + (want.defaulted ? " (branch is not set; Argo's default is master)" : ""));
}

} // namespace

std::string read_git_artifact(const git_artifact& git, const fetch_options& options,
                              const std::string& path) {
  auto remote_at = child_path(child_path(path, "remote"), "urls");
  if (git.remote && (git.remote->urls.empty() || git.remote->urls.front().empty()))
    throw artifact_error(remote_at + ": urls needs the remote's URL");
  check_url(git.url, child_path(path, "url"), git, options);
  if (git.remote)
    check_url(git.remote->urls.front(), remote_at + "[0]", git, options);
  auto file_at = child_path(path, "filePath");
  if (auto problem = repo_file_path_problem(git.file_path); !problem.empty())
    throw artifact_error(file_at + ": " + problem);
  auto creds = auth_of(git, options, path);
  auto dir = git_clone_dir(git, options, creds.id, path);
  auto want = wanted_of(git);
  auto shown_url = core::redact_url_userinfo(git.url);
  std::lock_guard lock{lock_of(dir)};
  try {
    trust_ca_file(options.ca_file);
    git_repo repo{dir, git.url, creds.auth};
    auto remote = git.remote ? git.remote->name : std::string{"origin"};
    auto remote_url = git.remote ? git.remote->urls.front() : git.url;
    std::vector<std::string> extra;
    if (want.field == "ref" && want.name.starts_with("refs/")
        && !want.name.starts_with("refs/heads/") && !want.name.starts_with("refs/tags/"))
      extra.push_back(want.name);
    repo.fetch(remote, remote_url, extra, creds.auth);
    auto commit = resolve(repo, want, remote, remote_url, path);
    if (auto size = repo.blob_size(commit, git.file_path))
      check_size(*size, options, path);
    repo.checkout(commit);
  } catch (const artifact_error&) {
    throw;
  } catch (const std::exception& e) {
    throw artifact_error(child_path(path, "url") + ": " + core::redact_url_userinfo(e.what()));
  }
  beneath_request request;
  request.root = dir;
  request.file_path = git.file_path;
  request.max_bytes = options.max_bytes;
  request.at = file_at;
  request.size_at = path;
  request.where = shown_url + " at " + want.field + " " + want.name;
  return read_beneath(request);
}

} // namespace ganglion::kubernetes::detail
