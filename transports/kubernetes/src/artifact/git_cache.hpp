#pragma once

#include <string>

#include "artifact/artifact.hpp"

// Where git clones live: `<data_dir>/git/<namespace or _>/<credentials>/…`, every folder
// private to the process user, so that no namespace and no other credentials see a clone.

namespace ganglion::kubernetes::detail {

/// The folder of the clones of every namespace: `<data_dir>/git`, or without a data directory
/// `$TMPDIR/ganglion-git-<uid>`; created private and checked (ensure_private_dir).
std::string git_clone_root(const fetch_options& options, const std::string& path);

/// Creates `dir` with mode 0700 when missing; throws artifact_error at `path` when it is a
/// symbolic link or no directory, is not owned by the process user, or its group or others
/// may use it.
void ensure_private_dir(const std::string& dir, const std::string& path);

/// The clone folder of `git` for credentials `credentials_id` (credentials_identity), in the
/// sensor's namespace: `<root>/<ns>/<credentials_id>/cache/<hash of url and remote>`, or with
/// `cloneDirectory` `<root>/<ns>/<credentials_id>/dirs/<cloneDirectory>` (an absolute one kept
/// under it). Every folder on the way created private and checked. Throws artifact_error at
/// `path` (the git location) for a cloneDirectory that leaves the root or a bad namespace.
std::string git_clone_dir(const git_artifact& git, const fetch_options& options,
                          const std::string& credentials_id, const std::string& path);

/// A short digest naming credentials: `kind` (`creds`, `githubApp`, `ssh`, `none`) with the
/// secret selectors' names and keys in `refs` and the digest of the resolved values in
/// `values`; the values themselves cannot be recovered from it.
std::string credentials_identity(const std::string& kind, const std::string& refs,
                                 const std::string& values);

} // namespace ganglion::kubernetes::detail
