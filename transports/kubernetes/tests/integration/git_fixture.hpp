#pragma once

// Real git repositories for the git source's tests, made with the `git` command line.

#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "child_process.hpp"
#include "files.hpp"

namespace ganglion::kubernetes::testing {

/// A repository made with `git init` in a fresh directory.
class git_origin {
public:
  /// An empty repository whose first branch is `branch`.
  explicit git_origin(const std::string& branch = "master")
    : dir_(test::temp_dir() + "/origin") {
    run({"git", "init", "-q", "-b", branch, dir_});
  }

  /// Runs `git <args>` in the repository; its trimmed output. Fails the test on an error.
  std::string git(std::vector<std::string> args) const {
    std::vector<std::string> argv{"git", "-C", dir_, "-c", "user.name=ganglion", "-c",
                                  "user.email=ganglion@example.com", "-c",
                                  "commit.gpgsign=false"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv);
  }

  /// Writes `path` and commits it; the commit's id.
  std::string commit_file(const std::string& path, const std::string& content) {
    test::write_file(dir_ + "/" + path, content);
    git({"add", "--", path});
    git({"commit", "-q", "-m", "write " + path});
    return git({"rev-parse", "HEAD"});
  }

  /// The repository's directory.
  const std::string& dir() const { return dir_; }
  /// `file://<dir>`.
  std::string url() const { return "file://" + dir_; }

  /// Runs a command; its trimmed output. Fails the test on an error.
  static std::string run(std::vector<std::string> argv) {
    auto line = argv;
    test::child_process child{std::move(argv), {{"GIT_CONFIG_NOSYSTEM", "1"}}};
    auto code = child.wait(std::chrono::seconds(30));
    auto out = child.output();
    EXPECT_EQ(code, 0) << line[0] << " " << (line.size() > 1 ? line[1] : "") << ": " << out;
    while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
      out.pop_back();
    return out;
  }

private:
  std::string dir_;
};

} // namespace ganglion::kubernetes::testing
