#include "artifact/artifact.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#include "artifact/fetchers.hpp"
#include "artifact/repo_path.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::kubernetes::detail {

using dsl::detail::child_path;

std::string object_json(std::string_view text, const std::string& where) {
  try {
    return decode_object(text);
  } catch (const artifact_error& e) {
    throw artifact_error(where + ": " + e.what());
  }
}

void check_size(std::size_t size, const fetch_options& options, const std::string& path) {
  if (size > options.max_bytes)
    throw artifact_error(path + ": the artifact is larger than the limit of "
                         + std::to_string(options.max_bytes) + " bytes");
}

std::string read_secret(const fetch_options& options, const dsl::secret_key_selector& selector,
                        const std::string& path) {
  if (!options.secrets)
    throw artifact_error(path + ": no secrets are available (--secrets-dir)");
  std::string error;
  auto value = options.secrets->read(selector.name, selector.key, &error);
  if (!value)
    throw artifact_error(path + ": " + error);
  return std::move(*value);
}

std::string read_file_artifact(const file_artifact& file, const fetch_options& options,
                               const std::string& path) {
  auto at = child_path(path, "path");
  int fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    throw artifact_error(at + ": cannot read " + file.path + ": " + std::strerror(errno));
  std::unique_ptr<int, void (*)(int*)> guard{&fd, [](int* f) { ::close(*f); }};
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))
    throw artifact_error(at + ": " + file.path + " is not a regular file");
  check_size(static_cast<std::size_t>(info.st_size), options, path);
  bool over = false;
  std::string bytes;
  try {
    bytes = read_at_most(fd, options.max_bytes, &over);
  } catch (const std::system_error& e) {
    throw artifact_error(at + ": cannot read " + file.path + ": " + e.code().message());
  }
  if (over)
    check_size(options.max_bytes + 1, options, path);
  return bytes;
}

std::string file_source_refusal(std::string_view mode) {
  if (mode.empty() || mode == "engine")
    return {};
  return "a file of the engine's filesystem, which every namespace's objects share, is not "
         "read with --object-identity "
         + std::string{mode} + "; use configmap, git, s3 or url";
}

std::string fetch_artifact(const artifact_location& loc, const fetch_options& options) {
  const auto& path = options.path;
  auto at = child_path(path, loc.key());
  std::string bytes;
  switch (loc.kind()) {
    case artifact_kind::none:
      throw artifact_error(path
                           + ": no location is set (resource, inline, file, url, "
                             "configmap, git or s3)");
    case artifact_kind::s3: bytes = read_s3_artifact(*loc.s3, options, at); break;
    case artifact_kind::resource:
      if (!loc.resource->starts_with("{"))
        throw artifact_error(at + ": resource must be an object (a Kubernetes manifest)");
      return *loc.resource;
    case artifact_kind::inline_text: return object_json(*loc.inline_text, at);
    case artifact_kind::file:
      if (!options.files_refused.empty())
        throw artifact_error(at + ": " + options.files_refused);
      bytes = read_file_artifact(*loc.file, options, at);
      break;
    case artifact_kind::url: bytes = read_url_artifact(*loc.url, options, at); break;
    case artifact_kind::configmap:
      bytes = read_configmap_artifact(*loc.configmap, options, at);
      break;
    case artifact_kind::git: bytes = read_git_artifact(*loc.git, options, at); break;
  }
  return object_json(bytes, at);
}

} // namespace ganglion::kubernetes::detail
