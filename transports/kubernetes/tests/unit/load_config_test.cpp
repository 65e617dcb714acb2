// read_in_cluster from a fake service-account directory, and load_config's order of sources.

#include <gtest/gtest.h>

#include "ganglion/kubernetes/config.hpp"
#include "test_pem.hpp"
#include "test_support.hpp"

using namespace ganglion;
using kubernetes::config_error;
using kubernetes::config_sources;
using kubernetes::load_config;
using kubernetes::read_in_cluster;

namespace {

/// A service-account directory with a token, the CA and (when given) a namespace.
std::string service_account(const std::string& ns = "") {
  auto dir = test::temp_dir();
  test::write_file(dir + "/token", "sa-token\n");
  test::write_file(dir + "/ca.crt", kubernetes::testing::certificate_pem);
  if (!ns.empty())
    test::write_file(dir + "/namespace", ns);
  return dir;
}

/// A kubeconfig at `path` whose server is `server`.
void write_kubeconfig(const std::string& path, const std::string& server) {
  test::write_file(path, "current-context: x\nclusters:\n- name: c\n  cluster: {server: \"" + server
                           + "\"}\ncontexts:\n- name: x\n  context: {cluster: c}\n");
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const config_error& e) {
    return e.what();
  }
  return {};
}

} // namespace

TEST(in_cluster_config, the_service_accounts_token_ca_and_namespace) {
  auto dir = service_account("team-b\n");
  auto c = read_in_cluster("10.96.0.1", "443", dir);
  EXPECT_EQ(c.server, "https://10.96.0.1:443");
  EXPECT_EQ(c.token_file, dir + "/token");
  EXPECT_TRUE(c.token.empty());
  EXPECT_EQ(c.ca_pem, kubernetes::testing::certificate_pem);
  EXPECT_EQ(c.default_namespace, "team-b");
  EXPECT_EQ(c.origin, "in-cluster");
}

TEST(in_cluster_config, an_ipv6_host_is_bracketed_and_the_namespace_defaults) {
  auto c = read_in_cluster("fd00:10:96::1", "6443", service_account());
  EXPECT_EQ(c.server, "https://[fd00:10:96::1]:6443");
  EXPECT_EQ(c.default_namespace, "default");
}

TEST(in_cluster_config, errors_name_the_file) {
  auto dir = test::temp_dir();
  EXPECT_EQ(error_of([&] { read_in_cluster("10.0.0.1", "443", dir); }),
            "in-cluster configuration: cannot read " + dir + "/token: No such file or directory");
  test::write_file(dir + "/token", "t");
  EXPECT_EQ(error_of([&] { read_in_cluster("10.0.0.1", "443", dir); }),
            "in-cluster configuration: cannot read " + dir + "/ca.crt: No such file or directory");
  test::write_file(dir + "/ca.crt", "garbage");
  EXPECT_EQ(error_of([&] { read_in_cluster("10.0.0.1", "443", dir); }),
            "in-cluster configuration: " + dir + "/ca.crt: not a PEM certificate");
  EXPECT_EQ(error_of([&] { read_in_cluster("10.0.0.1", "", dir); }),
            "in-cluster configuration: $KUBERNETES_SERVICE_HOST and $KUBERNETES_SERVICE_PORT "
            "must both be set");
}

TEST(load_config, the_flag_then_kubeconfig_then_home_then_in_cluster) {
  auto home = test::temp_dir();
  auto dir = test::temp_dir();
  write_kubeconfig(dir + "/flag", "https://flag");
  write_kubeconfig(dir + "/env", "https://env");
  write_kubeconfig(home + "/.kube/config", "https://home");
  config_sources s;
  s.kubeconfig_flag = dir + "/flag";
  s.kubeconfig_env = dir + "/env";
  s.home = home;
  s.service_host = "10.0.0.1";
  s.service_port = "443";
  s.service_account_dir = service_account();
  EXPECT_EQ(load_config(s).server, "https://flag");
  s.kubeconfig_flag.clear();
  EXPECT_EQ(load_config(s).server, "https://env");
  s.kubeconfig_env.clear();
  EXPECT_EQ(load_config(s).server, "https://home");
  s.home = test::temp_dir();
  EXPECT_EQ(load_config(s).server, "https://10.0.0.1:443");
  EXPECT_EQ(load_config(s).origin, "in-cluster");
}

TEST(load_config, the_first_existing_file_of_a_kubeconfig_list_alone) {
  auto dir = test::temp_dir();
  write_kubeconfig(dir + "/second", "https://second");
  write_kubeconfig(dir + "/third", "https://third");
  config_sources s;
  s.kubeconfig_env = dir + "/first::" + dir + "/second:" + dir + "/third";
  EXPECT_EQ(load_config(s).server, "https://second");
}

TEST(load_config, a_set_kubeconfig_hides_the_home_file) {
  auto home = test::temp_dir();
  write_kubeconfig(home + "/.kube/config", "https://home");
  config_sources s;
  s.kubeconfig_env = home + "/absent";
  s.home = home;
  s.service_host = "10.0.0.1";
  s.service_port = "443";
  s.service_account_dir = service_account();
  EXPECT_EQ(load_config(s).server, "https://10.0.0.1:443");
}

TEST(load_config, an_unreadable_flag_file_is_an_error_not_a_fallback) {
  config_sources s;
  s.kubeconfig_flag = test::temp_dir() + "/absent";
  s.service_host = "10.0.0.1";
  s.service_port = "443";
  EXPECT_EQ(error_of([&] { load_config(s); }),
            "cannot read " + s.kubeconfig_flag + ": No such file or directory");
}

TEST(load_config, nothing_applies_names_every_place_looked_at) {
  auto home = test::temp_dir();
  config_sources s;
  s.home = home;
  EXPECT_EQ(error_of([&] { load_config(s); }),
            "no Kubernetes configuration: --kubeconfig not given, $KUBECONFIG is not set, " + home
              + "/.kube/config does not exist, not in a cluster ($KUBERNETES_SERVICE_HOST is not "
                "set)");
  s.kubeconfig_env = home + "/a:" + home + "/b";
  EXPECT_EQ(error_of([&] { load_config(s); }),
            "no Kubernetes configuration: --kubeconfig not given, $KUBECONFIG=" + home
              + "/a:" + home
              + "/b names no existing file, not in a cluster ($KUBERNETES_SERVICE_HOST "
                "is not set)");
}

TEST(load_config, from_environment_reads_the_process_environment) {
  ::setenv("KUBECONFIG", "/k1:/k2", 1);
  ::setenv("KUBERNETES_SERVICE_HOST", "10.9.9.9", 1);
  ::setenv("KUBERNETES_SERVICE_PORT", "8443", 1);
  auto s = config_sources::from_environment("/flag");
  ::unsetenv("KUBECONFIG");
  ::unsetenv("KUBERNETES_SERVICE_HOST");
  ::unsetenv("KUBERNETES_SERVICE_PORT");
  EXPECT_EQ(s.kubeconfig_flag, "/flag");
  EXPECT_EQ(s.kubeconfig_env, "/k1:/k2");
  EXPECT_EQ(s.service_host, "10.9.9.9");
  EXPECT_EQ(s.service_port, "8443");
  EXPECT_EQ(s.service_account_dir, "/var/run/secrets/kubernetes.io/serviceaccount");
}
