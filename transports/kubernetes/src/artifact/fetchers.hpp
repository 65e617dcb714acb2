#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "artifact/artifact.hpp"

// The readers behind fetch_artifact: each returns the artifact's bytes, or throws
// artifact_error with a message that starts with `path` (the YAML path of its location).

namespace ganglion::kubernetes::detail {

/// The object in `text` (YAML or JSON; of several documents the first) as JSON text; throws
/// artifact_error saying what is wrong, without a location.
std::string decode_object(std::string_view text);

/// Throws artifact_error when `size` bytes are more than options.max_bytes.
void check_size(std::size_t size, const fetch_options& options, const std::string& path);

/// The value of secret `selector` from options.secrets; throws artifact_error at `path` when
/// there is no store or no such secret.
std::string read_secret(const fetch_options& options, const dsl::secret_key_selector& selector,
                        const std::string& path);

/// `file`: the file at `file.path`.
std::string read_file_artifact(const file_artifact& file, const fetch_options& options,
                               const std::string& path);

/// `url`: the body of a GET answered with 200, redirects followed.
std::string read_url_artifact(const url_artifact& url, const fetch_options& options,
                              const std::string& path);

/// `s3`: the object `bucket.name`/`bucket.key`, one GetObject signed with AWS Signature V4.
std::string read_s3_artifact(const s3_artifact& s3, const fetch_options& options,
                             const std::string& path);

/// Why Argo's minio client would refuse `endpoint` (`host[:port]`: a scheme, a path, a bad host
/// or port); empty when it would not.
std::string s3_endpoint_problem(std::string_view endpoint);

/// Why git may never clone `url` (file://, git://, a local path, another scheme, no host);
/// empty for https://, http:// (see is_plain_http), ssh:// and scp-like `[user@]host:path`.
std::string git_url_problem(std::string_view url);

/// Whether `url` is plain `http://`, cloned only with fetch_options::allow_plain_http_git.
bool is_plain_http(std::string_view url);

/// Why `filePath` cannot name a file beneath the clone (absolute, a `..` component, a control
/// character, no component); empty when it can.
std::string repo_file_path_problem(std::string_view path);

/// `cloneDirectory` as a path relative to the namespace's clone root: `.` and empty components
/// dropped, a leading `/` too (an absolute directory is kept under the root); nullopt when a
/// component is `..` or `~` or holds `\` or a control character.
std::optional<std::string> confined_clone_directory(std::string_view dir);

/// `configmap`: the key's value (`data`, else `binaryData`) of the config map in the sensor's
/// namespace, one trailing newline removed as Argo's volume reader does.
std::string read_configmap_artifact(const configmap_key_selector& selector,
                                    const fetch_options& options, const std::string& path);

/// `git`: `filePath` of the checked-out branch, tag or ref.
std::string read_git_artifact(const git_artifact& git, const fetch_options& options,
                              const std::string& path);

} // namespace ganglion::kubernetes::detail
