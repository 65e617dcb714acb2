#pragma once

// The local stand-ins for what the Argo corpus Sensors' triggers talk to (corpus_triggers_test):
// the test Kubernetes API server, an HTTP server, a nats-server, a Kafka mock cluster, a GitHub
// stand-in for git and url trigger sources (local_github.hpp), an S3 endpoint, an AWS endpoint
// (Lambda, tests/support/aws), a `triggers.Trigger` server for custom triggers (with gRPC); how a
// stand-in for git and url trigger sources (local_github.hpp), an S3 endpoint, a
// `triggers.Trigger` server for custom triggers (with gRPC), an SMTP server (aiosmtpd, with the
// email kind); how a
// Sensor's addresses are rewritten to them, and how a trigger's effect is checked there.

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "aws/aws_server.hpp"
#include "azure_rest_server.hpp"
#include "ganglion/core/trigger.hpp"
#include "http_sink.hpp"
#include "kafka_broker.hpp"
#include "kube/api_server.hpp"
#include "local_github.hpp"
#include "nats_server.hpp"
#include "s3/s3_server.hpp"
#include "smtp_server.hpp"

namespace ganglion::test::corpus {

class nats_reader;
class custom_server;

/// The node at `path` under `node` (map keys), or an undefined node when one is missing; never
/// changes `node` (yaml-cpp's operator[] on a missing key would).
YAML::Node yaml_at(const YAML::Node& node, std::initializer_list<const char*> path);

/// The servers, shared by every Sensor of the run, and the secrets directory.
class trigger_world {
public:
  /// Starts the API server, the HTTP server and the nats-server; writes the kubeconfig
  /// (namespace `argo-events`, as Argo's examples are installed) and makes the secrets
  /// directory.
  trigger_world();
  ~trigger_world();

  /// The kubeconfig file for `--kubeconfig` (the kinds' `settings`).
  const std::string& kubeconfig() const noexcept { return kubeconfig_; }
  /// The stand-in for github.com (its CA file and API root are the engine's settings).
  const local_github& github() const noexcept { return github_; }
  /// Where the azure triggers send (`--azure-endpoint`): the Azure REST stand-in.
  std::string azure_endpoint() const { return azure_.endpoint(); }
  /// The stand-in for Slack's Web API (`--slack-api-url`): http_sink answering `ok`.
  std::string slack_api_url() const { return slack_.url("/api/"); }
  /// The secrets directory (`<dir>/<name>/<key>`).
  const std::string& secrets_dir() const noexcept { return secrets_dir_; }
  kube::api_server& api() noexcept { return api_; }
  /// The AWS endpoint (`--aws-endpoint`: awsLambda has no endpoint field).
  std::string aws_endpoint() const { return aws_.endpoint(); }
  /// The SMTP server's certificate, for `--smtp-ca-file`; empty without the email kind.
  std::string smtp_ca_file() const;

  /// Rewrites the addresses of `sensor`'s triggers to the local servers (`http.url`,
  /// `http.serverURL`, `nats.url`, `kafka.url`; a `file` source's path to a temporary file
  /// holding Argo's hello-world Workflow; a `git` or `url` source to a local repository or
  /// file holding it, see local_github; an `s3` source's endpoint to the S3 endpoint, with
  /// `insecure: true`) and writes every `secretKeyRef` it names, and a slack trigger's
  /// `slackToken`, into the secrets directory (value `conformance-<key>`); what the examples assume installed is put in place: the
  /// ConfigMap a `configmap` source names and the template a `submit-from` names in the API
  /// server, the object an `s3` source names in the S3 endpoint (with its keys as the
  /// secrets), each holding Argo's hello-world Workflow; an object of a fixed name that a
  /// trigger creates is removed first. A `custom` trigger's `serverURL` → the local
  /// `triggers.Trigger` server (prepare_custom). An `awsLambda` trigger's function exists in
  /// the AWS endpoint, its accessKey / secretKey secrets holding the endpoint's keys.
  /// `triggers.Trigger` server (prepare_custom). An `email` trigger's host and port → the SMTP
  /// server (prepare_email).
  void prepare(YAML::Node sensor);

  /// What the events of the Sensor last prepared must hold (dependency → data path → value):
  /// for its template parameters to name the S3 object, the bucket, key and endpoint (or the
  /// port an `append` adds to it) that a parameter sets from an event; the known values a
  /// `custom` trigger's parameters copy (see prepare_custom).
  const std::map<std::string, std::map<std::string, std::string>>& event_data() const noexcept {
    return event_data_;
  }

  /// Why `sensor`'s triggers would reach outside this machine (a `git` or `url` trigger
  /// source that prepare left at an address beyond 127.0.0.1); empty when none does.
  std::string outside_reach(const YAML::Node& sensor) const;

  /// Notes what the servers hold before an execution of trigger template `tmpl` (a NATS
  /// subscription to its subject).
  void before_execution(const YAML::Node& tmpl);
  /// What trigger template `tmpl` (of kind `type`, in Sensor `sensor`) did, read from the
  /// server it talks to, after an execution that ended with `outcome`: empty when its effect
  /// is there, else what is missing. Call before_execution first.
  std::string check_effect(const std::string& sensor, const YAML::Node& tmpl,
                           const std::string& type, const core::trigger_outcome& outcome);

private:
  /// Points the `custom` trigger `custom` (of trigger `trigger`) at the local
  /// `triggers.Trigger` server and notes what it must receive: the `spec` after the template's
  /// parameters, the fetched resource after `custom.parameters`, each value an event copies
  /// being a known one (event_data).
  void prepare_custom(const YAML::Node& trigger, YAML::Node custom);
  /// What the `triggers.Trigger` server lacks after an execution of custom trigger `trigger`.
  std::string check_custom(const std::string& trigger) const;

  /// Points the `s3` source at `source` (of trigger `trigger`) to the S3 endpoint, puts the
  /// object there and writes its keys into the secrets directory.
  void prepare_s3(const YAML::Node& trigger, YAML::Node s3, const std::string& kind);
  /// Makes the Azure stand-in hold the hub, queue or topic an `azureEventHubs` or
  /// `azureServiceBus` template names, and writes its keys (a connection string for Service
  /// Bus) into the secrets directory.
  void prepare_azure(const YAML::Node& tmpl);

  /// Points the `email` trigger `email` (of trigger `trigger`) at the SMTP server, writes its
  /// `smtpPassword` secret (the server's password) and notes the recipient an event gives
  /// through a template parameter to `email.to` (event_data).
  void prepare_email(const YAML::Node& trigger, YAML::Node email);

  /// Puts the object a `submit-from` names (`reference`: apiVersion, kind, metadata) into the
  /// API server, running Argo's hello-world Workflow.
  void put_existing(const YAML::Node& reference);
  /// Removes the object of a fixed name that trigger template `tmpl` creates, left by an earlier
  /// Sensor of the corpus (each example is installed in a cluster of its own).
  void forget_named(const YAML::Node& tmpl);

  kube::api_server api_;
  http_sink http_;
  http_sink slack_;
  nats_server nats_{false};
  std::unique_ptr<kafka_broker> kafka_;
  local_github github_;
  s3::s3_server s3_;
  /// The test AWS endpoint's options: the role sensors/aws-lambda-trigger.yaml assumes exists.
  static aws::aws_server_options aws_options() {
    aws::aws_server_options o;
    o.roles["arn:aws:iam::123456789012:role/some-role"] = {};
    return o;
  }

  aws::aws_server aws_{aws_options()};
  std::size_t lambda_seen_ = 0;
  azure_rest_server azure_{"conformance-key-name", "conformance-key"};
  std::map<std::string, std::map<std::string, std::string>> event_data_;
  std::string kubeconfig_;
  std::string secrets_dir_;
  std::size_t http_seen_ = 0;
  std::unique_ptr<smtp_server> smtp_;
  std::size_t smtp_seen_ = 0;
  std::size_t azure_seen_ = 0;
  std::size_t slack_seen_ = 0;
  std::unique_ptr<nats_reader> nats_reader_;
  std::unique_ptr<custom_server> custom_;
};

} // namespace ganglion::test::corpus
