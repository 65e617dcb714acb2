#include "local_github.hpp"

#include <chrono>
#include <stdexcept>
#include <vector>

#include "child_process.hpp"
#include "files.hpp"

namespace ganglion::test::corpus {

namespace {

/// `map[key]` without adding the key when it is missing (non-const operator[] may).
YAML::Node at(const YAML::Node& map, const char* key) {
  if (!map.IsMap())
    return YAML::Node(YAML::NodeType::Undefined);
  auto value = map[key];
  return value.IsDefined() ? value : YAML::Node(YAML::NodeType::Undefined);
}

std::string text_of(const YAML::Node& map, const char* key) {
  auto value = at(map, key);
  return value.IsScalar() ? value.as<std::string>() : std::string{};
}

/// Runs `git <args>` in `dir` without the user's or system's configuration.
void git(const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"git",
                                "-C",
                                dir,
                                "-c",
                                "user.name=ganglion",
                                "-c",
                                "user.email=ganglion@example.com",
                                "-c",
                                "commit.gpgsign=false"};
  argv.insert(argv.end(), args.begin(), args.end());
  child_process child{argv, {{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", "/dev/null"}}};
  if (child.wait(std::chrono::seconds(30)) != 0)
    throw std::runtime_error("git " + args.front() + " in " + dir + ": " + child.output());
}

/// Writes secret `selector` (a SecretKeySelector node) into `dir` as `value`; the value.
std::string put_secret(const YAML::Node& selector, const std::string& dir,
                       const std::string& value = {}) {
  auto key = text_of(selector, "key");
  auto text = value.empty() ? "conformance-" + key : value;
  write_file(dir + "/" + text_of(selector, "name") + "/" + key, text);
  return text;
}

/// The port of `url` (`scheme://host:port`).
std::uint16_t port_of(const std::string& url) {
  return static_cast<std::uint16_t>(std::stoi(url.substr(url.rfind(':') + 1)));
}

/// `url` (on `from`, `scheme://host:port`) on `to` instead.
std::string moved(const std::string& url, const std::string& from, const std::string& to) {
  return to + url.substr(from.size());
}

} // namespace

local_github::local_github(std::string object)
  : object_(std::move(object)), keys_(make_rsa_key_pair()), root_(temp_dir()),
    server_(std::make_unique<github_server>(1, 1, keys_.public_pem, root_)),
    github_front_(std::make_unique<test::tls_front>(port_of(server_->base_url()))),
    anonymous_(std::make_unique<test::git_http_server>(root_)),
    anonymous_front_(std::make_unique<test::tls_front>(anonymous_->port())),
    ca_file_(temp_dir() + "/cas.pem") {
  write_file(ca_file_, read_file(github_front_->ca_file()) + read_file(anonymous_front_->ca_file()));
}

std::string local_github::repository(const std::string& url) {
  auto found = repositories_.find(url);
  if (found != repositories_.end())
    return found->second;
  auto name = "repository-" + std::to_string(repositories_.size() + 1);
  git(root_, {"init", "-q", "-b", "master", name});
  return repositories_[url] = name;
}

void local_github::prepare_git(YAML::Node node, const std::string& secrets_dir) {
  auto name = repository(text_of(node, "url"));
  auto dir = root_ + "/" + name;
  auto file = text_of(node, "filePath");
  write_file(dir + "/" + file, object_);
  git(dir, {"add", "--", file});
  git(dir, {"commit", "-q", "--allow-empty", "-m", "add " + file});
  if (auto branch = text_of(node, "branch"); !branch.empty() && branch != "master")
    git(dir, {"branch", "-f", branch});
  if (auto tag = text_of(node, "tag"); !tag.empty())
    git(dir, {"tag", "-f", tag});
  if (auto ref = text_of(node, "ref"); ref.starts_with("refs/"))
    git(dir, {"update-ref", ref, "HEAD"});

  auto creds = at(node, "creds");
  auto app = at(node, "githubApp");
  if (creds.IsMap()) {
    auto user = put_secret(at(creds, "username"), secrets_dir);
    auto password = put_secret(at(creds, "password"), secrets_dir);
    server_->allow_basic(user, password);
    node["url"] = moved(server_->repo_url(name), server_->base_url(), github_front_->base_url());
  } else if (app.IsMap()) {
    put_secret(at(app, "privateKey"), secrets_dir, keys_.private_pem);
    server_->set_app(at(app, "appID").as<std::int64_t>(0),
                     at(app, "installationID").as<std::int64_t>(0));
    node["url"] = moved(server_->repo_url(name), server_->base_url(), github_front_->base_url());
  } else {
    if (auto key = at(node, "sshKeySecret"); key.IsMap())
      put_secret(key, secrets_dir);
    node["url"] = anonymous_front_->base_url() + "/" + name;
  }
  if (auto clone = text_of(node, "cloneDirectory"); !clone.empty()) {
    auto& local = clone_dirs_[clone];
    if (local.empty())
      local = temp_dir() + "/clone";
    node["cloneDirectory"] = local;
  }
}

void local_github::prepare_url(YAML::Node node) {
  auto url = text_of(node, "path");
  auto scheme = url.find("://");
  auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  auto path = slash == std::string::npos ? std::string{"/"} : url.substr(slash);
  server_->put_file(path, object_);
  node["path"] = server_->base_url() + path;
}

} // namespace ganglion::test::corpus
