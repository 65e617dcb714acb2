// The git source over SSH against a real sshd on 127.0.0.1 (Debian's openssh-server, started
// with its own configuration and host key): the key comes from the secret store, and the host
// key is accepted only with insecureIgnoreHostKey (else ~/.ssh/known_hosts decides).

#include <filesystem>
#include <fstream>
#include <optional>
#include <pwd.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "artifact/artifact.hpp"
#include "child_process.hpp"
#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/secret_files.hpp"
#include "ganglion/core/secrets.hpp"
#include "git_fixture.hpp"
#include "http_sink.hpp"

#include <boost/asio.hpp>

namespace ganglion::kubernetes::detail {
namespace {

namespace fs = std::filesystem;
using testing::git_origin;

const std::string at = "spec.triggers[0].template.k8s.source";
const char* const sshd_binary = "/usr/sbin/sshd";

bool accepts_connections(std::uint16_t port) {
  boost::asio::io_context context;
  boost::asio::ip::tcp::socket socket{context};
  boost::system::error_code ec;
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
  return !ec;
}

/// sshd on a free loopback port, letting in the holder of one client key as the current user.
struct ssh_server {
  std::string dir = test::temp_dir();
  std::string client_key;
  std::uint16_t port = test::free_port();
  std::unique_ptr<test::child_process> process;

  /// Why sshd cannot run here, or empty once it listens.
  std::string start(const std::string& secrets_dir) {
    if (!fs::exists(sshd_binary))
      return std::string{sshd_binary} + " is not installed (Debian package openssh-server)";
    if (::geteuid() == 0 && !fs::exists("/run/sshd") && ::mkdir("/run/sshd", 0755) != 0)
      return "sshd needs its privilege separation directory /run/sshd";
    client_key = secrets_dir + "/git-ssh/key";
    fs::create_directories(secrets_dir + "/git-ssh");
    git_origin::run({"ssh-keygen", "-q", "-t", "ecdsa", "-b", "256", "-m", "PEM", "-N", "", "-f",
                     dir + "/host_key"});
    git_origin::run(
      {"ssh-keygen", "-q", "-t", "ecdsa", "-b", "256", "-m", "PEM", "-N", "", "-f", client_key});
    fs::copy_file(client_key + ".pub", dir + "/authorized_keys");
    fs::remove(client_key + ".pub");
    test::write_file(dir + "/sshd_config",
                     "Port " + std::to_string(port)
                       + "\nListenAddress 127.0.0.1\n"
                         "HostKey "
                       + dir + "/host_key\nPidFile " + dir
                       + "/sshd.pid\n"
                         "AuthorizedKeysFile "
                       + dir
                       + "/authorized_keys\n"
                         "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                         "UsePAM no\nStrictModes no\nPermitRootLogin prohibit-password\n"
                         "LogLevel ERROR\n"
                         // The session's shell reads no rc file of the user's real home.
                         "SetEnv HOME="
                       + dir + "\n");
    process = std::make_unique<test::child_process>(
      std::vector<std::string>{sshd_binary, "-D", "-e", "-f", dir + "/sshd_config"});
    if (!test::eventually([&] { return accepts_connections(port) || !process->running(); }))
      return "sshd did not listen: " + process->output();
    if (!process->running())
      return "sshd exited: " + process->output();
    return {};
  }
};

/// The user sshd lets the client in as: this process's.
std::string user_name() {
  const auto* entry = ::getpwuid(::geteuid());
  return entry ? entry->pw_name : "root";
}

TEST(artifact_git_ssh, a_key_from_the_secret_store_clones_over_ssh) {
  auto secrets_dir = test::temp_dir();
  ssh_server server;
  if (auto why = server.start(secrets_dir); !why.empty())
    GTEST_SKIP() << why;
  git_origin origin;
  origin.commit_file("wf.yaml", "kind: Workflow\nmetadata:\n  name: over-ssh\n");

  git_artifact git;
  git.url = "ssh://" + user_name() + "@127.0.0.1:" + std::to_string(server.port) + origin.dir();
  git.file_path = "wf.yaml";
  git.ssh_key_secret = dsl::secret_key_selector{"git-ssh", "key"};
  git.insecure_ignore_host_key = true;
  artifact_location loc;
  loc.git = git;
  core::secret_store secrets{secrets_dir};
  fetch_options options;
  options.path = at;
  options.secrets = &secrets;
  options.data_dir = test::temp_dir();
  options.timeout = std::chrono::seconds(20);
  auto object = nlohmann::json::parse(fetch_artifact(loc, options));
  EXPECT_EQ(object["metadata"]["name"], "over-ssh");

  // A host key that ~/.ssh/known_hosts does not list is refused without insecureIgnoreHostKey.
  loc.git->insecure_ignore_host_key = false;
  options.data_dir = test::temp_dir();
  try {
    fetch_artifact(loc, options);
    FAIL() << "an unknown host key was accepted";
  } catch (const artifact_error& e) {
    EXPECT_EQ(std::string{e.what()}.rfind(at + ".git.url: cannot clone ", 0), 0u) << e.what();
  }
}

TEST(artifact_git_ssh, a_key_from_a_kubernetes_secret_is_handed_to_libgit2_as_a_private_file) {
  auto secrets_dir = test::temp_dir();
  ssh_server server;
  if (auto why = server.start(secrets_dir); !why.empty())
    GTEST_SKIP() << why;
  git_origin origin;
  origin.commit_file("wf.yaml", "kind: Workflow\nmetadata:\n  name: from-secret\n");

  // Cluster mode's store: values read by namespace, as a Secret's data is (no trailing newline).
  std::ifstream in{server.client_key};
  std::string key{std::istreambuf_iterator<char>{in}, {}};
  while (!key.empty() && key.back() == '\n')
    key.pop_back();
  std::vector<std::string> asked;
  core::secret_store root{[&](const std::string& ns, const std::string& name,
                              const std::string& k, std::string*) -> std::optional<std::string> {
                            asked.push_back(ns + "/" + name + "/" + k);
                            return key;
                          },
                          std::make_shared<core::secret_files>(test::temp_dir())};
  auto secrets = root.for_namespace("team-a");
  artifact_location loc;
  loc.git = git_artifact{};
  loc.git->url =
    "ssh://" + user_name() + "@127.0.0.1:" + std::to_string(server.port) + origin.dir();
  loc.git->file_path = "wf.yaml";
  loc.git->ssh_key_secret = dsl::secret_key_selector{"git-ssh", "key"};
  loc.git->insecure_ignore_host_key = true;
  fetch_options options;
  options.path = at;
  options.secrets = secrets.get();
  options.data_dir = test::temp_dir();
  options.timeout = std::chrono::seconds(20);
  auto object = nlohmann::json::parse(fetch_artifact(loc, options));
  EXPECT_EQ(object["metadata"]["name"], "from-secret");
  ASSERT_FALSE(asked.empty());
  EXPECT_EQ(asked.back(), "team-a/git-ssh/key");
}

TEST(artifact_git_ssh, a_key_the_server_does_not_know_is_refused) {
  auto secrets_dir = test::temp_dir();
  ssh_server server;
  if (auto why = server.start(secrets_dir); !why.empty())
    GTEST_SKIP() << why;
  fs::remove(server.client_key);
  git_origin::run({"ssh-keygen", "-q", "-t", "ecdsa", "-b", "256", "-m", "PEM", "-N", "", "-f",
                   server.client_key});
  git_origin origin;
  origin.commit_file("wf.yaml", "kind: Workflow\n");
  artifact_location loc;
  loc.git = git_artifact{};
  loc.git->url =
    "ssh://" + user_name() + "@127.0.0.1:" + std::to_string(server.port) + origin.dir();
  loc.git->file_path = "wf.yaml";
  loc.git->ssh_key_secret = dsl::secret_key_selector{"git-ssh", "key"};
  loc.git->insecure_ignore_host_key = true;
  core::secret_store secrets{secrets_dir};
  fetch_options options;
  options.path = at;
  options.secrets = &secrets;
  options.data_dir = test::temp_dir();
  options.timeout = std::chrono::seconds(20);
  try {
    fetch_artifact(loc, options);
    FAIL() << "a key the server does not know was let in";
  } catch (const artifact_error& e) {
    EXPECT_EQ(std::string{e.what()}.rfind(at + ".git.url: cannot clone ", 0), 0u) << e.what();
  }
}

} // namespace
} // namespace ganglion::kubernetes::detail
