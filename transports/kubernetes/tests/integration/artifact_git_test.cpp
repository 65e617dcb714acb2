// The git source against real repositories made with the git command line (file:// URLs):
// branch, tag and ref checkouts, a second remote, fetching again into the same clone, and each
// failure an error naming the field.

#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ganglion/core/secrets.hpp"
#include "artifact/artifact.hpp"
#include "files.hpp"
#include "git_fixture.hpp"

namespace ganglion::kubernetes::detail {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::git_origin;

const std::string at = "spec.triggers[0].template.k8s.source";

std::string workflow(const std::string& name) {
  return "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata:\n  name: " + name + "\n";
}

struct git_test : ::testing::Test {
  std::string cache = test::temp_dir();

  fetch_options options() const {
    fetch_options out;
    out.path = at;
    out.git_cache_dir = cache;
    out.timeout = std::chrono::seconds(20);
    return out;
  }

  static artifact_location location(git_artifact git) {
    artifact_location loc;
    loc.git = std::move(git);
    return loc;
  }

  /// metadata.name of the object the location gives.
  std::string name_at(const git_artifact& git) const {
    auto object = json::parse(fetch_artifact(location(git), options()));
    return object["metadata"]["name"].get<std::string>();
  }

  std::string error_of(const git_artifact& git) const {
    try {
      fetch_artifact(location(git), options());
    } catch (const artifact_error& e) {
      return e.what();
    }
    return "(no error)";
  }
};

TEST_F(git_test, branch_tag_and_ref_each_check_out_their_commit) {
  git_origin origin;
  auto first = origin.commit_file("wf.yaml", workflow("v1"));
  origin.git({"tag", "v1"});
  origin.commit_file("wf.yaml", workflow("v2"));
  origin.git({"checkout", "-q", "-b", "dev"});
  origin.commit_file("wf.yaml", workflow("dev"));
  origin.git({"checkout", "-q", "master"});
  origin.git({"update-ref", "refs/pull/7/head", first});

  git_artifact git;
  git.url = origin.url();
  git.file_path = "wf.yaml";
  EXPECT_EQ(name_at(git), "v2") << "no branch: Argo's master";
  git.branch = "dev";
  EXPECT_EQ(name_at(git), "dev");
  git.tag = "v1";
  EXPECT_EQ(name_at(git), "v1") << "a tag wins over a branch";
  git.ref = "refs/heads/master";
  EXPECT_EQ(name_at(git), "v2") << "a ref wins over a tag";
  git.ref = "refs/pull/7/head";
  EXPECT_EQ(name_at(git), "v1") << "a ref outside heads and tags is fetched by name";
  git.ref = first;
  EXPECT_EQ(name_at(git), "v1") << "a commit id";
  git.ref = first.substr(0, 10);
  EXPECT_EQ(name_at(git), "v1") << "an abbreviated commit id";
}

TEST_F(git_test, a_second_fetch_updates_the_same_clone) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("before"));
  git_artifact git;
  git.url = origin.url();
  git.file_path = "wf.yaml";
  git.clone_directory = test::temp_dir() + "/clone";
  EXPECT_EQ(name_at(git), "before");
  test::write_file(git.clone_directory + "/.git/kept-by-a-fetch", "marker");
  test::write_file(git.clone_directory + "/wf.yaml", workflow("edited in the clone"));

  origin.commit_file("wf.yaml", workflow("after"));
  EXPECT_EQ(name_at(git), "after");
  EXPECT_TRUE(fs::exists(git.clone_directory + "/.git/kept-by-a-fetch"))
      << "the clone was made again instead of fetched into";
}

TEST_F(git_test, without_a_clone_directory_the_cache_keeps_one_clone_per_url) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("one"));
  git_artifact git;
  git.url = origin.url();
  git.file_path = "wf.yaml";
  EXPECT_EQ(name_at(git), "one");
  origin.commit_file("wf.yaml", workflow("two"));
  EXPECT_EQ(name_at(git), "two");
  auto clones = std::distance(fs::directory_iterator{cache}, fs::directory_iterator{});
  EXPECT_EQ(clones, 1);
}

TEST_F(git_test, a_remote_gives_the_branch_of_that_remote) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("from-origin"));
  git_origin upstream;
  upstream.commit_file("wf.yaml", workflow("from-upstream"));
  git_artifact git;
  git.url = origin.url();
  git.file_path = "wf.yaml";
  git.remote = git_remote{"upstream", {upstream.url()}};
  EXPECT_EQ(name_at(git), "from-upstream");
}

TEST_F(git_test, an_unknown_branch_tag_or_ref_is_an_error_at_its_field) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("v1"));
  git_artifact git;
  git.url = origin.url();
  git.file_path = "wf.yaml";
  git.branch = "nope";
  EXPECT_EQ(error_of(git), at + ".git.branch: no branch \"nope\" in " + origin.url());
  git.tag = "v9";
  EXPECT_EQ(error_of(git), at + ".git.tag: no tag \"v9\" in " + origin.url());
  git.ref = "refs/heads/nope";
  EXPECT_EQ(error_of(git), at + ".git.ref: no ref \"refs/heads/nope\" in " + origin.url());
}

TEST_F(git_test, a_repository_without_master_needs_a_branch) {
  git_origin origin{"main"};
  origin.commit_file("wf.yaml", workflow("v1"));
  git_artifact git;
  git.url = origin.url();
  git.file_path = "wf.yaml";
  auto message = error_of(git);
  EXPECT_EQ(message, at + ".git.branch: no branch \"master\" in " + origin.url()
                         + " (branch is not set; Argo's default is master)");
  git.branch = "main";
  EXPECT_EQ(name_at(git), "v1");
}

TEST_F(git_test, a_missing_file_or_a_symbolic_link_is_an_error_at_file_path) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("v1"));
  fs::create_symlink("/etc/passwd", origin.dir() + "/link.yaml");
  origin.git({"add", "link.yaml"});
  origin.git({"commit", "-q", "-m", "link"});
  git_artifact git;
  git.url = origin.url();
  git.file_path = "absent.yaml";
  EXPECT_EQ(error_of(git), at + ".git.filePath: no file \"absent.yaml\" in " + origin.url()
                               + " at branch master");
  git.file_path = "link.yaml";
  EXPECT_EQ(error_of(git), at + ".git.filePath: \"link.yaml\" is a symbolic link, which is "
                                "not allowed");
}

TEST_F(git_test, a_file_over_the_limit_is_refused) {
  git_origin origin;
  origin.commit_file("big.yaml", "kind: Pod\ndata: \"" + std::string(8192, 'x') + "\"\n");
  git_artifact git;
  git.url = origin.url();
  git.file_path = "big.yaml";
  auto opts = options();
  opts.max_bytes = 1024;
  try {
    fetch_artifact(location(git), opts);
    FAIL() << "an oversized file was read";
  } catch (const artifact_error& e) {
    EXPECT_EQ(std::string{e.what()},
              at + ".git: the artifact is larger than the limit of 1024 bytes");
  }
}

TEST_F(git_test, a_repository_that_cannot_be_cloned_is_an_error_at_url) {
  git_artifact git;
  git.url = "file://" + test::temp_dir() + "/no-repository";
  git.file_path = "wf.yaml";
  auto message = error_of(git);
  EXPECT_EQ(message.rfind(at + ".git.url: cannot clone " + git.url, 0), 0u) << message;
}

TEST_F(git_test, credentials_come_from_the_secret_store) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("v1"));
  git_artifact git;
  git.url = origin.url();
  git.file_path = "wf.yaml";
  git.creds = git_creds{dsl::secret_key_selector{"github", "username"},
                        dsl::secret_key_selector{"github", "password"}};
  core::secret_store secrets{test::temp_dir()};
  auto opts = options();
  opts.secrets = &secrets;
  try {
    fetch_artifact(location(git), opts);
    FAIL() << "a missing secret was not reported";
  } catch (const artifact_error& e) {
    EXPECT_EQ(std::string{e.what()}.rfind(at + ".git.creds.username: ", 0), 0u) << e.what();
  }
  test::write_file(secrets.dir() + "/github/username", "someone\n");
  test::write_file(secrets.dir() + "/github/password", "token\n");
  // file:// asks for no credentials: with them resolved the fetch goes through.
  EXPECT_EQ(json::parse(fetch_artifact(location(git), opts))["metadata"]["name"], "v1");
}

} // namespace
} // namespace ganglion::kubernetes::detail
