#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <stdexcept>

#include "artifact/fetchers.hpp"
#include "artifact/git_repo.hpp"
#include "artifact/github_app.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::kubernetes::detail {

namespace {

namespace fs = std::filesystem;
using dsl::detail::child_path;

/// One fetch at a time per clone directory, across every trigger of the process.
std::mutex& lock_of(const std::string& dir) {
  static std::mutex guard;
  static std::map<std::string, std::mutex> locks;
  std::lock_guard lock{guard};
  return locks[dir];
}

std::string clone_dir_of(const git_artifact& git, const fetch_options& options) {
  if (!git.clone_directory.empty())
    return git.clone_directory;
  fs::path base = options.git_cache_dir.empty() ? fs::temp_directory_path() / "ganglion-git"
                                                : fs::path{options.git_cache_dir};
  auto key = git.url + "\n" + (git.remote ? git.remote->name : std::string{});
  return (base / dsl::sha256_hex(key).substr(0, 16)).string();
}

git_auth auth_of(const git_artifact& git, const fetch_options& options, const std::string& path) {
  git_auth auth;
  auth.insecure_ignore_host_key = git.insecure_ignore_host_key;
  auth.deadline = std::chrono::steady_clock::now() + options.timeout;
  auto creds_path = child_path(path, "creds");
  if (git.creds && git.creds->username && git.creds->password) {
    auto username = read_secret(options, *git.creds->username, child_path(creds_path, "username"));
    auto password = read_secret(options, *git.creds->password, child_path(creds_path, "password"));
    auth.basic.emplace(std::move(username), std::move(password));
  } else if (git.creds) {
    throw artifact_error(creds_path + ": creds needs both username and password");
  } else if (git.github_app) {
    auto at = child_path(path, "githubApp");
    if (!git.github_app->private_key)
      throw artifact_error(child_path(at, "privateKey") + ": privateKey is required");
    github_app_request request;
    request.api_url = github_api_url(git.url);
    if (request.api_url.empty())
      throw artifact_error(child_path(path, "url") + ": no host in \"" + git.url + "\"");
    request.app_id = git.github_app->app_id;
    request.installation_id = git.github_app->installation_id;
    request.private_key_pem =
      read_secret(options, *git.github_app->private_key, child_path(at, "privateKey"));
    request.timeout = options.timeout;
    auth.basic.emplace("x-access-token", github_app_token(request, at));
  } else if (git.ssh_key_secret) {
    // libgit2 reads the key from a file: the mounted one, or (cluster mode) a private copy.
    auto at = child_path(path, "sshKeySecret");
    if (!options.secrets)
      throw artifact_error(at + ": no secrets are available (--secrets-dir)");
    std::string error;
    auto file = options.secrets->file(git.ssh_key_secret->name, git.ssh_key_secret->key, &error);
    if (!file)
      throw artifact_error(at + ": " + error);
    auth.ssh_key_file = std::move(*file);
  }
  return auth;
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
                       + "\" in " + url
                       + (want.defaulted ? " (branch is not set; Argo's default is master)" : ""));
}

std::string read_checked_out(const std::string& dir, const git_artifact& git, const wanted& want,
                             const fetch_options& options, const std::string& path) {
  auto at = child_path(path, "filePath");
  auto file = fs::path{dir} / git.file_path;
  std::error_code ec;
  auto status = fs::symlink_status(file, ec);
  if (ec || !fs::exists(status))
    throw artifact_error(at + ": no file \"" + git.file_path + "\" in " + git.url + " at "
                         + want.field + " " + want.name);
  if (fs::is_symlink(status))
    throw artifact_error(at + ": \"" + git.file_path
                         + "\" is a symbolic link, which is not "
                           "allowed");
  if (!fs::is_regular_file(status))
    throw artifact_error(at + ": \"" + git.file_path + "\" is not a file");
  check_size(fs::file_size(file, ec), options, path);
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace

std::string read_git_artifact(const git_artifact& git, const fetch_options& options,
                              const std::string& path) {
  if (git.remote && (git.remote->urls.empty() || git.remote->urls.front().empty()))
    throw artifact_error(child_path(child_path(path, "remote"), "urls")
                         + ": urls needs the remote's URL");
  auto auth = auth_of(git, options, path);
  auto dir = clone_dir_of(git, options);
  auto want = wanted_of(git);
  std::lock_guard lock{lock_of(dir)};
  try {
    git_repo repo{dir, git.url, auth};
    auto remote = git.remote ? git.remote->name : std::string{"origin"};
    auto remote_url = git.remote ? git.remote->urls.front() : git.url;
    std::vector<std::string> extra;
    if (want.field == "ref" && want.name.starts_with("refs/")
        && !want.name.starts_with("refs/heads/") && !want.name.starts_with("refs/tags/"))
      extra.push_back(want.name);
    repo.fetch(remote, remote_url, extra, auth);
    repo.checkout(resolve(repo, want, remote, remote_url, path));
  } catch (const artifact_error&) {
    throw;
  } catch (const std::exception& e) {
    throw artifact_error(child_path(path, "url") + ": " + e.what());
  }
  return read_checked_out(dir, git, want, options, path);
}

} // namespace ganglion::kubernetes::detail
