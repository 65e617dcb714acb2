#include "artifact/git_cache.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include "artifact/fetchers.hpp"
#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::kubernetes::detail {

namespace {

namespace fs = std::filesystem;
using dsl::detail::child_path;

/// A DNS-1123 label, as Kubernetes requires of a namespace's name.
bool namespace_name_ok(const std::string& name) {
  if (name.empty() || name.size() > 63 || name.front() == '-' || name.back() == '-')
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      return false;
  return true;
}

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

} // namespace

void ensure_private_dir(const std::string& dir, const std::string& path) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw artifact_error(path + ": cannot create the git clone folder " + dir + ": "
                         + std::strerror(errno));
  struct stat info {};
  if (::lstat(dir.c_str(), &info) != 0)
    throw artifact_error(path + ": cannot use the git clone folder " + dir + ": "
                         + std::strerror(errno));
  std::string refused = path + ": refusing the git clone folder " + dir + ": ";
  if (S_ISLNK(info.st_mode))
    throw artifact_error(refused + "it is a symbolic link");
  if (!S_ISDIR(info.st_mode))
    throw artifact_error(refused + "it is not a directory");
  if (info.st_uid != ::geteuid())
    throw artifact_error(refused + "it is owned by uid " + std::to_string(info.st_uid)
                         + ", not by this process's user");
  if ((info.st_mode & 077) != 0)
    throw artifact_error(refused + "its group or others may use it (mode "
                         + octal_mode(info.st_mode) + "; 0700 is required)");
}

std::string git_clone_root(const fetch_options& options, const std::string& path) {
  fs::path root;
  if (options.data_dir.empty()) {
    root = fs::temp_directory_path() / ("ganglion-git-" + std::to_string(::geteuid()));
  } else {
    std::error_code ec;
    fs::create_directories(options.data_dir, ec);
    root = fs::path{options.data_dir} / "git";
  }
  ensure_private_dir(root.string(), path);
  return root.string();
}

std::string credentials_identity(const std::string& kind, const std::string& refs,
                                 const std::string& values) {
  return dsl::sha256_hex(kind + "\n" + refs + "\n" + dsl::sha256_hex(values)).substr(0, 24);
}

std::string git_clone_dir(const git_artifact& git, const fetch_options& options,
                          const std::string& credentials_id, const std::string& path) {
  const auto& ns = options.namespace_name;
  if (!ns.empty() && !namespace_name_ok(ns))
    throw artifact_error(path + ": \"" + ns + "\" is not a namespace name");
  std::optional<std::string> relative;
  auto clone_at = child_path(path, "cloneDirectory");
  if (!git.clone_directory.empty()) {
    relative = confined_clone_directory(git.clone_directory);
    if (!relative || relative->empty())
      throw artifact_error(clone_at + ": cloneDirectory must stay beneath the namespace's "
                                      "clone root (no \"..\", \"~\" or \"\\\")");
  }
  auto dir = git_clone_root(options, path) + "/" + (ns.empty() ? std::string{"_"} : ns);
  ensure_private_dir(dir, path);
  dir += "/" + credentials_id;
  ensure_private_dir(dir, path);
  if (!relative) {
    dir += "/cache";
    ensure_private_dir(dir, path);
    auto key = git.url + "\n" + (git.remote ? git.remote->name : std::string{}) + "\n"
               + (git.remote && !git.remote->urls.empty() ? git.remote->urls.front() : "");
    dir += "/" + dsl::sha256_hex(key).substr(0, 24);
    ensure_private_dir(dir, path);
    return dir;
  }
  dir += "/dirs";
  ensure_private_dir(dir, path);
  std::size_t start = 0;
  while (start < relative->size()) {
    auto slash = relative->find('/', start);
    dir += "/" + relative->substr(start, slash == std::string::npos ? slash : slash - start);
    ensure_private_dir(dir, clone_at);
    start = slash == std::string::npos ? relative->size() : slash + 1;
  }
  return dir;
}

} // namespace ganglion::kubernetes::detail
