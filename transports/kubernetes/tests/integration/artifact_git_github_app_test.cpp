// `git.githubApp` against a GitHub stand-in on 127.0.0.1 (tests/support/github_server) behind
// an HTTPS front with its own CA: the App's JWT goes to the configured API root only, over https
// only, is checked with its public key and exchanged for an installation token, the real
// repository is served over smart HTTP by git-http-backend only to `x-access-token` with that
// token; the token is reused while it is fresh; a wrong key, an unknown installation and a key
// that is no PEM are errors at their field; over plain http nothing is sent; a k8s trigger
// creates the object from the file.

#include <filesystem>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "artifact/artifact.hpp"
#include "files.hpp"
#include "ganglion/core/secrets.hpp"
#include "git_fixture.hpp"
#include "loopback_servers.hpp"
#include "github_server.hpp"
#include "trigger_fixture.hpp"

namespace ganglion::kubernetes::detail {
namespace {

using nlohmann::json;
using testing::git_origin;

const std::string at = "spec.triggers[0].template.k8s.source";
constexpr std::int64_t app_id = 12345;
constexpr std::int64_t installation_id = 67890;

std::string workflow(const std::string& name) {
  return "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata:\n  name: " + name + "\n";
}

/// The App's key pair, a repository `origin` (branch main) behind a GitHub stand-in, and the
/// App's private key in the secrets directory (`github-app-pem/privateKey.pem`).
struct github_app_test : ::testing::Test {
  test::rsa_key_pair keys = test::make_rsa_key_pair();
  git_origin origin{"main"};
  std::string root = std::filesystem::path{origin.dir()}.parent_path().string();
  std::unique_ptr<test::github_server> github =
    std::make_unique<test::github_server>(app_id, installation_id, keys.public_pem, root);
  std::unique_ptr<test::tls_front> front = std::make_unique<test::tls_front>(port_of(*github));
  core::secret_store secrets{test::temp_dir()};

  static std::uint16_t port_of(const test::github_server& server) {
    auto url = server.base_url();
    return static_cast<std::uint16_t>(std::stoi(url.substr(url.rfind(':') + 1)));
  }

  /// A new GitHub stand-in (and front): a new API root, so nothing is cached for it.
  void restart_github() {
    front.reset();
    github = std::make_unique<test::github_server>(app_id, installation_id, keys.public_pem, root);
    front = std::make_unique<test::tls_front>(port_of(*github));
  }

  std::string api_url() const { return front->base_url() + "/api/v3"; }

  github_app_test() {
    origin.commit_file("wf.yaml", workflow("from-the-app"));
    put_key(keys.private_pem);
  }

  void put_key(const std::string& pem) const {
    test::write_file(secrets.dir() + "/github-app-pem/privateKey.pem", pem);
  }

  git_artifact git(std::int64_t installation = installation_id) const {
    git_artifact out;
    out.url = front->base_url() + "/origin";
    out.file_path = "wf.yaml";
    out.branch = "main";
    out.github_app = github_app_creds{dsl::secret_key_selector{"github-app-pem", "privateKey.pem"},
                                      app_id, installation};
    return out;
  }

  fetch_options options() const {
    fetch_options out;
    out.path = at;
    out.secrets = &secrets;
    out.data_dir = test::temp_dir();
    out.timeout = std::chrono::seconds(20);
    out.github_api_url = api_url();
    out.ca_file = front->ca_file();
    return out;
  }

  std::string fetch(const git_artifact& g, const fetch_options& o) const {
    artifact_location loc;
    loc.git = g;
    return fetch_artifact(loc, o);
  }
  std::string fetch(const git_artifact& g) const { return fetch(g, options()); }

  std::string error_of(const git_artifact& g, const fetch_options& o) const {
    try {
      fetch(g, o);
    } catch (const artifact_error& e) {
      return e.what();
    }
    return "(no error)";
  }

  std::string error_of(const git_artifact& g) const {
    try {
      fetch(g);
    } catch (const artifact_error& e) {
      return e.what();
    }
    return "(no error)";
  }

  std::string token_url() const {
    return api_url() + "/app/installations/" + std::to_string(installation_id) + "/access_tokens";
  }
};

TEST_F(github_app_test, the_installation_token_clones_the_repository) {
  auto object = json::parse(fetch(git()));
  EXPECT_EQ(object["metadata"]["name"], "from-the-app");
  EXPECT_EQ(github->tokens_issued(), 1u);
  EXPECT_GT(github->git_requests_served(), 0u);
}

TEST_F(github_app_test, without_the_app_the_server_refuses_the_clone) {
  auto g = git();
  g.github_app.reset();
  auto message = error_of(g);
  EXPECT_EQ(message.rfind(at + ".git.url: cannot clone " + g.url, 0), 0u) << message;
  EXPECT_EQ(github->git_requests_served(), 0u);
}

TEST_F(github_app_test, a_fresh_token_is_reused_and_one_near_expiry_is_replaced) {
  fetch(git());
  origin.commit_file("wf.yaml", workflow("second"));
  EXPECT_EQ(json::parse(fetch(git()))["metadata"]["name"], "second");
  EXPECT_EQ(github->tokens_issued(), 1u) << "a token valid for an hour was asked for again";

  // A new server (a new API root, so nothing cached): tokens living 30 s are within
  // ghinstallation's one-minute refresh margin, so each fetch asks for a new one.
  restart_github();
  github->set_token_lifetime(std::chrono::seconds(30));
  fetch(git());
  fetch(git());
  EXPECT_EQ(github->tokens_issued(), 2u);
}

TEST_F(github_app_test, a_wrong_key_is_refused_with_githubs_message) {
  put_key(test::make_rsa_key_pair().private_pem);
  EXPECT_EQ(error_of(git()), at + ".git.githubApp: POST " + token_url()
                               + " answered HTTP 401: A JSON web token could not be decoded "
                                 "(appID 12345, installationID 67890)");
  EXPECT_EQ(github->git_requests_served(), 0u);
}

TEST_F(github_app_test, an_unknown_installation_is_githubs_404) {
  auto message = error_of(git(111));
  EXPECT_EQ(message, at + ".git.githubApp: POST " + api_url()
                       + "/app/installations/111/access_tokens answered HTTP 404: Not "
                         "Found (appID 12345, installationID 111)");
}

TEST_F(github_app_test, a_private_key_that_is_not_pem_is_an_error_at_private_key) {
  put_key("-----BEGIN RSA PRIVATE KEY-----\nbm90IGEga2V5\n-----END RSA PRIVATE KEY-----\n");
  auto message = error_of(git());
  EXPECT_EQ(message.rfind(at + ".git.githubApp.privateKey: not an RSA private key in PEM", 0), 0u)
    << message;
  EXPECT_EQ(message.find("bm90IGEga2V5"), std::string::npos) << "the key leaked";
  EXPECT_EQ(github->tokens_issued(), 0u);
}

TEST_F(github_app_test, a_missing_private_key_secret_is_an_error_at_private_key) {
  std::filesystem::remove(secrets.dir() + "/github-app-pem/privateKey.pem");
  auto message = error_of(git());
  EXPECT_EQ(message.rfind(at + ".git.githubApp.privateKey: ", 0), 0u) << message;
}

TEST_F(github_app_test, over_plain_http_the_jwt_is_never_sent_even_with_the_opt_in) {
  auto g = git();
  g.url = github->repo_url("origin");
  auto o = options();
  o.allow_plain_http_git = true;
  auto message = error_of(g, o);
  EXPECT_EQ(message.rfind(at + ".git.url: creds and githubApp are refused over plain http://", 0),
            0u)
    << message;
  o.github_api_url = github->base_url() + "/api/v3";
  o.allow_plain_http_git = false;
  message = error_of(git(), o);
  EXPECT_EQ(message, at + ".git.githubApp: the GitHub API URL must be https:// (the App's JWT is "
                          "never sent in clear)");
  EXPECT_EQ(github->tokens_issued(), 0u);
  EXPECT_EQ(github->git_requests_served(), 0u);
}

TEST_F(github_app_test, the_jwt_goes_to_the_configured_api_not_to_the_git_host) {
  // The repository's host is another GitHub stand-in: it sees the clone, never the JWT.
  git_origin other{"main"};
  other.commit_file("wf.yaml", workflow("elsewhere"));
  auto other_root = std::filesystem::path{other.dir()}.parent_path().string();
  test::github_server git_host{app_id, installation_id, keys.public_pem, other_root};
  test::tls_front git_front{port_of(git_host)};
  auto g = git();
  g.url = git_front.base_url() + "/origin";
  auto o = options();
  o.ca_file = front->ca_file();
  auto message = error_of(g, o);
  EXPECT_EQ(github->tokens_issued(), 1u) << message;
  EXPECT_EQ(git_host.tokens_issued(), 0u);
}

class github_app_trigger : public test::trigger_fixture {};

TEST_F(github_app_trigger, a_k8s_trigger_creates_the_object_from_the_apps_repository) {
  auto keys = test::make_rsa_key_pair();
  git_origin origin{"main"};
  origin.commit_file("deploy/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                                       "from-github\ndata:\n  greeting: hello\n");
  auto root = std::filesystem::path{origin.dir()}.parent_path().string();
  test::github_server github{app_id, installation_id, keys.public_pem, root};
  test::tls_front front{github_app_test::port_of(github)};
  kubernetes::options opts{kubeconfig, {}};
  opts.github_api_url = front.base_url() + "/api/v3";
  opts.artifact_ca_file = front.ca_file();
  kubernetes::register_transport(kinds.sources, kinds.triggers, opts);
  options.kinds = core::spec_steps(kinds);
  auto dir = test::temp_dir();
  test::write_file(dir + "/github-app-pem/privateKey.pem", test::to_pkcs1_pem(keys.private_pem));
  secrets = std::make_shared<core::secret_store>(dir);
  load("    - template:\n        name: t\n        k8s:\n          operation: create\n"
       "          source:\n            git:\n              url: "
       + front.base_url() + "/origin"
       + "\n              filePath: deploy/cm.yaml\n              branch: main\n"
         "              githubApp:\n"
         "                privateKey: {name: github-app-pem, key: privateKey.pem}\n"
         "                appID: 12345\n                installationID: 67890\n");
  auto outcome = fire(*executor());
  ASSERT_TRUE(outcome.ok) << outcome.error;
  auto cm = server.get("v1", "ConfigMap", "default", "from-github");
  ASSERT_TRUE(cm);
  EXPECT_EQ((*cm)["data"]["greeting"], "hello");
  EXPECT_EQ(github.tokens_issued(), 1u);
}

} // namespace
} // namespace ganglion::kubernetes::detail
