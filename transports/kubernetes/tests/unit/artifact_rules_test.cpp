// The trigger source (Argo's ArtifactLocation): every field from YAML to the model, and each
// rule reported at its field.

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "artifact/artifact.hpp"
#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::kubernetes::detail {
namespace {

const std::string at = "spec.triggers[0].template.k8s.source";

struct read_result {
  artifact_location location;
  std::vector<dsl::diagnostic> diagnostics;

  /// The diagnostic at `path` whose message contains `text`, if any.
  const dsl::diagnostic* find(const std::string& path, const std::string& text) const {
    for (const auto& d : diagnostics)
      if (d.path == path && d.message.find(text) != std::string::npos)
        return &d;
    return nullptr;
  }
  bool has_error(const std::string& path, const std::string& text) const {
    const auto* d = find(path, text);
    return d && d->level == dsl::severity::error;
  }
  bool has_warning(const std::string& path, const std::string& text) const {
    const auto* d = find(path, text);
    return d && d->level == dsl::severity::warning;
  }
};

read_result read_and_check(const std::string& yaml) {
  read_result out;
  dsl::document doc;
  dsl::load_options options;
  dsl::detail::load_context cx{doc, out.diagnostics, options};
  out.location = read_artifact_location(YAML::Load(yaml), at, cx);
  check_artifact_location(out.location, at, cx);
  return out;
}

std::string dump(const std::vector<dsl::diagnostic>& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics)
    out += d.path + ": " + d.message + "\n";
  return out;
}

TEST(artifact_read, git_fields_map_onto_the_model) {
  auto r = read_and_check(R"(
git:
  url: https://github.com/argoproj/argo.git
  cloneDirectory: /git/argoproj
  creds:
    username: {name: github-secret, key: username}
    password: {name: github-secret, key: password}
  sshKeySecret: {name: git-ssh, key: key}
  filePath: examples/hello-world.yaml
  branch: master
  tag: v2.4.0
  ref: refs/heads/dev
  remote: {name: upstream, urls: [https://example.com/up.git]}
  insecureIgnoreHostKey: true
)");
  ASSERT_TRUE(r.location.git);
  const auto& g = *r.location.git;
  EXPECT_EQ(g.url, "https://github.com/argoproj/argo.git");
  EXPECT_EQ(g.clone_directory, "/git/argoproj");
  ASSERT_TRUE(g.creds && g.creds->username && g.creds->password);
  EXPECT_EQ(g.creds->username->name, "github-secret");
  EXPECT_EQ(g.creds->password->key, "password");
  ASSERT_TRUE(g.ssh_key_secret);
  EXPECT_EQ(g.ssh_key_secret->name, "git-ssh");
  EXPECT_EQ(g.file_path, "examples/hello-world.yaml");
  EXPECT_EQ(g.branch, "master");
  EXPECT_EQ(g.tag, "v2.4.0");
  EXPECT_EQ(g.ref, "refs/heads/dev");
  ASSERT_TRUE(g.remote);
  EXPECT_EQ(g.remote->name, "upstream");
  EXPECT_EQ(g.remote->urls, std::vector<std::string>{"https://example.com/up.git"});
  EXPECT_TRUE(g.insecure_ignore_host_key);
  EXPECT_FALSE(g.github_app);
  EXPECT_EQ(r.location.kind(), artifact_kind::git);
  // Argo takes ref over tag over branch, and creds over sshKeySecret: the rest is said ignored.
  EXPECT_TRUE(r.has_warning(at + ".git.tag", "ignored: ref is used")) << dump(r.diagnostics);
  EXPECT_TRUE(r.has_warning(at + ".git.sshKeySecret", "ignored: creds is used"));
}

TEST(artifact_read, the_other_locations_map_onto_the_model) {
  auto r = read_and_check(R"(
url: {path: "https://example.com/wf.yaml", verifyCert: true}
file: {path: /workflows/hello_world.yaml}
configmap: {name: workflow-cm, key: wf, optional: true}
inline: "apiVersion: v1\nkind: Pod\n"
resource: {apiVersion: v1, kind: Pod, metadata: {name: p}}
)");
  const auto& l = r.location;
  ASSERT_TRUE(l.url && l.file && l.configmap && l.inline_text && l.resource);
  EXPECT_EQ(l.url->path, "https://example.com/wf.yaml");
  EXPECT_TRUE(l.url->verify_cert);
  EXPECT_EQ(l.file->path, "/workflows/hello_world.yaml");
  EXPECT_EQ(l.configmap->name, "workflow-cm");
  EXPECT_EQ(l.configmap->key, "wf");
  EXPECT_TRUE(l.configmap->optional);
  EXPECT_EQ(*l.resource, R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}})");
}

TEST(artifact_read, argo_reads_the_first_location_set_and_the_others_are_ignored) {
  auto r = read_and_check(R"(
resource: {apiVersion: v1, kind: Pod}
file: {path: /x.yaml}
url: {path: "http://127.0.0.1/x.yaml"}
)");
  EXPECT_EQ(r.location.kind(), artifact_kind::file);
  EXPECT_EQ(r.location.key(), "file");
  EXPECT_TRUE(r.has_warning(at + ".url", "ignored: file is used")) << dump(r.diagnostics);
  EXPECT_TRUE(r.has_warning(at + ".resource", "ignored: file is used"));
  EXPECT_FALSE(r.find(at + ".file", ""));
}

TEST(artifact_read, url_verify_cert_is_false_by_default_as_in_argo) {
  auto r = read_and_check("url: {path: 'https://example.com/wf.yaml'}");
  ASSERT_TRUE(r.location.url);
  EXPECT_FALSE(r.location.url->verify_cert);
  EXPECT_FALSE(r.location.url->verify_cert_set);
  ASSERT_EQ(r.diagnostics.size(), 1u) << dump(r.diagnostics);
  EXPECT_TRUE(r.has_warning(at + ".url.verifyCert", "verifyCert is not set"));
}

TEST(artifact_rules, a_source_without_a_location_is_an_error) {
  auto r = read_and_check("{}");
  EXPECT_TRUE(r.has_error(at, "source is required")) << dump(r.diagnostics);
}

TEST(artifact_read, s3_fields_map_onto_the_model) {
  auto r = read_and_check(R"(
s3:
  bucket: {name: workflows, key: hello-world.yaml}
  endpoint: minio-service.argo-events:9000
  region: eu-west-1
  insecure: true
  accessKey: {key: accesskey, name: artifacts-minio}
  secretKey: {key: secretkey, name: artifacts-minio}
)");
  ASSERT_TRUE(r.location.s3);
  const auto& s3 = *r.location.s3;
  EXPECT_EQ(r.location.kind(), artifact_kind::s3);
  EXPECT_EQ(s3.endpoint, "minio-service.argo-events:9000");
  ASSERT_TRUE(s3.bucket);
  EXPECT_EQ(s3.bucket->name, "workflows");
  EXPECT_EQ(s3.bucket->key, "hello-world.yaml");
  EXPECT_EQ(s3.region, "eu-west-1");
  EXPECT_TRUE(s3.insecure);
  ASSERT_TRUE(s3.access_key && s3.secret_key);
  EXPECT_EQ(s3.access_key->name, "artifacts-minio");
  EXPECT_EQ(s3.access_key->key, "accesskey");
  EXPECT_EQ(s3.secret_key->key, "secretkey");
  EXPECT_TRUE(r.diagnostics.empty()) << dump(r.diagnostics);
}

TEST(artifact_rules, s3_needs_what_argos_reader_needs) {
  auto r = read_and_check("s3: {bucket: {name: '', key: ''}}");
  EXPECT_TRUE(r.has_error(at + ".s3.endpoint", "endpoint is required")) << dump(r.diagnostics);
  EXPECT_TRUE(r.has_error(at + ".s3.bucket.name", "name is required"));
  EXPECT_TRUE(r.has_error(at + ".s3.bucket.key", "key is required"));
  EXPECT_TRUE(r.has_error(at + ".s3.accessKey", "accessKey is required"));
  EXPECT_TRUE(r.has_error(at + ".s3.secretKey", "secretKey is required"));
  auto no_bucket = read_and_check("s3: {endpoint: 'm:9000', accessKey: {name: a, key: k}, "
                                  "secretKey: {name: a}}");
  EXPECT_TRUE(no_bucket.has_error(at + ".s3.bucket", "bucket is required"))
    << dump(no_bucket.diagnostics);
  EXPECT_TRUE(no_bucket.has_error(at + ".s3.secretKey.key", "key is required"));
}

TEST(artifact_rules, an_s3_endpoint_is_host_and_port_as_minio_wants_it) {
  auto with = [](const std::string& endpoint) {
    return read_and_check("s3: {endpoint: '" + endpoint
                          + "', bucket: {name: b, key: k}, "
                            "accessKey: {name: a, key: k}, secretKey: {name: a, key: s}}");
  };
  for (const char* good :
       {"minio:9000", "s3.amazonaws.com", "127.0.0.1:9000", "[::1]:9000", "127.0.0.1:"}) {
    auto r = with(good);
    EXPECT_TRUE(r.diagnostics.empty()) << good << ": " << dump(r.diagnostics);
  }
  EXPECT_TRUE(with("http://minio:9000").has_error(at + ".s3.endpoint", "without a scheme"));
  EXPECT_TRUE(with("minio:9000/path").has_error(at + ".s3.endpoint", "without a path"));
  EXPECT_TRUE(with("minio:http").has_error(at + ".s3.endpoint", "no valid port"));
  EXPECT_TRUE(with("-minio").has_error(at + ".s3.endpoint", "domain name standards"));
}

TEST(artifact_rules, s3_fields_of_the_event_source_are_warned_about) {
  auto r = read_and_check(R"(
s3:
  bucket: {name: b, key: k}
  endpoint: 'm:9000'
  accessKey: {name: a, key: k}
  secretKey: {name: a, key: s}
  events: ["s3:ObjectCreated:Put"]
  caCertificate: {name: ca, key: pem}
)");
  EXPECT_TRUE(r.has_warning(at + ".s3.events", "ignored")) << dump(r.diagnostics);
  EXPECT_TRUE(r.has_warning(at + ".s3.caCertificate", "the system's CAs verify the server"));
}

TEST(artifact_read, github_app_fields_map_onto_the_model) {
  auto r = read_and_check(R"(
git:
  url: https://github.com/argoproj/argo.git
  filePath: examples/hello-world.yaml
  githubApp: {privateKey: {name: github-app-pem, key: privateKey.pem}, appID: 12345,
              installationID: 67890}
)");
  ASSERT_TRUE(r.location.git && r.location.git->github_app);
  const auto& app = *r.location.git->github_app;
  ASSERT_TRUE(app.private_key);
  EXPECT_EQ(app.private_key->name, "github-app-pem");
  EXPECT_EQ(app.private_key->key, "privateKey.pem");
  EXPECT_EQ(app.app_id, 12345);
  EXPECT_EQ(app.installation_id, 67890);
  EXPECT_TRUE(r.diagnostics.empty()) << dump(r.diagnostics);
}

TEST(artifact_rules, github_app_needs_its_key_app_and_installation) {
  auto r = read_and_check(R"(
git:
  url: https://github.com/argoproj/argo.git
  filePath: examples/hello-world.yaml
  githubApp: {appID: 0}
)");
  EXPECT_TRUE(r.has_error(at + ".git.githubApp.privateKey", "privateKey is required"))
    << dump(r.diagnostics);
  EXPECT_TRUE(r.has_error(at + ".git.githubApp.appID", "appID is required"));
  EXPECT_TRUE(r.has_error(at + ".git.githubApp.installationID", "installationID is required"));

  r = read_and_check(R"(
git:
  url: https://github.com/argoproj/argo.git
  filePath: examples/hello-world.yaml
  githubApp: {privateKey: {name: app}, appID: 1, installationID: 2}
)");
  EXPECT_TRUE(r.has_error(at + ".git.githubApp.privateKey.key", "")) << dump(r.diagnostics);
}

TEST(artifact_rules, creds_win_over_github_app_which_wins_over_an_ssh_key) {
  auto r = read_and_check(R"(
git:
  url: https://github.com/argoproj/argo.git
  filePath: wf.yaml
  creds: {username: {name: s, key: u}, password: {name: s, key: p}}
  githubApp: {privateKey: {name: app, key: pem}, appID: 1, installationID: 2}
)");
  EXPECT_TRUE(r.has_warning(at + ".git.githubApp", "ignored: creds is used"))
    << dump(r.diagnostics);
  r = read_and_check(R"(
git:
  url: https://github.com/argoproj/argo.git
  filePath: wf.yaml
  sshKeySecret: {name: ssh, key: key}
  githubApp: {privateKey: {name: app, key: pem}, appID: 1, installationID: 2}
)");
  EXPECT_TRUE(r.has_warning(at + ".git.sshKeySecret", "ignored: githubApp is used"))
    << dump(r.diagnostics);
  EXPECT_FALSE(r.find(at + ".git.githubApp", ""));
}

TEST(artifact_rules, git_needs_a_url_and_a_file_path) {
  auto r = read_and_check("git: {branch: main}");
  EXPECT_TRUE(r.has_error(at + ".git.url", "url is required")) << dump(r.diagnostics);
  EXPECT_TRUE(r.has_error(at + ".git.filePath", "filePath is required"));
}

TEST(artifact_rules, git_paths_must_not_leave_the_clone) {
  for (const char* bad : {"../etc/passwd", "~/x.yaml", "a\\\\b.yaml"}) {
    auto r = read_and_check(std::string{"git: {url: 'file:///r', filePath: '"} + bad
                            + "', cloneDirectory: '/tmp/~clone'}");
    EXPECT_TRUE(r.has_error(at + ".git.filePath", "is not allowed in the filePath"))
      << bad << "\n"
      << dump(r.diagnostics);
    EXPECT_TRUE(r.has_error(at + ".git.cloneDirectory", "\"~\" is not allowed"))
      << dump(r.diagnostics);
  }
}

TEST(artifact_rules, git_creds_need_both_secrets_with_name_and_key) {
  auto r = read_and_check(R"(
git:
  url: https://example.com/r.git
  filePath: wf.yaml
  creds: {username: {name: s}}
)");
  EXPECT_TRUE(r.has_error(at + ".git.creds.password", "password is required"))
    << dump(r.diagnostics);
  EXPECT_TRUE(r.has_error(at + ".git.creds.username.key", "key is required"));
}

TEST(artifact_rules, a_git_remote_needs_a_name_other_than_origin_and_a_url) {
  auto r = read_and_check(R"(
git: {url: 'file:///r', filePath: wf.yaml, remote: {name: origin}}
)");
  EXPECT_TRUE(r.has_error(at + ".git.remote.name", "must not be named origin"))
    << dump(r.diagnostics);
  EXPECT_TRUE(r.has_error(at + ".git.remote.urls", "urls needs"));
}

TEST(artifact_rules, a_tag_wins_over_a_branch) {
  auto r = read_and_check("git: {url: 'file:///r', filePath: wf.yaml, branch: b, tag: t}");
  EXPECT_TRUE(r.has_warning(at + ".git.branch", "ignored: tag is used")) << dump(r.diagnostics);
}

TEST(artifact_rules, url_path_must_be_http) {
  auto r = read_and_check("url: {path: 'ftp://example.com/wf.yaml'}");
  EXPECT_TRUE(r.has_error(at + ".url.path", "http:// or https://")) << dump(r.diagnostics);
  auto empty = read_and_check("url: {verifyCert: true}");
  EXPECT_TRUE(empty.has_error(at + ".url.path", "path is required")) << dump(empty.diagnostics);
}

TEST(artifact_rules, file_and_configmap_name_what_they_lack) {
  auto file = read_and_check("file: {}");
  EXPECT_TRUE(file.has_error(at + ".file.path", "path is required")) << dump(file.diagnostics);
  auto cm = read_and_check("configmap: {name: workflow-cm}");
  EXPECT_TRUE(cm.has_error(at + ".configmap.key", "key is required")) << dump(cm.diagnostics);
}

TEST(artifact_rules, inline_yaml_that_run_could_not_read_is_refused) {
  auto bad = read_and_check("inline: \"kind: [Pod\"");
  EXPECT_TRUE(bad.has_error(at + ".inline", "not valid YAML")) << dump(bad.diagnostics);
  auto list = read_and_check("inline: \"- a\\n- b\\n\"");
  EXPECT_TRUE(list.has_error(at + ".inline", "not an object")) << dump(list.diagnostics);
  auto good = read_and_check("inline: \"apiVersion: v1\\nkind: Pod\\n\"");
  EXPECT_TRUE(good.diagnostics.empty()) << dump(good.diagnostics);
}

TEST(artifact_rules, a_resource_must_be_an_object) {
  auto r = read_and_check("resource: [a, b]");
  EXPECT_TRUE(r.has_error(at + ".resource", "must be an object")) << dump(r.diagnostics);
}

TEST(artifact_rules, git_clones_over_https_and_ssh_only) {
  for (const char* good : {"https://github.com/argoproj/argo.git", "ssh://git@host:22/r.git",
                           "git@github.com:argoproj/argo.git"}) {
    auto r = read_and_check(std::string{"git: {url: '"} + good + "', filePath: wf.yaml}");
    EXPECT_TRUE(r.diagnostics.empty()) << good << "\n" << dump(r.diagnostics);
  }
  for (auto [bad, why] : {std::pair{"file:///srv/victim", "file:// URLs are refused"},
                          std::pair{"FILE:///srv/victim", "file:// URLs are refused"},
                          std::pair{"/srv/victim", "a local path is refused"},
                          std::pair{"./victim", "a local path is refused"},
                          std::pair{"git://host/r.git", "git:// URLs are refused"},
                          std::pair{"ftp://host/r.git", "ftp:// URLs are refused"}}) {
    auto r = read_and_check(std::string{"git: {url: '"} + bad + "', filePath: wf.yaml}");
    EXPECT_TRUE(r.has_error(at + ".git.url", why)) << bad << "\n" << dump(r.diagnostics);
  }
  auto remote = read_and_check(
    "git: {url: 'https://h/r', filePath: wf.yaml, remote: {name: up, urls: ['file:///x']}}");
  EXPECT_TRUE(remote.has_error(at + ".git.remote.urls[0]", "file:// URLs are refused"))
    << dump(remote.diagnostics);
}

TEST(artifact_rules, plain_http_is_warned_about_and_refused_with_credentials) {
  auto plain = read_and_check("git: {url: 'http://127.0.0.1/r.git', filePath: wf.yaml}");
  EXPECT_TRUE(plain.has_warning(at + ".git.url", "allow_plain_http_git")) << dump(plain.diagnostics);
  auto creds = read_and_check(R"(
git:
  url: http://127.0.0.1/r.git
  filePath: wf.yaml
  creds: {username: {name: s, key: u}, password: {name: s, key: p}}
)");
  EXPECT_TRUE(creds.has_error(at + ".git.url", "refused over plain http://"))
    << dump(creds.diagnostics);
  auto app = read_and_check(R"(
git:
  url: http://127.0.0.1/r.git
  filePath: wf.yaml
  githubApp: {privateKey: {name: s, key: k}, appID: 1, installationID: 2}
)");
  EXPECT_TRUE(app.has_error(at + ".git.url", "refused over plain http://")) << dump(app.diagnostics);
}

TEST(artifact_rules, file_path_is_relative_and_clone_directory_stays_under_the_root) {
  auto absolute = read_and_check("git: {url: 'https://h/r', filePath: /etc/passwd}");
  EXPECT_TRUE(absolute.has_error(at + ".git.filePath", "an absolute path is refused"))
    << dump(absolute.diagnostics);
  auto rooted = read_and_check(
    "git: {url: 'https://h/r', filePath: wf.yaml, cloneDirectory: /git/argoproj}");
  EXPECT_TRUE(rooted.has_warning(at + ".git.cloneDirectory", "kept under the namespace's clone"))
    << dump(rooted.diagnostics);
  auto up = read_and_check(
    "git: {url: 'https://h/r', filePath: wf.yaml, cloneDirectory: 'a/../../b'}");
  EXPECT_TRUE(up.has_error(at + ".git.cloneDirectory", "\"..\" is not allowed"))
    << dump(up.diagnostics);
  auto relative = read_and_check(
    "git: {url: 'https://h/r', filePath: wf.yaml, cloneDirectory: team/clone}");
  EXPECT_TRUE(relative.diagnostics.empty()) << dump(relative.diagnostics);
}

TEST(artifact_rules, an_https_url_without_verify_cert_is_warned_about) {
  auto unset = read_and_check("url: {path: 'https://example.com/wf.yaml'}");
  EXPECT_TRUE(unset.has_warning(at + ".url.verifyCert", "verifyCert is not set"))
    << dump(unset.diagnostics);
  auto chosen = read_and_check("url: {path: 'https://example.com/wf.yaml', verifyCert: false}");
  EXPECT_TRUE(chosen.diagnostics.empty()) << dump(chosen.diagnostics);
  auto verified = read_and_check("url: {path: 'https://example.com/wf.yaml', verifyCert: true}");
  EXPECT_TRUE(verified.diagnostics.empty()) << dump(verified.diagnostics);
}

} // namespace
} // namespace ganglion::kubernetes::detail
