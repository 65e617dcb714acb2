// The git source against real repositories made with the git command line, served over smart
// HTTP by git-http-backend (plain http with the allow_plain_http_git opt-in, https behind a
// test CA): branch, tag and ref checkouts, a second remote, fetching again into the same
// clone, clones kept apart per namespace and credentials, filePath kept beneath the clone, and
// each failure an error naming the field.

#include <filesystem>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "artifact/artifact.hpp"
#include "artifact/git_cache.hpp"
#include "files.hpp"
#include "ganglion/core/secrets.hpp"
#include "git_fixture.hpp"
#include "loopback_servers.hpp"

namespace ganglion::kubernetes::detail {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::git_origin;
using test::git_http_server;

mode_t mode_of(const std::string& path) {
  struct stat info {};
  EXPECT_EQ(::lstat(path.c_str(), &info), 0) << path;
  return info.st_mode & 07777;
}

const std::string at = "spec.triggers[0].template.k8s.source";

std::string workflow(const std::string& name) {
  return "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata:\n  name: " + name + "\n";
}

struct git_test : ::testing::Test {
  std::string data_dir = test::temp_dir();
  std::vector<std::unique_ptr<git_http_server>> servers;

  fetch_options options() const {
    fetch_options out;
    out.path = at;
    out.data_dir = data_dir;
    out.allow_plain_http_git = true;
    out.timeout = std::chrono::seconds(20);
    return out;
  }

  /// `http://127.0.0.1:<port>/origin`: `origin` served by a server of its own.
  std::string url_of(const git_origin& origin) {
    auto root = fs::path{origin.dir()}.parent_path().string();
    servers.push_back(std::make_unique<git_http_server>(root));
    return servers.back()->repo_url(fs::path{origin.dir()}.filename().string());
  }

  /// The clone folder of a location without credentials in namespace `ns` ("_" for none).
  std::string clones_of(const std::string& ns = "_") const {
    return data_dir + "/git/" + ns + "/" + credentials_identity("none", {}, {});
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
  git.url = url_of(origin);
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
  git.url = url_of(origin);
  git.file_path = "wf.yaml";
  git.clone_directory = "team/clone";
  EXPECT_EQ(name_at(git), "before");
  auto clone = clones_of() + "/dirs/team/clone";
  ASSERT_TRUE(fs::exists(clone + "/.git")) << clone;
  test::write_file(clone + "/.git/kept-by-a-fetch", "marker");
  test::write_file(clone + "/wf.yaml", workflow("edited in the clone"));

  origin.commit_file("wf.yaml", workflow("after"));
  EXPECT_EQ(name_at(git), "after");
  EXPECT_TRUE(fs::exists(clone + "/.git/kept-by-a-fetch"))
    << "the clone was made again instead of fetched into";
}

TEST_F(git_test, without_a_clone_directory_the_cache_keeps_one_clone_per_url) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("one"));
  git_artifact git;
  git.url = url_of(origin);
  git.file_path = "wf.yaml";
  EXPECT_EQ(name_at(git), "one");
  origin.commit_file("wf.yaml", workflow("two"));
  EXPECT_EQ(name_at(git), "two");
  auto cache = clones_of() + "/cache";
  auto clones = std::distance(fs::directory_iterator{cache}, fs::directory_iterator{});
  EXPECT_EQ(clones, 1);
}

TEST_F(git_test, a_remote_gives_the_branch_of_that_remote) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("from-origin"));
  git_origin upstream;
  upstream.commit_file("wf.yaml", workflow("from-upstream"));
  git_artifact git;
  git.url = url_of(origin);
  git.file_path = "wf.yaml";
  git.remote = git_remote{"upstream", {url_of(upstream)}};
  EXPECT_EQ(name_at(git), "from-upstream");
}

TEST_F(git_test, an_unknown_branch_tag_or_ref_is_an_error_at_its_field) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("v1"));
  git_artifact git;
  git.url = url_of(origin);
  git.file_path = "wf.yaml";
  git.branch = "nope";
  EXPECT_EQ(error_of(git), at + ".git.branch: no branch \"nope\" in " + git.url);
  git.tag = "v9";
  EXPECT_EQ(error_of(git), at + ".git.tag: no tag \"v9\" in " + git.url);
  git.ref = "refs/heads/nope";
  EXPECT_EQ(error_of(git), at + ".git.ref: no ref \"refs/heads/nope\" in " + git.url);
}

TEST_F(git_test, a_repository_without_master_needs_a_branch) {
  git_origin origin{"main"};
  origin.commit_file("wf.yaml", workflow("v1"));
  git_artifact git;
  git.url = url_of(origin);
  git.file_path = "wf.yaml";
  auto message = error_of(git);
  EXPECT_EQ(message, at + ".git.branch: no branch \"master\" in " + git.url
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
  git.url = url_of(origin);
  git.file_path = "absent.yaml";
  EXPECT_EQ(error_of(git),
            at + ".git.filePath: no file \"absent.yaml\" in " + git.url + " at branch master");
  git.file_path = "link.yaml";
  EXPECT_EQ(error_of(git), at
                             + ".git.filePath: \"link.yaml\" is a symbolic link, which is "
                               "not allowed");
}

TEST_F(git_test, a_file_over_the_limit_is_refused) {
  git_origin origin;
  origin.commit_file("big.yaml", "kind: Pod\ndata: \"" + std::string(8192, 'x') + "\"\n");
  git_artifact git;
  git.url = url_of(origin);
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
  git_origin origin;
  git.url = url_of(origin) + "-absent";
  git.file_path = "wf.yaml";
  auto message = error_of(git);
  EXPECT_EQ(message.rfind(at + ".git.url: cannot clone " + git.url, 0), 0u) << message;
}

TEST_F(git_test, credentials_come_from_the_secret_store) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("v1"));
  url_of(origin);
  test::tls_front front{servers.back()->port()};
  git_artifact git;
  git.url = front.base_url() + "/origin";
  git.file_path = "wf.yaml";
  git.creds = git_creds{dsl::secret_key_selector{"github", "username"},
                        dsl::secret_key_selector{"github", "password"}};
  core::secret_store secrets{test::temp_dir()};
  auto opts = options();
  opts.secrets = &secrets;
  opts.ca_file = front.ca_file();
  try {
    fetch_artifact(location(git), opts);
    FAIL() << "a missing secret was not reported";
  } catch (const artifact_error& e) {
    EXPECT_EQ(std::string{e.what()}.rfind(at + ".git.creds.username: ", 0), 0u) << e.what();
  }
  test::write_file(secrets.dir() + "/github/username", "someone\n");
  test::write_file(secrets.dir() + "/github/password", "token\n");
  // The server asks for no credentials: with them resolved the fetch goes through, over https.
  EXPECT_EQ(json::parse(fetch_artifact(location(git), opts))["metadata"]["name"], "v1");
}

TEST_F(git_test, plain_http_needs_the_opt_in) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("v1"));
  git_artifact git;
  git.url = url_of(origin);
  git.file_path = "wf.yaml";
  auto opts = options();
  opts.allow_plain_http_git = false;
  try {
    fetch_artifact(location(git), opts);
    FAIL() << "plain http was cloned without the opt-in";
  } catch (const artifact_error& e) {
    EXPECT_EQ(std::string{e.what()}.rfind(at + ".git.url: plain http:// is refused", 0), 0u)
      << e.what();
  }
  EXPECT_FALSE(fs::exists(data_dir + "/git")) << "nothing is cloned before the URL is accepted";
}

TEST_F(git_test, namespaces_never_share_a_clone_and_clones_are_private) {
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("v1"));
  git_artifact git;
  git.url = url_of(origin);
  git.file_path = "wf.yaml";
  for (const char* ns : {"team-a", "team-b"}) {
    auto opts = options();
    opts.namespace_name = ns;
    EXPECT_EQ(json::parse(fetch_artifact(location(git), opts))["metadata"]["name"], "v1");
  }
  for (const char* ns : {"team-a", "team-b"}) {
    auto cache = clones_of(ns) + "/cache";
    ASSERT_TRUE(fs::exists(cache)) << cache;
    auto clone = fs::directory_iterator{cache}->path().string();
    EXPECT_EQ(mode_of(clone), 0700u);
    EXPECT_EQ(mode_of(clone + "/wf.yaml"), 0600u);
    for (fs::path p = clone; p != fs::path{data_dir}; p = p.parent_path())
      EXPECT_EQ(mode_of(p.string()), 0700u) << p;
  }
}

TEST_F(git_test, clone_directory_cannot_reach_another_namespaces_clone) {
  git_origin secret;
  secret.commit_file("wf.yaml", workflow("the-victims"));
  git_origin other;
  other.commit_file("wf.yaml", workflow("the-attackers"));
  git_artifact victim;
  victim.url = url_of(secret);
  victim.file_path = "wf.yaml";
  victim.clone_directory = "/git/private";
  auto victim_opts = options();
  victim_opts.namespace_name = "victim";
  EXPECT_EQ(json::parse(fetch_artifact(location(victim), victim_opts))["metadata"]["name"],
            "the-victims");

  // The attacker names the victim's clone as their cloneDirectory: it is a folder of their own
  // namespace's root, holding their own repository.
  git_artifact attacker;
  attacker.url = url_of(other);
  attacker.file_path = "wf.yaml";
  attacker.clone_directory = clones_of("victim") + "/dirs/git/private";
  auto attacker_opts = options();
  attacker_opts.namespace_name = "attacker";
  EXPECT_EQ(json::parse(fetch_artifact(location(attacker), attacker_opts))["metadata"]["name"],
            "the-attackers");
  attacker.clone_directory = "/git/private";
  EXPECT_EQ(json::parse(fetch_artifact(location(attacker), attacker_opts))["metadata"]["name"],
            "the-attackers");
  attacker.clone_directory = "../../victim/x";
  try {
    fetch_artifact(location(attacker), attacker_opts);
    FAIL() << "a cloneDirectory with .. was used";
  } catch (const artifact_error& e) {
    EXPECT_EQ(std::string{e.what()}.rfind(at + ".git.cloneDirectory: cloneDirectory must stay", 0),
              0u)
      << e.what();
  }
}

TEST_F(git_test, a_directory_link_in_the_repository_is_refused) {
  auto outside = test::temp_dir();
  test::write_file(outside + "/x.yaml", workflow("host-file"));
  git_origin origin;
  origin.commit_file("wf.yaml", workflow("v1"));
  fs::create_directory_symlink(outside, origin.dir() + "/cfg");
  origin.git({"add", "cfg"});
  origin.git({"commit", "-q", "-m", "link"});
  git_artifact git;
  git.url = url_of(origin);
  git.file_path = "cfg/x.yaml";
  EXPECT_EQ(error_of(git), at + ".git.filePath: \"cfg/x.yaml\" goes through the symbolic link "
                                "\"cfg\", which is not allowed");
}

} // namespace
} // namespace ganglion::kubernetes::detail
