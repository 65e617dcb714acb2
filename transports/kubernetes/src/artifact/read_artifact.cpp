#include "artifact/artifact.hpp"

#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"

namespace ganglion::kubernetes::detail {

using namespace dsl::detail;

namespace {

/// The map at `key`, or nullopt when it is absent or not a map.
std::optional<YAML::Node> map_at(const YAML::Node& node, std::string_view key) {
  auto value = child(node, key);
  if (is_absent(value) || !value.IsMap())
    return std::nullopt;
  return value;
}

git_artifact read_git(const YAML::Node& node) {
  git_artifact out;
  out.url = read_string(node, "url");
  out.clone_directory = read_string(node, "cloneDirectory");
  if (auto creds = map_at(node, "creds"))
    out.creds =
      git_creds{read_key_selector(*creds, "username"), read_key_selector(*creds, "password")};
  out.ssh_key_secret = read_key_selector(node, "sshKeySecret");
  out.file_path = read_string(node, "filePath");
  out.branch = read_string(node, "branch");
  out.tag = read_string(node, "tag");
  out.ref = read_string(node, "ref");
  if (auto remote = map_at(node, "remote"))
    out.remote = git_remote{read_string(*remote, "name"), read_string_list(*remote, "urls")};
  out.insecure_ignore_host_key = read_bool(node, "insecureIgnoreHostKey");
  if (auto app = map_at(node, "githubApp"))
    out.github_app = github_app_creds{read_key_selector(*app, "privateKey"),
                                      read_int(*app, "appID"), read_int(*app, "installationID")};
  return out;
}

s3_artifact read_s3(const YAML::Node& node) {
  s3_artifact out;
  out.endpoint = read_string(node, "endpoint");
  if (auto bucket = map_at(node, "bucket"))
    out.bucket = s3_bucket{read_string(*bucket, "name"), read_string(*bucket, "key")};
  out.region = read_string(node, "region");
  out.insecure = read_bool(node, "insecure");
  out.access_key = read_key_selector(node, "accessKey");
  out.secret_key = read_key_selector(node, "secretKey");
  for (const char* key : {"events", "filter", "metadata", "caCertificate"})
    if (!is_absent(child(node, key)))
      out.ignored.emplace_back(key);
  return out;
}

} // namespace

artifact_location read_artifact_location(const YAML::Node& node, const std::string&,
                                         const load_context&) {
  artifact_location out;
  if (is_absent(node) || !node.IsMap())
    return out;
  if (auto s3 = map_at(node, "s3"))
    out.s3 = read_s3(*s3);
  if (auto text = child(node, "inline"); !is_absent(text) && text.IsScalar())
    out.inline_text = text.Scalar();
  if (auto file = map_at(node, "file"))
    out.file = file_artifact{read_string(*file, "path")};
  if (auto url = map_at(node, "url"))
    out.url = url_artifact{read_string(*url, "path"), read_bool(*url, "verifyCert"),
                           !is_absent(child(*url, "verifyCert"))};
  if (auto git = map_at(node, "git"))
    out.git = read_git(*git);
  if (auto cm = map_at(node, "configmap"))
    out.configmap = configmap_key_selector{read_string(*cm, "name"), read_string(*cm, "key"),
                                           read_bool(*cm, "optional")};
  if (!is_absent(child(node, "resource")))
    out.resource = read_json(node, "resource", "a");
  return out;
}

} // namespace ganglion::kubernetes::detail
