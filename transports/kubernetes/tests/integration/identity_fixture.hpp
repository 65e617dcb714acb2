#pragma once

// Object identity (issue 31) against the test API server with RBAC: the engine authenticates
// as the service account argo-events/ganglion, allowed to impersonate service accounts and
// nothing more (deploy/rbac); objects live in namespace `attacker`, the data they must not
// reach in `victim`.

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "files.hpp"
#include "ganglion/kubernetes/transport.hpp"
#include "kube/api_server.hpp"

namespace ganglion::test {

/// The users and the server of the object identity tests.
class identity_fixture : public ::testing::Test {
protected:
  static constexpr const char* engine_user = "system:serviceaccount:argo-events:ganglion";
  static constexpr const char* attacker_default = "system:serviceaccount:attacker:default";

  static kube::server_options rbac_options() {
    kube::server_options out;
    out.rbac = true;
    out.token_users = {{"engine-token", {engine_user}},
                       {"admin-token", {"cluster-admin", {"system:masters"}}}};
    return out;
  }

  identity_fixture() {
    write_file(engine_kubeconfig, server.kubeconfig("engine-token"));
    write_file(admin_kubeconfig, server.kubeconfig("admin-token"));
    server.grant("", "ganglion-impersonate", {{{""}, {"serviceaccounts"}, {"impersonate"}}},
                 {kube::rbac_subject::service_account("argo-events", "ganglion")});
    server.put(secret("victim", "db", "hunter2"));
  }

  /// Transport options reaching the server as the engine, with `mode`.
  kubernetes::options options_for(kubernetes::identity_mode mode) const {
    kubernetes::options out;
    out.kubeconfig = engine_kubeconfig;
    out.client.request_timeout = std::chrono::seconds(5);
    out.object_identity = mode;
    return out;
  }

  /// Grants the engine itself `verbs` on `resource` (core group) in `ns`, as an operator running
  /// `--object-identity namespace` must.
  void grant_engine(const std::string& ns, const std::string& resource,
                    const std::vector<std::string>& verbs) {
    server.grant(ns, "ganglion-" + resource, {{{""}, {resource}, verbs}},
                 {kube::rbac_subject::service_account("argo-events", "ganglion")});
  }

  static nlohmann::json secret(const std::string& ns, const std::string& name,
                               const std::string& password) {
    return {{"apiVersion", "v1"},
            {"kind", "Secret"},
            {"metadata", {{"name", name}, {"namespace", ns}}},
            {"stringData", {{"password", password}}},
            {"data", {{"password", "aHVudGVyMg=="}}}};
  }

  static nlohmann::json configmap(const std::string& ns, const std::string& name,
                                  const nlohmann::json& data = nlohmann::json::object()) {
    return {{"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"metadata", {{"name", name}, {"namespace", ns}}},
            {"data", data}};
  }

  /// Every request the server received whose path starts with `prefix`.
  std::vector<kube::request_record> requests_to(const std::string& prefix) const {
    return server.requests("", prefix);
  }

  kube::api_server server{rbac_options()};
  std::string engine_kubeconfig = temp_dir() + "/engine-kubeconfig";
  std::string admin_kubeconfig = temp_dir() + "/admin-kubeconfig";
};

} // namespace ganglion::test
