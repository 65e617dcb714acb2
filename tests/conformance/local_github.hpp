#pragma once

// The local stand-ins for the Internet addresses of the corpus Sensors' trigger sources: a
// `git` source's repository (github.com) becomes a local repository holding the file it names
// on the branch, tag or ref it names, served over https (a test CA's certificate for
// localhost), and a `url` source's file is served on 127.0.0.1.

#include <map>
#include <memory>
#include <string>

#include <yaml-cpp/yaml.h>

#include "loopback_servers.hpp"
#include "github_server.hpp"

namespace ganglion::test::corpus {

/// Local repositories and files behind one github_server, shared by every Sensor of the run.
class local_github {
public:
  /// `object`: the text put in every repository file and served at every URL.
  explicit local_github(std::string object);

  /// Rewrites `git` (a k8s or argoWorkflow `source.git` node) to a local repository holding
  /// `filePath` at its branch (master by default), tag and ref, over https: the GitHub stand-in
  /// when it has `creds` (accepted by the server) or `githubApp` (whose key is the server's App
  /// key), else an anonymous git server (no SSH server here); `cloneDirectory` to a temporary
  /// folder (the same one for the same directory). Writes the secrets it names into
  /// `secrets_dir` (`conformance-<key>`, the App's private key for githubApp).
  void prepare_git(YAML::Node git, const std::string& secrets_dir);

  /// A PEM file with the CAs of both https servers (the engine's `--artifact-ca-file`).
  const std::string& ca_file() const { return ca_file_; }
  /// The GitHub stand-in's REST API root (the engine's `--github-api-url`).
  std::string api_url() const { return github_front_->base_url() + "/api/v3"; }

  /// Rewrites `url` (a `source.url` node) to the server, which serves the object at its path.
  void prepare_url(YAML::Node url);

private:
  github_server& server();
  /// The folder name of the local repository standing in for `url`, made when missing.
  std::string repository(const std::string& url);

  std::string object_;
  rsa_key_pair keys_;
  std::string root_;
  std::unique_ptr<github_server> server_;
  std::unique_ptr<test::tls_front> github_front_;
  std::unique_ptr<test::git_http_server> anonymous_;
  std::unique_ptr<test::tls_front> anonymous_front_;
  std::string ca_file_;
  std::map<std::string, std::string> repositories_;
  std::map<std::string, std::string> clone_dirs_;
};

} // namespace ganglion::test::corpus
