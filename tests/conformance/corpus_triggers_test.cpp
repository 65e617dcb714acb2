// Every Sensor of the Argo Events example corpus whose triggers are all of kinds ganglion runs
// fires once, with synthetic events, and each trigger's effect is checked where it lands:
//
// - the Sensor is loaded as `ganglion run` loads it (the registered kinds' spec steps, the
//   kubeconfig of the test API server) and spawned as an embedded sensor (core::spawn_sensor:
//   the dependencies' filters, transforms and conditions of `run`);
// - each dependency gets one event that passes its filters: candidates from
//   synthetic_events.hpp are sent to a probe Sensor holding that dependency alone, and the
//   first one it fires with is kept; then the events go to the Sensor itself;
// - each firing is executed by the trigger's executor (core::create_trigger_executor, the core
//   parameter step included), and its effect is read back: the object a `k8s` or
//   `argoWorkflow` trigger reports (lastResult, see docs/kubernetes.md) exists in the test API
//   server with Argo's sensor and trigger labels (or is gone after a delete), the HTTP server
//   got the `http` request, the AWS endpoint the `awsLambda` Invoke, a subscriber got the
//   `nats` message, the Kafka cluster holds the `kafka` record, the Azure REST stand-in accepted
//   the `azureEventHubs` or `azureServiceBus` message (its SAS signature checked), the Slack
//   stand-in got the `slack` chat.postMessage, the `triggers.Trigger` server got the `custom` trigger's FetchResource (its
//   `spec` after the template's parameters), Execute (the fetched resource after
//   `custom.parameters`) and ApplyPolicy, the SMTP server got the `email` message over
//   STARTTLS after AUTH; a `log` trigger's success is its effect.
//
// What the test changes in the corpus Sensors (trigger_world.hpp), and nothing else:
// - addresses: `http.url` / `http.serverURL` → the local HTTP server (path `/<trigger>`),
//   `nats.url` → a local nats-server, `kafka.url` → a librdkafka mock cluster, the azure
//   triggers → the Azure REST stand-in (`--azure-endpoint`; the keys and the Service Bus
//   connection string in the secrets directory are its own),
//   `custom.serverURL` → a `triggers.Trigger` server in the test process
//   (transports/grpc/tests/support; its FetchResource answers a Tekton PipelineRun holding the
//   `spec` it got, as the example's server would; without gRPC the kind is absent), the slack
//   trigger's Web API (`--slack-api-url`) → an http_sink answering `{"ok":true,…}`; the
//   Kubernetes API is the test API server through `--kubeconfig` (namespace `argo-events`); a
//   `file` trigger source's path → a temporary file holding Argo's hello-world Workflow; a `git`
//   source's url → a local repository holding that Workflow at its filePath, branch, tag and
//   ref (over smart HTTP from a GitHub stand-in, git-http-backend, for `creds` and `githubApp`;
//   a file:// URL otherwise) and its cloneDirectory → a temporary folder; a `url` source's
//   path → the stand-in, serving that Workflow at the same path; an `s3` trigger source's
//   endpoint → the test S3 endpoint (tests/support/s3) over http; the `awsLambda` endpoint
//   (`--aws-endpoint`) → the test AWS endpoint (tests/support/aws), where the function exists;
// - what the examples assume installed: every `secretKeyRef`, and the secrets a git source
//   names, exist in the secrets directory (`conformance-<key>`; a githubApp privateKey is the
//   stand-in App's key), the ConfigMap a `configmap` trigger source names holds Argo's
//   hello-world Workflow, and the CronWorkflow or template an argoWorkflow `submit-from` names
//   exists (running that Workflow); the object an `s3` source names holds that Workflow, and
//   its accessKey / secretKey secrets are the S3 endpoint's keys;
// - the event data a template parameter copies into an `s3` source's bucket, key or endpoint
//   names that object and endpoint (the port, when the parameter appends it); the event data a
//   template parameter copies into a `custom` trigger's `spec`, or a `custom.parameters` into
//   the fetched resource, is a known value (`conformance-spec-<key>`, `conformance-<dest>`),
//   checked where it lands; an `email` trigger's host and port → the local SMTP server
//   (aiosmtpd, its certificate as `--smtp-ca-file`), its `smtpPassword` secret that server's
//   password, and the event data a template parameter copies into `email.to` an address.
// A Sensor whose trigger sources still name an address beyond 127.0.0.1 is listed, not run.

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <future>
#include <iostream>
#include <map>
#include <sstream>

#include <caf/all.hpp>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "files.hpp"
#include "ganglion/core/embed.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "built_kinds.hpp"
#include "ganglion/dsl/load.hpp"
#include "kinds.hpp"
#include "synthetic_events.hpp"
#include "trigger_world.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// Sensors of the corpus whose every trigger runs; a change in behaviour shows here. Without
/// gRPC, custom-trigger.yaml needs the `custom` kind; without the aws transport,
/// sensors/aws-lambda-trigger.yaml (its roleARN assumed at the test AWS endpoint's STS) and the
/// awsLambda tutorial (tutorials/10-aws-lambda-trigger) need `awsLambda`; without the email kind,
/// email-trigger.yaml needs `email`; without azure, azure-event-hubs-sensor.yaml and
/// azure-service-bus-sensor.yaml need theirs; without slack, slack-trigger.yaml needs `slack`.
constexpr std::size_t pinned_running = 83 + test::with_grpc + 2 * test::with_aws + test::with_email
                                       + 2 * test::with_azure + test::with_slack;

/// The trigger kinds of `sensor` that `triggers` lacks (its templates' actions).
std::vector<std::string> missing_kinds(const dsl::sensor& sensor,
                                       const core::trigger_registry& triggers) {
  std::vector<std::string> out;
  for (const auto& t : sensor.spec.triggers)
    for (const auto& a : t.template_.actions)
      if (!triggers.count(a.type))
        out.push_back(a.type);
  return out;
}

/// Why no event can pass `dep`'s context filter, when it asks for another EventSource or event
/// than the dependency's (Argo routes by both, so such a dependency never fires there either).
std::string context_conflict(const dsl::event_dependency& dep) {
  if (!dep.filters || !dep.filters->context)
    return {};
  const auto& c = *dep.filters->context;
  if (!c.source.empty() && c.source != dep.event_source_name)
    return ": its context filter wants source " + c.source + ", its events come from "
           + dep.event_source_name + " (as in Argo, no event passes)";
  if (!c.subject.empty() && c.subject != dep.event_name)
    return ": its context filter wants subject " + c.subject + ", its events are " + dep.event_name
           + " (as in Argo, no event passes)";
  return {};
}

/// Runs embedded sensors and collects their firings.
class sensor_host {
public:
  sensor_host() : system_(config()), self_(system_) {}

  /// The firings of `sensor` after `events`, waiting until `expected` arrived or 2 s passed
  /// without one. Each run has its own name, so that late firings of an earlier run are
  /// dropped.
  std::vector<core::sensor_firing> fire(const dsl::sensor& sensor,
                                        const std::vector<core::event>& events,
                                        std::size_t expected) {
    auto run = sensor;
    run.metadata.name += "#" + std::to_string(++runs_);
    auto actor = core::spawn_sensor(system_, run, self_);
    for (const auto& e : events)
      self_->send(actor, e);
    std::vector<core::sensor_firing> out;
    bool waiting = true;
    while (waiting && out.size() < expected)
      self_->receive(
        [&](core::sensor_firing& f) {
          if (f.sensor == run.metadata.name)
            out.push_back(std::move(f));
        },
        caf::after(2s) >> [&] { waiting = false; });
    self_->send_exit(actor, caf::exit_reason::user_shutdown);
    return out;
  }

private:
  static caf::actor_system_config& config() {
    static caf::actor_system_config cfg;
    static bool registered = false;
    if (!registered) {
      core::add_message_types(cfg);
      registered = true;
    }
    return cfg;
  }
  caf::actor_system system_;
  caf::scoped_actor self_;
  std::size_t runs_ = 0;
};

/// The event of dependency `dep` (holding `fixed` at its data paths) that a Sensor holding it
/// alone fires with; nullopt when no candidate passes its filters.
std::optional<core::event> passing_event(sensor_host& host, const dsl::sensor& sensor,
                                         const dsl::event_dependency& dep,
                                         const std::map<std::string, std::string>& fixed) {
  auto candidates = test::corpus::candidate_events(sensor, dep, fixed);
  if (!dep.filters)
    return candidates.front();
  dsl::sensor probe;
  probe.metadata = sensor.metadata;
  probe.spec.dependencies = {dep};
  dsl::trigger t = sensor.spec.triggers.front();
  t.template_.conditions.clear();
  t.template_.conditions_reset_.clear();
  t.parameters.clear();
  t.dlq_trigger.reset();
  for (auto& a : t.template_.actions) {
    a.parameters.clear();
    a.payload.clear();
  }
  probe.spec.triggers = {t};
  auto fired = host.fire(probe, candidates, 1);
  if (fired.empty())
    return std::nullopt;
  return fired.front().events.begin()->second;
}

/// One Sensor's run: empty when every trigger fired and its effect is there, else why not.
class sensor_run {
public:
  sensor_run(test::corpus::trigger_world& world, const core::trigger_registry& triggers,
             sensor_host& host)
    : world_(world), triggers_(triggers), host_(host) {}

  std::string operator()(const dsl::sensor& sensor, const YAML::Node& node) {
    std::vector<core::event> events;
    std::vector<core::sensor_firing> firings;
    auto n = sensor.spec.triggers.size();
    try {
      for (const auto& dep : sensor.spec.dependencies) {
        auto data = world_.event_data().find(dep.name);
        auto e = passing_event(
          host_, sensor, dep,
          data == world_.event_data().end() ? std::map<std::string, std::string>{} : data->second);
        if (!e)
          return "no synthetic event passes the filters of dependency " + dep.name
                 + context_conflict(dep);
        events.push_back(std::move(*e));
      }
      firings = host_.fire(sensor, events, n);
    } catch (const std::exception& e) {
      return std::string{"the sensor cannot run: "} + e.what();
    }
    std::string why;
    const auto triggers = test::corpus::yaml_at(node, {"spec", "triggers"});
    for (std::size_t i = 0; i < n; ++i) {
      const auto& t = sensor.spec.triggers[i];
      auto f = std::find_if(firings.begin(), firings.end(),
                            [&](const auto& x) { return x.trigger == t.template_.name; });
      auto tmpl = test::corpus::yaml_at(triggers[i], {"template"});
      auto problem = f == firings.end() ? std::string{"did not fire"}
                                        : execute(sensor, t, tmpl, *f);
      if (!problem.empty())
        why += (why.empty() ? "" : "; ") + ("trigger " + t.template_.name + ": " + problem);
    }
    return why;
  }

private:
  std::string execute(const dsl::sensor& sensor, const dsl::trigger& t, const YAML::Node& tmpl,
                      const core::sensor_firing& firing) {
    const auto* action = core::action_of(t);
    if (!action)
      return "no action";
    core::trigger_context ctx;
    ctx.sensor_name = sensor.metadata.name;
    ctx.sensor_namespace = sensor.metadata.namespace_;
    ctx.manifest = &t;
    ctx.secrets = std::make_shared<core::secret_store>(world_.secrets_dir());
    ctx.metrics = &metrics_;
    core::trigger_invocation invocation;
    for (const auto& [dep, e] : firing.events)
      invocation.events.emplace(dep, std::make_shared<const core::event>(e));
    try {
      auto executor = core::create_trigger_executor(triggers_.at(action->type), ctx);
      world_.before_execution(tmpl);
      auto done = std::make_shared<std::promise<core::trigger_outcome>>();
      auto result = done->get_future();
      executor->execute(invocation, [done](core::trigger_outcome o) { done->set_value(o); });
      if (result.wait_for(60s) != std::future_status::ready)
        return "no outcome within 60 s";
      auto outcome = result.get();
      if (!outcome.ok)
        return outcome.error;
      return world_.check_effect(sensor.metadata.name, tmpl, action->type, outcome);
    } catch (const std::exception& e) {
      return e.what();
    }
  }

  test::corpus::trigger_world& world_;
  const core::trigger_registry& triggers_;
  sensor_host& host_;
  core::metrics_registry metrics_;
};

} // namespace

TEST(corpus_triggers, every_sensor_whose_triggers_all_run_fires_and_acts) {
  test::corpus::trigger_world world;
  core::option_values settings;
  settings.set("--kubeconfig", {world.kubeconfig()});
  settings.set("--artifact-ca-file", {world.github().ca_file()});
  settings.set("--github-api-url", {world.github().api_url()});
  settings.set("--aws-endpoint", {world.aws_endpoint()});
  settings.set("--smtp-ca-file", {world.smtp_ca_file()});
  settings.set("--azure-endpoint", {world.azure_endpoint()});
  settings.set("--slack-api-url", {world.slack_api_url()});
  auto kinds = app::register_kinds(std::make_shared<http::runtime>(), settings);
  sensor_host host;
  sensor_run run{world, kinds.triggers, host};
  std::size_t sensors = 0;
  std::size_t running = 0;
  std::ostringstream not_run;
  for (const auto& file : test::yaml_files_under(GANGLION_CORPUS_DIR)) {
    auto shown = std::filesystem::relative(file, GANGLION_CORPUS_DIR).string();
    std::vector<YAML::Node> nodes;
    try {
      nodes = YAML::LoadAllFromFile(file);
    } catch (const YAML::Exception&) {
      continue; // malformed examples: corpus_test reports them
    }
    for (auto& node : nodes) {
      auto kind = test::corpus::yaml_at(node, {"kind"});
      if (!kind.IsScalar() || kind.as<std::string>() != "Sensor")
        continue;
      ++sensors;
      auto name = test::corpus::yaml_at(node, {"metadata", "name"});
      auto label = shown + " (" + (name.IsScalar() ? name.as<std::string>() : "") + ")";
      world.prepare(node);
      YAML::Emitter out;
      out << node;
      auto loaded = dsl::load_manifest_text(out.c_str(), shown, app::load_options_for(kinds));
      std::string why;
      for (const auto& d : loaded.diagnostics)
        if (d.level == dsl::severity::error && why.empty())
          why = "validate: " + d.to_string();
      const dsl::sensor* sensor = nullptr;
      for (const auto& doc : loaded.documents)
        if (auto s = std::get_if<dsl::sensor>(&doc.body))
          sensor = s;
      auto absent = sensor ? missing_kinds(*sensor, kinds.triggers) : std::vector<std::string>{};
      if (why.empty() && !absent.empty()) {
        why = "needs the trigger kind(s)";
        for (const auto& kind : absent)
          why += " " + kind;
      }
      if (why.empty())
        why = world.outside_reach(node);
      if (why.empty() && sensor)
        why = run(*sensor, node);
      if (why.empty())
        ++running;
      else
        not_run << "  " << label << ": " << why << "\n";
    }
  }
  std::cout << "Sensors of the Argo corpus whose every trigger runs: " << running << " of "
            << sensors << "\n"
            << "Sensors that do not run, and what they need:\n"
            << not_run.str();
  EXPECT_EQ(sensors, 94u);
  EXPECT_EQ(running, pinned_running) << not_run.str();
}
