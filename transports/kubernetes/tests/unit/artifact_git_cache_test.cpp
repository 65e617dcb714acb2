// Where git clones live: one folder per namespace and per credentials under the data
// directory, every folder 0700 and checked, cloneDirectory kept beneath the namespace's root.

#include <filesystem>
#include <string>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "artifact/artifact.hpp"
#include "artifact/git_cache.hpp"
#include "files.hpp"

namespace ganglion::kubernetes::detail {
namespace {

namespace fs = std::filesystem;

const std::string at = "source.git";

mode_t mode_of(const std::string& path) {
  struct stat info {};
  EXPECT_EQ(::lstat(path.c_str(), &info), 0) << path;
  return info.st_mode & 07777;
}

struct git_cache_test : ::testing::Test {
  std::string data_dir = test::temp_dir();

  fetch_options options(const std::string& ns) const {
    fetch_options out;
    out.data_dir = data_dir;
    out.namespace_name = ns;
    return out;
  }

  static git_artifact git(const std::string& clone_directory = {}) {
    git_artifact out;
    out.url = "https://example.com/team/repo.git";
    out.file_path = "wf.yaml";
    out.clone_directory = clone_directory;
    return out;
  }

  std::string error_of(const git_artifact& g, const fetch_options& o,
                       const std::string& id = "anonymous") const {
    try {
      git_clone_dir(g, o, id, at);
    } catch (const artifact_error& e) {
      return e.what();
    }
    return "(no error)";
  }
};

TEST_F(git_cache_test, two_namespaces_or_two_credentials_never_share_a_clone) {
  auto none = credentials_identity("none", {}, {});
  auto a = git_clone_dir(git(), options("team-a"), none, at);
  auto b = git_clone_dir(git(), options("team-b"), none, at);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.rfind(data_dir + "/git/team-a/", 0), 0u) << a;
  EXPECT_EQ(b.rfind(data_dir + "/git/team-b/", 0), 0u) << b;
  EXPECT_EQ(git_clone_dir(git(), options("team-a"), none, at), a) << "the same clone is reused";

  auto alice = credentials_identity("creds", "github/username\ngithub/password\n",
                                    std::string{"alice\0pw1", 9});
  auto bob = credentials_identity("creds", "github/username\ngithub/password\n",
                                  std::string{"bob\0pw2", 7});
  EXPECT_NE(alice, bob) << "other secret values";
  EXPECT_NE(alice, credentials_identity("creds", "other/username\nother/password\n",
                                        std::string{"alice\0pw1", 9}))
    << "other secret references";
  EXPECT_NE(git_clone_dir(git(), options("team-a"), alice, at),
            git_clone_dir(git(), options("team-a"), bob, at));
  EXPECT_EQ(alice.find("alice"), std::string::npos);

  // Without a namespace the folder is "_"; the same cloneDirectory in two namespaces differs.
  EXPECT_EQ(git_clone_dir(git(), options(""), none, at).rfind(data_dir + "/git/_/", 0), 0u);
  EXPECT_NE(git_clone_dir(git("shared"), options("team-a"), none, at),
            git_clone_dir(git("shared"), options("team-b"), none, at));
}

TEST_F(git_cache_test, every_folder_is_private) {
  auto dir = git_clone_dir(git("deep/clone"), options("team-a"), "id", at);
  for (fs::path p = dir; p != fs::path{data_dir}; p = p.parent_path())
    EXPECT_EQ(mode_of(p.string()), 0700u) << p;
}

TEST_F(git_cache_test, clone_directory_stays_beneath_the_namespace_root) {
  auto rooted = git_clone_dir(git("/git/argoproj"), options("team-a"), "id", at);
  EXPECT_EQ(rooted, data_dir + "/git/team-a/id/dirs/git/argoproj");
  // Another namespace's clone, named absolutely, is only a folder of this namespace's root.
  auto victim = git_clone_dir(git(), options("victim"), "id", at);
  auto aimed = git_clone_dir(git(victim), options("team-a"), "id", at);
  EXPECT_EQ(aimed.rfind(data_dir + "/git/team-a/id/dirs/", 0), 0u) << aimed;
  for (const char* bad : {"../victim", "a/../../b", "~/x", "/"})
    EXPECT_EQ(error_of(git(bad), options("team-a")).rfind(at + ".cloneDirectory: cloneDirectory "
                                                               "must stay beneath",
                                                          0),
              0u)
      << bad;
}

TEST_F(git_cache_test, a_folder_others_can_use_or_a_link_is_refused) {
  fs::create_directories(data_dir + "/git");
  ::chmod((data_dir + "/git").c_str(), 0755);
  EXPECT_NE(error_of(git(), options("team-a")).find("its group or others may use it (mode 0755"),
            std::string::npos)
    << error_of(git(), options("team-a"));
  ::chmod((data_dir + "/git").c_str(), 0700);
  fs::create_directory_symlink(test::temp_dir(), data_dir + "/git/team-b");
  EXPECT_NE(error_of(git(), options("team-b")).find("it is a symbolic link"), std::string::npos);
  EXPECT_NE(error_of(git(), options("Not/A-Namespace")).find("is not a namespace name"),
            std::string::npos);
}

TEST(git_cache, without_a_data_directory_the_root_is_private_per_user) {
  fetch_options options;
  auto root = git_clone_root(options, at);
  EXPECT_EQ(fs::path{root}.filename().string(), "ganglion-git-" + std::to_string(::geteuid()));
  EXPECT_EQ(mode_of(root), 0700u);
}

} // namespace
} // namespace ganglion::kubernetes::detail
