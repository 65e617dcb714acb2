#include "ganglion/core/secret_files.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

namespace ganglion::core {

namespace {

namespace fs = std::filesystem;

/// `part` as one path component; throws when it could leave its directory.
std::string component(const std::string& part, const char* what) {
  if (part.empty() || part == "." || part == ".." || part.find('/') != std::string::npos
      || part.find('\0') != std::string::npos)
    throw std::runtime_error(std::string{"invalid secret "} + what + " '" + part + "'");
  return part;
}

std::string system_error(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

/// Makes directory `path` (0700) unless it exists.
void make_private_dir(const std::string& path) {
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
    throw std::runtime_error(system_error("cannot create the secrets directory", path));
}

/// Writes `content` to `path` through a 0600 temporary file renamed over it.
void replace_file(const std::string& path, const std::string& content) {
  std::string temp = path + ".tmp-XXXXXX";
  std::vector<char> name(temp.begin(), temp.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw std::runtime_error(system_error("cannot create a secret file in", path));
  std::string written{name.data()};
  bool ok = ::fchmod(fd, 0600) == 0;
  for (std::size_t done = 0; ok && done < content.size();) {
    auto n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    ok = n > 0;
    if (ok)
      done += static_cast<std::size_t>(n);
  }
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(written.c_str(), path.c_str()) != 0) {
    auto why = system_error("cannot write the secret file", path);
    ::unlink(written.c_str());
    throw std::runtime_error(why);
  }
}

} // namespace

secret_files::secret_files(std::string parent) : parent_(std::move(parent)) {}

secret_files::~secret_files() {
  std::lock_guard guard{mutex_};
  if (dir_.empty())
    return;
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string secret_files::write(const std::string& namespace_name, const std::string& name,
                                const std::string& key, const std::string& value) {
  auto ns = namespace_name.empty() ? std::string{"_"} : component(namespace_name, "namespace");
  auto path_name = component(name, "name");
  auto path_key = component(key, "key");
  auto content = value;
  if (!content.empty() && content.back() != '\n')
    content.push_back('\n');
  std::lock_guard guard{mutex_};
  if (dir_.empty()) {
    std::error_code ec;
    auto parent = parent_.empty() ? fs::temp_directory_path(ec).string() : parent_;
    if (parent.empty())
      parent = "/tmp";
    std::string pattern = parent + "/ganglion-secrets-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (!::mkdtemp(buffer.data()))
      throw std::runtime_error(system_error("cannot create a private secrets directory in", parent));
    dir_ = buffer.data();
  }
  auto ns_dir = dir_ + "/" + ns;
  auto name_dir = ns_dir + "/" + path_name;
  auto path = name_dir + "/" + path_key;
  auto id = std::tuple{namespace_name, name, key};
  auto known = contents_.find(id);
  if (known != contents_.end() && known->second == content && fs::exists(path))
    return path;
  make_private_dir(ns_dir);
  make_private_dir(name_dir);
  replace_file(path, content);
  contents_[id] = std::move(content);
  return path;
}

std::vector<std::tuple<std::string, std::string, std::string>> secret_files::written() const {
  std::lock_guard guard{mutex_};
  std::vector<std::tuple<std::string, std::string, std::string>> out;
  for (const auto& [id, content] : contents_)
    out.push_back(id);
  return out;
}

void secret_files::refresh(const secret_store::lookup& read) {
  for (const auto& [ns, name, key] : written()) {
    std::string error;
    auto value = read(ns, name, key, &error);
    if (!value)
      continue; // its consumer's next file() reports why
    try {
      write(ns, name, key, *value);
    } catch (const std::exception& ex) {
      spdlog::warn("secret {}/{} (namespace {}): {}", name, key, ns, ex.what());
    }
  }
}

std::string secret_files::dir() const {
  std::lock_guard guard{mutex_};
  return dir_;
}

} // namespace ganglion::core
