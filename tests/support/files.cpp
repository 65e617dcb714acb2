#include "files.hpp"

#include <cerrno>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace ganglion::test {

namespace {

/// Removes the registered directories at exit (only in the process that created them).
class cleanup {
public:
  ~cleanup() {
    std::lock_guard guard{mutex_};
    std::error_code ec;
    for (const auto& dir : dirs_)
      std::filesystem::remove_all(dir, ec);
  }
  void add(std::string dir) {
    std::lock_guard guard{mutex_};
    dirs_.push_back(std::move(dir));
  }

private:
  std::mutex mutex_;
  std::vector<std::string> dirs_;
};

cleanup& registry() {
  static cleanup instance;
  return instance;
}

} // namespace

std::string temp_dir() {
  auto& dirs = registry();
  std::string pattern = "/tmp/ganglion-test-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error(std::string("mkdtemp failed: ") + std::strerror(errno));
  dirs.add(pattern);
  return pattern;
}

std::string read_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  if (!in)
    throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

void write_file(const std::string& path, const std::string& content) {
  std::filesystem::path p{path};
  if (p.has_parent_path())
    std::filesystem::create_directories(p.parent_path());
  std::ofstream out{p, std::ios::binary | std::ios::trunc};
  out << content;
  out.close();
  if (!out)
    throw std::runtime_error("cannot write " + path);
}

std::vector<std::string> yaml_files_under(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (std::filesystem::recursive_directory_iterator it{dir, ec}, end; !ec && it != end;
       it.increment(ec)) {
    auto ext = it->path().extension();
    if (it->is_regular_file() && (ext == ".yaml" || ext == ".yml"))
      files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace ganglion::test
