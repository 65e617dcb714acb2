#include "ganglion/kubernetes/config.hpp"

#include <filesystem>
#include <utility>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/go/codec.hpp"
#include "client/pem.hpp"
#include "client/text_file.hpp"

namespace ganglion::kubernetes {

namespace {

using detail::pem_kind;

/// `at.key`, or `key` at the top level.
std::string field_of(const std::string& at, const std::string& key) {
  return at.empty() ? key : at + "." + key;
}

/// One kubeconfig file being read; every error names the file and the field.
class kubeconfig_reader {
public:
  explicit kubeconfig_reader(std::string path) : path_(std::move(path)) {
    std::error_code ec;
    auto absolute = std::filesystem::absolute(path_, ec);
    dir_ = ec ? std::filesystem::path(path_).parent_path() : absolute.parent_path();
  }

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw config_error(path_ + ": " + (field.empty() ? "" : field + ": ") + what);
  }

  YAML::Node load() const {
    std::string why;
    auto text = detail::read_text_file(path_, why);
    if (!text)
      throw config_error(why);
    YAML::Node root;
    try {
      root = YAML::Load(*text);
    } catch (const YAML::Exception& e) {
      fail("", "line " + std::to_string(e.mark.line + 1) + " column "
                 + std::to_string(e.mark.column + 1) + ": " + e.msg);
    }
    if (!root.IsMap())
      fail("", "not a kubeconfig (a YAML mapping with clusters, users and contexts)");
    return root;
  }

  /// The `inner` mapping of the entry of `list` named `name`, and its field path.
  std::pair<YAML::Node, std::string> entry(const YAML::Node& root, const std::string& list,
                                           const std::string& inner, const std::string& name,
                                           const std::string& wanted_at) const {
    auto items = root[list];
    if (items && !items.IsNull() && !items.IsSequence())
      fail(list, "not a list");
    if (items && items.IsSequence()) {
      for (std::size_t i = 0; i < items.size(); ++i) {
        auto at = list + "[" + std::to_string(i) + "]";
        if (text(items[i], at, "name") != name)
          continue;
        auto node = items[i][inner];
        at += "." + inner;
        if (node && !node.IsNull() && !node.IsMap())
          fail(at, "not a mapping");
        return {node && node.IsMap() ? node : YAML::Node(YAML::NodeType::Map), at};
      }
    }
    fail(wanted_at, "no " + inner + " named \"" + name + "\" in " + list);
  }

  /// The string at `map[key]`; empty when absent or null.
  std::string text(const YAML::Node& map, const std::string& at, const std::string& key) const {
    if (!map.IsMap())
      fail(at, "not a mapping");
    auto node = map[key];
    if (!node || node.IsNull())
      return {};
    if (!node.IsScalar())
      fail(field_of(at, key), "not a string");
    return node.Scalar();
  }

  bool flag(const YAML::Node& map, const std::string& at, const std::string& key) const {
    auto value = text(map, at, key);
    if (value.empty())
      return false;
    try {
      return map[key].as<bool>();
    } catch (const YAML::Exception&) {
      fail(field_of(at, key), "not a boolean: " + value);
    }
  }

  /// `file` resolved against the kubeconfig's directory.
  std::string resolve(const std::string& file) const {
    if (file.empty() || std::filesystem::path(file).is_absolute())
      return file;
    return (dir_ / file).lexically_normal().string();
  }

  std::string file_content(const std::string& field, const std::string& file) const {
    std::string why;
    auto content = detail::read_text_file(resolve(file), why);
    if (!content)
      fail(field, why);
    return *content;
  }

  /// The PEM of `<file_key>-data` (base64, wins) or of the file `<file_key>`.
  std::string pem(const YAML::Node& map, const std::string& at, const std::string& file_key,
                  pem_kind kind) const {
    auto data_key = file_key + "-data";
    auto data = text(map, at, data_key);
    auto file = text(map, at, file_key);
    std::string field;
    std::string content;
    if (!data.empty()) {
      field = at + "." + data_key;
      auto decoded = dsl::base64_decode(data);
      if (decoded.illegal_at)
        fail(field,
             "not base64 (illegal data at input byte " + std::to_string(*decoded.illegal_at) + ")");
      content = std::move(decoded.bytes);
    } else if (!file.empty()) {
      field = at + "." + file_key;
      content = file_content(field, file);
    } else {
      return {};
    }
    auto problem = detail::pem_problem(content, kind);
    if (!problem.empty())
      fail(field, problem);
    return content;
  }

  const std::string& path() const noexcept { return path_; }

private:
  std::string path_;
  std::filesystem::path dir_;
};

std::string normalized_server(std::string server) {
  if (server.find("://") == std::string::npos)
    server = "https://" + server;
  while (!server.empty() && server.back() == '/')
    server.pop_back();
  return server;
}

void read_cluster(const kubeconfig_reader& in, const YAML::Node& cluster, const std::string& at,
                  cluster_config& out) {
  out.server = in.text(cluster, at, "server");
  if (out.server.empty())
    in.fail(at + ".server", "missing");
  out.server = normalized_server(out.server);
  out.ca_pem = in.pem(cluster, at, "certificate-authority", pem_kind::certificates);
  out.insecure_skip_tls_verify = in.flag(cluster, at, "insecure-skip-tls-verify");
  if (out.insecure_skip_tls_verify && !out.ca_pem.empty())
    in.fail(at, "a certificate authority and insecure-skip-tls-verify together are not allowed "
                "(as in kubectl)");
}

void read_user(const kubeconfig_reader& in, const YAML::Node& user, const std::string& at,
               cluster_config& out) {
  for (const char* plugin : {"exec", "auth-provider"}) {
    if (user[plugin] && !user[plugin].IsNull())
      in.fail(at + "." + plugin, "not supported: ganglion runs no credential plugin (give a "
                                 "token, tokenFile, client certificate or username/password)");
  }
  out.token = in.text(user, at, "token");
  auto token_file = in.text(user, at, "tokenFile");
  if (!token_file.empty()) {
    in.file_content(at + ".tokenFile", token_file);
    out.token_file = in.resolve(token_file);
  }
  out.client_certificate_pem = in.pem(user, at, "client-certificate", pem_kind::certificates);
  out.client_key_pem = in.pem(user, at, "client-key", pem_kind::private_key);
  if (out.client_certificate_pem.empty() != out.client_key_pem.empty())
    in.fail(at, out.client_key_pem.empty() ? "client-certificate without client-key"
                                           : "client-key without client-certificate");
  out.username = in.text(user, at, "username");
  out.password = in.text(user, at, "password");
  bool has_token = !out.token.empty() || !out.token_file.empty();
  if (has_token && (!out.username.empty() || !out.password.empty()))
    in.fail(at, "a token and username/password together are not allowed (as in kubectl)");
}

} // namespace

cluster_config read_kubeconfig(const std::string& path, const std::string& context) {
  kubeconfig_reader in{path};
  auto root = in.load();
  auto name = context.empty() ? in.text(root, "", "current-context") : context;
  if (name.empty())
    in.fail("current-context", "not set, and no context given");
  auto [ctx, ctx_at] =
    in.entry(root, "contexts", "context", name, context.empty() ? "current-context" : "");
  cluster_config out;
  auto cluster_name = in.text(ctx, ctx_at, "cluster");
  if (cluster_name.empty())
    in.fail(ctx_at + ".cluster", "missing");
  auto [cluster, cluster_at] =
    in.entry(root, "clusters", "cluster", cluster_name, ctx_at + ".cluster");
  read_cluster(in, cluster, cluster_at, out);
  auto user_name = in.text(ctx, ctx_at, "user");
  if (!user_name.empty()) {
    auto [user, user_at] = in.entry(root, "users", "user", user_name, ctx_at + ".user");
    read_user(in, user, user_at, out);
  }
  auto ns = in.text(ctx, ctx_at, "namespace");
  if (!ns.empty())
    out.default_namespace = ns;
  out.origin = "kubeconfig " + path + " (context " + name + ")";
  return out;
}

} // namespace ganglion::kubernetes
