// git's filePath read beneath the clone (openat2, and the O_NOFOLLOW walk used where the kernel
// lacks it): a symbolic link at any component, `..` and absolute paths refused with an error at
// filePath; a file over the limit never read past it.

#include <fcntl.h>
#include <filesystem>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "artifact/artifact.hpp"
#include "artifact/repo_path.hpp"
#include "files.hpp"

namespace ganglion::kubernetes::detail {
namespace {

namespace fs = std::filesystem;

const std::string at = "source.git.filePath";

/// A clone `root` holding `cfg/sub/x.yaml`, and a directory outside it holding `x.yaml` and
/// `sub/x.yaml` (what a link would reach).
struct repo_path_test : ::testing::TestWithParam<resolve_mode> {
  std::string root = test::temp_dir();
  std::string outside = test::temp_dir();

  repo_path_test() {
    test::write_file(root + "/cfg/sub/x.yaml", "kind: Inside\n");
    test::write_file(outside + "/x.yaml", "kind: Outside\n");
    test::write_file(outside + "/sub/x.yaml", "kind: Outside\n");
  }

  beneath_request request(const std::string& file_path, std::size_t max = 1024) const {
    beneath_request r;
    r.root = root;
    r.file_path = file_path;
    r.max_bytes = max;
    r.at = at;
    r.size_at = "source.git";
    r.where = "the repository";
    r.mode = GetParam();
    return r;
  }

  std::string error_of(const std::string& file_path) const {
    try {
      auto bytes = read_beneath(request(file_path));
      return "(no error, read " + std::to_string(bytes.size()) + " bytes)";
    } catch (const artifact_error& e) {
      return e.what();
    }
  }
};

TEST_P(repo_path_test, a_file_beneath_the_root_is_read) {
  EXPECT_EQ(read_beneath(request("cfg/sub/x.yaml")), "kind: Inside\n");
  EXPECT_EQ(read_beneath(request("./cfg//sub/x.yaml")), "kind: Inside\n");
}

TEST_P(repo_path_test, a_symbolic_link_at_any_component_is_refused) {
  fs::create_directories(root + "/a/b");
  fs::create_directory_symlink(outside, root + "/first");
  fs::create_directory_symlink(outside, root + "/a/middle");
  fs::create_symlink(outside + "/x.yaml", root + "/a/b/last.yaml");
  fs::create_symlink("../cfg/sub/x.yaml", root + "/a/inside.yaml"); // stays inside: refused too
  EXPECT_EQ(error_of("first/x.yaml"),
            at + ": \"first/x.yaml\" goes through the symbolic link \"first\", which is not "
                 "allowed");
  EXPECT_EQ(error_of("a/middle/sub/x.yaml"),
            at + ": \"a/middle/sub/x.yaml\" goes through the symbolic link \"a/middle\", which "
                 "is not allowed");
  EXPECT_EQ(error_of("a/b/last.yaml"),
            at + ": \"a/b/last.yaml\" is a symbolic link, which is not allowed");
  EXPECT_EQ(error_of("a/inside.yaml"),
            at + ": \"a/inside.yaml\" is a symbolic link, which is not allowed");
}

TEST_P(repo_path_test, dot_dot_and_absolute_paths_are_refused) {
  EXPECT_EQ(error_of("../" + fs::path{outside}.filename().string() + "/x.yaml")
              .rfind(at + ": \"../", 0),
            0u);
  EXPECT_NE(error_of("cfg/../../x.yaml").find("leaves the repository"), std::string::npos);
  EXPECT_NE(error_of(outside + "/x.yaml").find("is an absolute path"), std::string::npos);
}

TEST_P(repo_path_test, a_missing_file_and_a_directory_are_errors) {
  EXPECT_EQ(error_of("cfg/absent.yaml"), at + ": no file \"cfg/absent.yaml\" in the repository");
  EXPECT_EQ(error_of("cfg/sub/x.yaml/more"),
            at + ": no file \"cfg/sub/x.yaml/more\" in the repository");
  EXPECT_EQ(error_of("cfg"), at + ": \"cfg\" is not a file");
}

TEST_P(repo_path_test, a_file_over_the_limit_is_refused) {
  test::write_file(root + "/big.yaml", std::string(4096, 'x'));
  try {
    read_beneath(request("big.yaml", 100));
    FAIL() << "an oversized file was read";
  } catch (const artifact_error& e) {
    EXPECT_EQ(std::string{e.what()}, "source.git: the artifact is larger than the limit of 100 "
                                     "bytes");
  }
}

INSTANTIATE_TEST_SUITE_P(modes, repo_path_test,
                         ::testing::Values(resolve_mode::automatic, resolve_mode::walk),
                         [](const auto& info) {
                           return info.param == resolve_mode::walk ? "walk" : "openat2";
                         });

TEST(read_at_most, stops_one_byte_past_the_limit) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::string data(5000, 'y');
  ASSERT_EQ(::write(fds[1], data.data(), data.size()), static_cast<ssize_t>(data.size()));
  bool over = false;
  auto bytes = read_at_most(fds[0], 1000, &over);
  EXPECT_TRUE(over);
  EXPECT_EQ(bytes.size(), 1000u);
  // What is left in the pipe: everything after the limit's one extra byte.
  char rest[8192];
  ::close(fds[1]);
  auto left = ::read(fds[0], rest, sizeof rest);
  EXPECT_EQ(left, static_cast<ssize_t>(5000 - 1001));
  ::close(fds[0]);
}

} // namespace
} // namespace ganglion::kubernetes::detail
