// read_kubeconfig: every field a kubeconfig context gives, and the message of each bad input.

#include <gtest/gtest.h>

#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/kubernetes/config.hpp"
#include "test_pem.hpp"
#include "test_support.hpp"

using namespace ganglion;
using kubernetes::config_error;
using kubernetes::read_kubeconfig;

namespace {

/// A kubeconfig with one cluster `c`, one user `u` and one context `ctx` joining them; the
/// cluster's and user's fields are YAML lines (indented by the function).
std::string kubeconfig(const std::string& cluster_fields, const std::string& user_fields,
                       const std::string& context_extra = "") {
  auto indent = [](const std::string& lines) {
    std::string out;
    std::size_t start = 0;
    while (start < lines.size()) {
      auto end = lines.find('\n', start);
      if (end == std::string::npos)
        end = lines.size();
      out += "    " + lines.substr(start, end - start) + "\n";
      start = end + 1;
    }
    return out;
  };
  return "apiVersion: v1\nkind: Config\ncurrent-context: ctx\nclusters:\n- name: c\n  cluster:\n"
         + indent(cluster_fields) + "users:\n- name: u\n  user:\n" + indent(user_fields)
         + "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: u\n" + context_extra;
}

/// Writes `content` as `<dir>/config` and returns the path.
std::string write_config(const std::string& dir, const std::string& content) {
  auto path = dir + "/config";
  test::write_file(path, content);
  return path;
}

/// The config_error message of reading `path`, "" when it reads.
std::string error_of(const std::string& path, const std::string& context = {}) {
  try {
    read_kubeconfig(path, context);
  } catch (const config_error& e) {
    return e.what();
  }
  return {};
}

std::string b64(const std::string& text) {
  return dsl::base64_encode(text);
}

const std::string cert = kubernetes::testing::certificate_pem;
const std::string key = kubernetes::testing::key_pem;

} // namespace

TEST(kubeconfig, current_context_with_files_relative_to_the_kubeconfig) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/pki/ca.crt", cert);
  test::write_file(dir + "/pki/client.crt", cert);
  test::write_file(dir + "/pki/client.key", key);
  auto path = write_config(dir, kubeconfig("server: https://10.1.2.3:6443/\n"
                                           "certificate-authority: pki/ca.crt",
                                           "client-certificate: pki/client.crt\n"
                                           "client-key: pki/client.key",
                                           "    namespace: team-a\n"));
  auto c = read_kubeconfig(path);
  EXPECT_EQ(c.server, "https://10.1.2.3:6443");
  EXPECT_EQ(c.ca_pem, cert);
  EXPECT_FALSE(c.insecure_skip_tls_verify);
  EXPECT_EQ(c.client_certificate_pem, cert);
  EXPECT_EQ(c.client_key_pem, key);
  EXPECT_TRUE(c.token.empty());
  EXPECT_EQ(c.default_namespace, "team-a");
  EXPECT_EQ(c.origin, "kubeconfig " + path + " (context ctx)");
}

TEST(kubeconfig, inline_data_is_base64_and_wins_over_files) {
  auto dir = test::temp_dir();
  auto path = write_config(dir, kubeconfig("server: https://k:443\n"
                                           "certificate-authority: missing.crt\n"
                                           "certificate-authority-data: "
                                             + b64(cert),
                                           "client-certificate-data: " + b64(cert)
                                             + "\n"
                                               "client-key-data: "
                                             + b64(key)));
  auto c = read_kubeconfig(path);
  EXPECT_EQ(c.ca_pem, cert);
  EXPECT_EQ(c.client_certificate_pem, cert);
  EXPECT_EQ(c.client_key_pem, key);
  EXPECT_EQ(c.default_namespace, "default");
}

TEST(kubeconfig, token_token_file_and_insecure) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/token", "file-token\n");
  auto path = write_config(dir, kubeconfig("server: https://k:443\ninsecure-skip-tls-verify: true",
                                           "token: inline-token\ntokenFile: token"));
  auto c = read_kubeconfig(path);
  EXPECT_TRUE(c.insecure_skip_tls_verify);
  EXPECT_TRUE(c.ca_pem.empty());
  EXPECT_EQ(c.token, "inline-token");
  EXPECT_EQ(c.token_file, dir + "/token");
}

TEST(kubeconfig, basic_credentials_and_a_server_without_scheme) {
  auto dir = test::temp_dir();
  auto path = write_config(dir, kubeconfig("server: k.example:8443", "username: admin\n"
                                                                     "password: secret"));
  auto c = read_kubeconfig(path);
  EXPECT_EQ(c.server, "https://k.example:8443");
  EXPECT_EQ(c.username, "admin");
  EXPECT_EQ(c.password, "secret");
}

TEST(kubeconfig, a_named_context_instead_of_the_current_one) {
  auto dir = test::temp_dir();
  auto path = write_config(dir, R"(current-context: a
clusters:
- name: one
  cluster: {server: "https://one:443"}
- name: two
  cluster: {server: "http://two:8080"}
users:
- name: alice
  user: {token: alice-token}
contexts:
- name: a
  context: {cluster: one, user: alice}
- name: b
  context: {cluster: two, namespace: ns-b}
)");
  auto a = read_kubeconfig(path);
  EXPECT_EQ(a.server, "https://one:443");
  EXPECT_EQ(a.token, "alice-token");
  auto b = read_kubeconfig(path, "b");
  EXPECT_EQ(b.server, "http://two:8080");
  EXPECT_TRUE(b.token.empty());
  EXPECT_EQ(b.default_namespace, "ns-b");
  EXPECT_EQ(b.origin, "kubeconfig " + path + " (context b)");
  EXPECT_EQ(error_of(path, "c"), path + ": no context named \"c\" in contexts");
}

TEST(kubeconfig, errors_name_the_file_and_the_field) {
  auto dir = test::temp_dir();
  auto check = [&](const std::string& content, const std::string& expected) {
    auto path = write_config(dir, content);
    EXPECT_EQ(error_of(path), path + ": " + expected) << content;
  };
  check(kubeconfig("server: https://k", "client-certificate: " + dir
                                          + "/none.crt\n"
                                            "client-key: none.key"),
        "users[0].user.client-certificate: cannot read " + dir
          + "/none.crt: No such file or directory");
  test::write_file(dir + "/client.crt", cert);
  check(kubeconfig("server: https://k", "client-certificate: client.crt\nclient-key: none.key"),
        "users[0].user.client-key: cannot read " + dir + "/none.key: No such file or directory");
  check(kubeconfig("server: https://k", "tokenFile: gone"),
        "users[0].user.tokenFile: cannot read " + dir + "/gone: No such file or directory");
  check(kubeconfig("server: https://k", "client-certificate-data: '%%%'\nclient-key-data: x"),
        "users[0].user.client-certificate-data: not base64 (illegal data at input byte 0)");
  check(kubeconfig("server: https://k\ncertificate-authority-data: " + b64("not a pem"), ""),
        "clusters[0].cluster.certificate-authority-data: not a PEM certificate");
  check(kubeconfig("server: https://k", "client-certificate-data: " + b64(cert)
                                          + "\n"
                                            "client-key-data: "
                                          + b64(cert)),
        "users[0].user.client-key-data: not a PEM private key (or one encrypted with a "
        "passphrase)");
  check(kubeconfig("server: https://k", "client-certificate-data: " + b64(cert)),
        "users[0].user: client-certificate without client-key");
  check(kubeconfig("server: https://k", "exec:\n  command: aws"),
        "users[0].user.exec: not supported: ganglion runs no credential plugin (give a token, "
        "tokenFile, client certificate or username/password)");
  check(kubeconfig("server: https://k", "auth-provider:\n  name: gcp"),
        "users[0].user.auth-provider: not supported: ganglion runs no credential plugin (give a "
        "token, tokenFile, client certificate or username/password)");
  check(kubeconfig("insecure-skip-tls-verify: true", ""), "clusters[0].cluster.server: missing");
  check(kubeconfig("server: https://k\ninsecure-skip-tls-verify: maybe", ""),
        "clusters[0].cluster.insecure-skip-tls-verify: not a boolean: maybe");
  check(kubeconfig("server: https://k\ninsecure-skip-tls-verify: true\n"
                   "certificate-authority-data: "
                     + b64(cert),
                   ""),
        "clusters[0].cluster: a certificate authority and insecure-skip-tls-verify together "
        "are not allowed (as in kubectl)");
  check(kubeconfig("server: https://k", "token: t\nusername: u\npassword: p"),
        "users[0].user: a token and username/password together are not allowed (as in "
        "kubectl)");
  check("clusters: []\n", "current-context: not set, and no context given");
  check("current-context: x\ncontexts: []\n",
        "current-context: no context named \"x\" in contexts");
  check("current-context: x\ncontexts:\n- name: x\n  context: {cluster: nope}\n",
        "contexts[0].context.cluster: no cluster named \"nope\" in clusters");
  check("current-context: x\ncontexts:\n- name: x\n  context: {cluster: c, user: nobody}\n"
        "clusters:\n- name: c\n  cluster: {server: https://k}\n",
        "contexts[0].context.user: no user named \"nobody\" in users");
  check("current-context: x\ncontexts:\n- name: x\n  context: {cluster: c}\nclusters: {}\n",
        "clusters: not a list");
  check("- just\n- a list\n",
        "not a kubeconfig (a YAML mapping with clusters, users and contexts)");
  check("clusters: [\n", "line 2 column 1: end of sequence flow not found");
}

TEST(kubeconfig, a_missing_file) {
  auto path = test::temp_dir() + "/absent";
  EXPECT_EQ(error_of(path), "cannot read " + path + ": No such file or directory");
}
