#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <git2.h>

// A small libgit2 layer for the git artifact: open or clone, fetch, resolve, check out. Every
// failure throws std::runtime_error with libgit2's message.

namespace ganglion::kubernetes::detail {

/// How to authenticate and how long a transfer may take.
struct git_auth {
  /// HTTP basic credentials.
  std::optional<std::pair<std::string, std::string>> basic;
  /// A private key file for SSH.
  std::string ssh_key_file;
  /// Accept any SSH host key (else libgit2 checks ~/.ssh/known_hosts).
  bool insecure_ignore_host_key = false;
  /// A transfer still running then is cut.
  std::chrono::steady_clock::time_point deadline;
};

/// Makes git over https trust the PEM bundle `file` instead of the system's CAs (process-wide
/// in libgit2); nothing when `file` is empty or already trusted. Throws std::runtime_error.
void trust_ca_file(const std::string& file);

/// An open repository with a work tree.
class git_repo {
public:
  /// Opens the repository at `dir` (never one of its parents), or clones `url` into it (no
  /// checkout) when `dir` holds none; `dir` exists (git_clone_dir made it).
  git_repo(const std::string& dir, const std::string& url, const git_auth& auth);
  ~git_repo();
  git_repo(const git_repo&) = delete;
  git_repo& operator=(const git_repo&) = delete;

  /// Whether the constructor cloned.
  bool cloned() const noexcept { return cloned_; }

  /// Points remote `name` at `url` (created when missing) and fetches its branches (into
  /// refs/remotes/<name>/), its tags, and `extra_refs` (full names, into the same names).
  void fetch(const std::string& name, const std::string& url,
             const std::vector<std::string>& extra_refs, const git_auth& auth);

  /// The commit `name` (a full reference name) peels to; nullopt when there is none.
  std::optional<git_oid> commit_of_ref(const std::string& name);

  /// The commit a revision (an object id or its prefix) names; nullopt when there is none.
  std::optional<git_oid> commit_of_revision(const std::string& revision);

  /// The size of the blob at `path` (`/`-separated) in `commit`'s tree, its content unread;
  /// nullopt when the path names no blob there.
  std::optional<std::size_t> blob_size(const git_oid& commit, const std::string& path);

  /// Checks `commit` out into the work tree (local changes discarded), HEAD detached at it;
  /// folders 0700, files 0600.
  void checkout(const git_oid& commit);

private:
  git_repository* repo_ = nullptr;
  bool cloned_ = false;
};

} // namespace ganglion::kubernetes::detail
