#pragma once

// The local stand-ins for the Internet addresses of the corpus Sensors' trigger sources: a
// `git` source's repository (github.com) becomes a local repository holding the file it names
// on the branch, tag or ref it names, and a `url` source's file is served on 127.0.0.1.

#include <map>
#include <memory>
#include <string>

#include <yaml-cpp/yaml.h>

#include "github_server.hpp"

namespace ganglion::test::corpus {

/// Local repositories and files behind one github_server, shared by every Sensor of the run.
class local_github {
public:
  /// `object`: the text put in every repository file and served at every URL.
  explicit local_github(std::string object);

  /// Rewrites `git` (a k8s or argoWorkflow `source.git` node) to a local repository holding
  /// `filePath` at its branch (master by default), tag and ref: over smart HTTP when it has
  /// `creds` (accepted by the server) or `githubApp` (whose key is the server's App key), else
  /// a `file://` URL (no SSH server here); `cloneDirectory` to a temporary folder (the same one
  /// for the same directory). Writes the secrets it names into `secrets_dir`
  /// (`conformance-<key>`, the App's private key for githubApp).
  void prepare_git(YAML::Node git, const std::string& secrets_dir);

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
  std::map<std::string, std::string> repositories_;
  std::map<std::string, std::string> clone_dirs_;
};

} // namespace ganglion::test::corpus
