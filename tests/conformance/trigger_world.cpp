#include "trigger_world.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include <fmt/format.h>
#include <nats/nats.h>
#include <nlohmann/json.hpp>

#include "files.hpp"

#if GANGLION_WITH_GRPC
#include "test_trigger_server.hpp"
#endif

namespace ganglion::test::corpus {

namespace {

using json = nlohmann::json;

/// The SMTP login of Argo's email example (`username: username`) and the password the test
/// server takes, written as the example's smtpPassword secret; the recipient events give.
constexpr const char* smtp_user = "username";
constexpr const char* smtp_password = "conformance-smtp-password";
constexpr const char* smtp_recipient = "conformance@example.com";

/// Argo's hello-world Workflow, what Argo's examples put in the ConfigMaps they read.
const char* hello_world = R"(apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  generateName: hello-world-
spec:
  entrypoint: whalesay
  templates:
    - name: whalesay
      container:
        image: docker/whalesay:latest
        command: [cowsay]
        args: ["hello world"]
)";

/// Calls `visit` on every map node under `node` (itself included).
template <class F>
void each_map(const YAML::Node& node, const F& visit) {
  if (node.IsMap()) {
    visit(node);
    for (const auto& kv : node)
      each_map(kv.second, visit);
  } else if (node.IsSequence()) {
    for (const auto& item : node)
      each_map(item, visit);
  }
}

/// The trigger templates of a Sensor node.
std::vector<YAML::Node> templates_of(const YAML::Node& sensor) {
  std::vector<YAML::Node> out;
  auto triggers = yaml_at(sensor, {"spec", "triggers"});
  if (!triggers.IsSequence())
    return out;
  for (const auto& t : triggers)
    if (auto tmpl = yaml_at(t, {"template"}); tmpl.IsMap())
      out.push_back(tmpl);
  return out;
}

std::string text_at(const YAML::Node& node, std::initializer_list<const char*> path) {
  auto found = yaml_at(node, path);
  return found.IsScalar() ? found.as<std::string>() : std::string{};
}

} // namespace

/// The NATS messages of one subject, read by a subscription made before the execution.
class nats_reader {
public:
  nats_reader(const std::string& url, const std::string& subject) {
    // The flush waits for the server's PONG, so the SUB is registered before the trigger
    // publishes (without it, a loaded machine let the message go by unseen).
    if (natsConnection_ConnectTo(&conn_, url.c_str()) == NATS_OK
        && natsConnection_SubscribeSync(&sub_, conn_, subject.c_str()) == NATS_OK)
      natsConnection_FlushTimeout(conn_, 10000);
  }
  ~nats_reader() {
    natsSubscription_Destroy(sub_);
    natsConnection_Destroy(conn_);
  }
  /// The next message's data; empty when none came within 10 s.
  std::string next() {
    natsMsg* msg = nullptr;
    if (!sub_ || natsSubscription_NextMsg(&msg, sub_, 10000) != NATS_OK)
      return {};
    std::string out{natsMsg_GetData(msg), static_cast<std::size_t>(natsMsg_GetDataLength(msg))};
    natsMsg_Destroy(msg);
    return out.empty() ? "(empty)" : out;
  }

private:
  natsConnection* conn_ = nullptr;
  natsSubscription* sub_ = nullptr;
};

#if GANGLION_WITH_GRPC
/// The `triggers.Trigger` server of the `custom` triggers (transports/grpc/tests/support) and
/// what each custom trigger of the Sensor last prepared must send it: FetchResource gets the
/// `spec` after the template's parameters; it answers a Tekton PipelineRun whose `spec` is that
/// map (what the example's server would fetch), and Execute gets it after `custom.parameters`.
class custom_server {
public:
  custom_server() {
    server_.set_fetch_handler([](const std::string& spec) {
      json map = json::object();
      try {
        auto node = YAML::Load(spec);
        if (node.IsMap())
          for (const auto& kv : node)
            map[kv.first.as<std::string>()] = kv.second.IsScalar() ? kv.second.as<std::string>()
                                                                   : std::string{};
      } catch (const YAML::Exception&) {
        // not YAML: an empty spec, which the check reports
      }
      return json{{"apiVersion", "tekton.dev/v1beta1"},
                  {"kind", "PipelineRun"},
                  {"metadata", json::object()},
                  {"spec", map}}
        .dump();
    });
  }

  std::string address() const { return server_.address(); }
  std::size_t fetches() const { return server_.fetches().size(); }
  std::size_t executes() const { return server_.executes().size(); }
  std::size_t policies() const { return server_.policies().size(); }
  std::string last_fetch() const { return server_.fetches().back(); }
  std::string last_execute() const { return server_.executes().back().resource; }

  /// Per trigger: `spec` key → the value FetchResource must get; resource path → the value
  /// Execute's resource must hold there.
  struct expected {
    std::map<std::string, std::string> spec;
    std::map<std::string, std::string> resource;
  };
  std::map<std::string, expected> triggers;
  /// The calls the server had got before the execution being checked.
  std::size_t fetches_seen = 0;
  std::size_t executes_seen = 0;
  std::size_t policies_seen = 0;

private:
  test_trigger_server server_;
};
#else
/// Without gRPC there is no `custom` kind, and no server.
class custom_server {};
#endif

namespace {

/// The object reference a k8s or argoWorkflow execution reported, checked in `api`; the object
/// has Argo's labels when `labelled` (a k8s create, an argoWorkflow submit).
std::string check_object(kube::api_server& api, const std::string& sensor,
                         const std::string& trigger, bool labelled,
                         const core::trigger_outcome& outcome) {
  auto ref = json::parse(outcome.result, nullptr, false);
  if (!ref.is_object())
    return "the execution reported no object (" + outcome.detail + ")";
  auto ns = ref.value("namespace", std::string{});
  auto found =
    api.get(ref.value("apiVersion", ""), ref.value("kind", ""), ns, ref.value("name", ""));
  auto op = ref.value("operation", "");
  if (op == "deleted")
    return found ? "the object it deleted is still there: " + ref.dump() : "";
  if (!found)
    return "the server has no " + ref.dump();
  if (labelled) {
    const auto& labels = (*found)["metadata"]["labels"];
    if (!labels.is_object() || labels.value("events.argoproj.io/sensor", "") != sensor
        || labels.value("events.argoproj.io/trigger", "") != trigger)
      return "the object lacks Argo's sensor/trigger labels: " + found->dump();
  }
  return {};
}

} // namespace

YAML::Node yaml_at(const YAML::Node& node, std::initializer_list<const char*> path) {
  YAML::Node at = node;
  for (const char* key : path) {
    if (!at.IsMap())
      return YAML::Node(YAML::NodeType::Undefined);
    const YAML::Node& map = at;
    YAML::Node next = map[key];
    if (!next.IsDefined())
      return YAML::Node(YAML::NodeType::Undefined);
    at.reset(next);
  }
  return at;
}

trigger_world::trigger_world()
  : github_(hello_world), kubeconfig_(temp_dir() + "/kubeconfig"), secrets_dir_(temp_dir()) {
  write_file(kubeconfig_, api_.kubeconfig({}, std::nullopt, "argo-events"));
  slack_.set_answer(R"({"ok":true,"channel":"C0","ts":"1.1"})", "application/json");
#if GANGLION_WITH_EMAIL
  smtp_ = std::make_unique<smtp_server>(smtp_server_options{smtp_user, smtp_password, true});
#endif
}

std::string trigger_world::smtp_ca_file() const {
  return smtp_ ? smtp_->ca_file() : std::string{};
}

void trigger_world::prepare_email(const YAML::Node& trigger, YAML::Node email) {
  if (!smtp_)
    return;
  email["host"] = "127.0.0.1";
  email["port"] = smtp_->port();
  if (auto secret = yaml_at(email, {"smtpPassword"}); secret.IsMap())
    write_file(fmt::format("{}/{}/{}", secrets_dir_, text_at(secret, {"name"}),
                           text_at(secret, {"key"})),
               smtp_password);
  if (auto params = yaml_at(trigger, {"parameters"}); params.IsSequence())
    for (const auto& p : params) {
      auto dep = text_at(p, {"src", "dependencyName"});
      auto data_key = text_at(p, {"src", "dataKey"});
      if (text_at(p, {"dest"}).rfind("email.to", 0) == 0 && !dep.empty() && !data_key.empty())
        event_data_[dep][data_key] = smtp_recipient;
    }
}

trigger_world::~trigger_world() = default;

void trigger_world::forget_named(const YAML::Node& tmpl) {
  for (const char* kind : {"k8s", "argoWorkflow"}) {
    auto object = yaml_at(tmpl, {kind, "source", "resource"});
    auto name = text_at(object, {"metadata", "name"});
    if (name.empty())
      continue;
    auto ns = text_at(object, {"metadata", "namespace"});
    try {
      api_.remove(text_at(object, {"apiVersion"}), text_at(object, {"kind"}),
                  ns.empty() ? "argo-events" : ns, name);
    } catch (const std::exception&) {
      // a kind the server does not serve: the trigger reports it
    }
  }
}

void trigger_world::prepare(YAML::Node sensor) {
  event_data_.clear();
#if GANGLION_WITH_GRPC
  if (custom_)
    custom_->triggers.clear();
#endif
  if (auto triggers = yaml_at(sensor, {"spec", "triggers"}); triggers.IsSequence())
    for (const auto& trigger : triggers) {
      for (const char* kind : {"k8s", "argoWorkflow"})
        if (auto s3 = yaml_at(trigger, {"template", kind, "source", "s3"}); s3.IsMap())
          prepare_s3(trigger, s3, kind);
      if (auto custom = yaml_at(trigger, {"template", "custom"}); custom.IsMap())
        prepare_custom(trigger, custom);
      if (auto email = yaml_at(trigger, {"template", "email"}); email.IsMap())
        prepare_email(trigger, email);
    }
  for (auto t : templates_of(sensor)) {
    if (auto http = yaml_at(t, {"http"}); http.IsMap()) {
      for (const char* key : {"url", "serverURL"})
        if (yaml_at(http, {key}).IsDefined())
          http[key] = http_.url("/" + text_at(t, {"name"}));
    }
    if (auto nats = yaml_at(t, {"nats"}); nats.IsMap())
      nats["url"] = nats_.url();
    if (auto lambda = yaml_at(t, {"awsLambda"}); lambda.IsMap()) {
      aws_.put_function(text_at(lambda, {"functionName"}));
      for (const auto& [field, value] : {std::pair{"accessKey", aws_.options().access_key},
                                         std::pair{"secretKey", aws_.options().secret_key}})
        if (auto ref = yaml_at(lambda, {field}); ref.IsMap())
          write_file(fmt::format("{}/{}/{}", secrets_dir_, text_at(ref, {"name"}),
                                 text_at(ref, {"key"})),
                     value);
    }
    prepare_azure(t);
    if (auto token = yaml_at(t, {"slack", "slackToken"}); token.IsMap())
      write_file(fmt::format("{}/{}/{}", secrets_dir_, text_at(token, {"name"}),
                             text_at(token, {"key"})),
                 "conformance-" + text_at(token, {"key"}));
    if (auto kafka = yaml_at(t, {"kafka"}); kafka.IsMap()) {
      if (!kafka_)
        kafka_ = std::make_unique<kafka_broker>();
      kafka["url"] = kafka_->bootstraps();
    }
    for (const char* kind : {"k8s", "argoWorkflow"}) {
      if (auto git = yaml_at(t, {kind, "source", "git"}); git.IsMap())
        github_.prepare_git(git, secrets_dir_);
      if (auto url = yaml_at(t, {kind, "source", "url"}); url.IsMap())
        github_.prepare_url(url);
    }
    for (const char* kind : {"k8s", "argoWorkflow"})
      if (auto file = yaml_at(t, {kind, "source", "file"}); file.IsMap()) {
        auto path = fmt::format("{}/{}.yaml", temp_dir(), text_at(t, {"name"}));
        write_file(path, hello_world);
        file["path"] = path;
      }
    if (text_at(t, {"argoWorkflow", "operation"}) == "submit-from")
      put_existing(yaml_at(t, {"argoWorkflow", "source", "resource"}));
    else
      forget_named(t);
    for (const char* kind : {"k8s", "argoWorkflow"})
      if (auto cm = yaml_at(t, {kind, "source", "configmap"}); cm.IsMap()) {
        auto ns = text_at(cm, {"namespace"});
        api_.put(
          {{"apiVersion", "v1"},
           {"kind", "ConfigMap"},
           {"metadata",
            {{"name", text_at(cm, {"name"})}, {"namespace", ns.empty() ? "argo-events" : ns}}},
           {"data", {{text_at(cm, {"key"}), hello_world}}}});
      }
  }
  each_map(sensor, [&](const YAML::Node& map) {
    if (auto ref = yaml_at(map, {"secretKeyRef"}); ref.IsMap()) {
      auto key = text_at(ref, {"key"});
      write_file(fmt::format("{}/{}/{}", secrets_dir_, text_at(ref, {"name"}), key),
                 "conformance-" + key);
    }
  });
}

void trigger_world::prepare_azure(const YAML::Node& tmpl) {
  auto secret = [&](const YAML::Node& ref, const std::string& value) {
    write_file(fmt::format("{}/{}/{}", secrets_dir_, text_at(ref, {"name"}), text_at(ref, {"key"})),
               value);
  };
  if (auto hub = yaml_at(tmpl, {"azureEventHubs"}); hub.IsMap()) {
    secret(yaml_at(hub, {"sharedAccessKeyName"}), "conformance-key-name");
    secret(yaml_at(hub, {"sharedAccessKey"}), "conformance-key");
    azure_.add_entity(text_at(hub, {"fqdn"}), text_at(hub, {"hubName"}));
  }
  if (auto bus = yaml_at(tmpl, {"azureServiceBus"}); bus.IsMap()) {
    const std::string host = "conformance.servicebus.windows.net";
    secret(yaml_at(bus, {"connectionString"}),
           "Endpoint=sb://" + host
             + "/;SharedAccessKeyName=conformance-key-name;SharedAccessKey=conformance-key");
    auto queue = text_at(bus, {"queueName"});
    azure_.add_entity(host, queue.empty() ? text_at(bus, {"topicName"}) : queue);
  }
}

void trigger_world::prepare_s3(const YAML::Node& trigger, YAML::Node s3, const std::string& kind) {
  auto bucket = text_at(s3, {"bucket", "name"});
  auto key = text_at(s3, {"bucket", "key"});
  s3["endpoint"] = s3_.endpoint();
  s3["insecure"] = true;
  auto prefix = kind + ".source.s3.";
  if (auto params = yaml_at(trigger, {"parameters"}); params.IsSequence())
    for (const auto& p : params) {
      auto dest = text_at(p, {"dest"});
      auto dep = text_at(p, {"src", "dependencyName"});
      auto data_key = text_at(p, {"src", "dataKey"});
      if (dest.rfind(prefix, 0) != 0 || dep.empty() || data_key.empty())
        continue;
      auto field = dest.substr(prefix.size());
      auto& data = event_data_[dep];
      auto port = std::to_string(s3_.port());
      if (field == "bucket.name") {
        bucket = data[data_key] = "conformance-bucket";
      } else if (field == "bucket.key") {
        key = data[data_key] = "conformance/workflow.yaml";
      } else if (field == "endpoint" && text_at(p, {"operation"}) == "append") {
        s3["endpoint"] = "127.0.0.1:";
        data[data_key] = port;
      } else if (field == "endpoint" && text_at(p, {"operation"}) == "prepend") {
        s3["endpoint"] = ":" + port;
        data[data_key] = "127.0.0.1";
      } else if (field == "endpoint") {
        data[data_key] = s3_.endpoint();
      }
    }
  s3_.put_object(bucket, key, hello_world);
  for (const char* field : {"accessKey", "secretKey"})
    if (auto ref = yaml_at(s3, {field}); ref.IsMap())
      write_file(
        fmt::format("{}/{}/{}", secrets_dir_, text_at(ref, {"name"}), text_at(ref, {"key"})),
        field == std::string{"accessKey"} ? s3_.options().access_key : s3_.options().secret_key);
}

void trigger_world::prepare_custom(const YAML::Node& trigger, YAML::Node custom) {
#if GANGLION_WITH_GRPC
  if (!custom_)
    custom_ = std::make_unique<custom_server>();
  custom["serverURL"] = custom_->address();
  auto name = text_at(trigger, {"template", "name"});
  auto& expected = custom_->triggers[name];
  if (auto spec = yaml_at(custom, {"spec"}); spec.IsMap())
    for (const auto& kv : spec)
      if (kv.second.IsScalar())
        expected.spec[kv.first.as<std::string>()] = kv.second.as<std::string>();
  // The value a parameter copies from an event (`dataKey`, replacing): a known one in the
  // event, or the one an earlier parameter gave that data path. Nullopt for another source.
  auto copied = [&](const YAML::Node& p, const std::string& made) -> std::optional<std::string> {
    auto dep = text_at(p, {"src", "dependencyName"});
    auto data_key = text_at(p, {"src", "dataKey"});
    auto op = text_at(p, {"operation"});
    if (dep.empty() || data_key.empty() || !(op.empty() || op == "overwrite"))
      return std::nullopt;
    auto& data = event_data_[dep];
    return data.try_emplace(data_key, made).first->second;
  };
  const std::string spec_prefix = "custom.spec.";
  if (auto params = yaml_at(trigger, {"parameters"}); params.IsSequence())
    for (const auto& p : params) {
      auto dest = text_at(p, {"dest"});
      if (dest.rfind(spec_prefix, 0) != 0)
        continue;
      auto key = dest.substr(spec_prefix.size());
      if (auto value = copied(p, "conformance-spec-" + key))
        expected.spec[key] = *value;
      else
        expected.spec.erase(key);
    }
  if (auto params = yaml_at(custom, {"parameters"}); params.IsSequence())
    for (const auto& p : params) {
      auto dest = text_at(p, {"dest"});
      auto made = "conformance-" + dest;
      std::replace(made.begin(), made.end(), '.', '-');
      if (auto value = copied(p, made); value && !dest.empty())
        expected.resource[dest] = *value;
    }
#else
  (void)trigger;
  (void)custom; // no custom kind: the Sensor is listed as needing it
#endif
}

void trigger_world::put_existing(const YAML::Node& reference) {
  auto kind = text_at(reference, {"kind"});
  auto name = text_at(reference, {"metadata", "name"});
  if (kind.empty() || name.empty())
    return;
  auto workflow = json::parse(R"({"entrypoint":"whalesay","templates":[{"name":"whalesay",
    "container":{"image":"docker/whalesay:latest","command":["cowsay"],
    "args":["hello world"]}}]})");
  auto ns = text_at(reference, {"metadata", "namespace"});
  json object{{"apiVersion", text_at(reference, {"apiVersion"})},
              {"kind", kind},
              {"metadata", {{"name", name}, {"namespace", ns.empty() ? "argo-events" : ns}}}};
  object["spec"] =
    kind == "CronWorkflow" ? json{{"schedule", "* * * * *"}, {"workflowSpec", workflow}} : workflow;
  api_.put(object);
}

std::string trigger_world::outside_reach(const YAML::Node& sensor) const {
  auto local = [](const std::string& address) {
    return address.starts_with("http://127.0.0.1:") || address.starts_with("https://localhost:");
  };
  for (const auto& t : templates_of(sensor))
    for (const char* kind : {"k8s", "argoWorkflow"}) {
      auto source = yaml_at(t, {kind, "source"});
      if (auto url = text_at(source, {"git", "url"}); !url.empty() && !local(url))
        return fmt::format("trigger {}: its git source clones {} (no test leaves 127.0.0.0/8)",
                           text_at(t, {"name"}), url);
      if (auto path = text_at(source, {"url", "path"}); !path.empty() && !local(path))
        return fmt::format("trigger {}: its url source reads {} (no test leaves 127.0.0.0/8)",
                           text_at(t, {"name"}), path);
    }
  return {};
}

void trigger_world::before_execution(const YAML::Node& tmpl) {
  http_seen_ = http_.requests().size();
  lambda_seen_ = aws_.invocations().size();
  smtp_seen_ = smtp_ ? smtp_->messages().size() : 0;
  azure_seen_ = azure_.accepted().size();
  slack_seen_ = slack_.requests().size();
#if GANGLION_WITH_GRPC
  if (custom_) {
    custom_->fetches_seen = custom_->fetches();
    custom_->executes_seen = custom_->executes();
    custom_->policies_seen = custom_->policies();
  }
#endif
  nats_reader_.reset();
  if (yaml_at(tmpl, {"nats"}).IsMap())
    nats_reader_ = std::make_unique<nats_reader>(nats_.url(), text_at(tmpl, {"nats", "subject"}));
}

std::string trigger_world::check_effect(const std::string& sensor, const YAML::Node& tmpl,
                                        const std::string& type,
                                        const core::trigger_outcome& outcome) {
  auto trigger = text_at(tmpl, {"name"});
  if (type == "k8s" || type == "argoWorkflow") {
    auto op = text_at(tmpl, {type.c_str(), "operation"});
    bool labelled = op.empty() || op == (type == "k8s" ? "create" : "submit");
    return check_object(api_, sensor, trigger, labelled, outcome);
  }
  if (type == "http") {
    auto requests = http_.requests();
    if (requests.size() <= http_seen_)
      return "the HTTP server got no request";
    return requests.back().target == "/" + trigger
             ? ""
             : "the HTTP server got " + requests.back().target;
  }
  if (type == "slack") {
    auto requests = slack_.requests();
    if (requests.size() <= slack_seen_)
      return "the Slack API stand-in got no request";
    const auto& r = requests.back();
    return r.target == "/api/chat.postMessage" && r.body.find("channel=") != std::string::npos
             ? ""
             : "the Slack API stand-in got " + r.target + " " + r.body;
  }
  if (type == "nats")
    return nats_reader_ && !nats_reader_->next().empty() ? "" : "no NATS message arrived";
  if (type == "kafka") {
    auto topic = text_at(tmpl, {"kafka", "topic"});
    return kafka_ && !kafka_->consume_all(topic).empty() ? "" : "no Kafka record in " + topic;
  }
  if (type == "custom")
    return check_custom(trigger);
  if (type == "awsLambda") {
    auto calls = aws_.invocations();
    if (calls.size() <= lambda_seen_)
      return "the AWS endpoint got no Invoke";
    auto function = text_at(tmpl, {"awsLambda", "functionName"});
    return calls.back().function == function
             ? ""
             : "the AWS endpoint got an Invoke of " + calls.back().function;
  }
  if (type == "email") {
    auto messages = smtp_ ? smtp_->messages() : std::vector<smtp_message>{};
    if (messages.size() <= smtp_seen_)
      return "the SMTP server got no message";
    const auto& m = messages.back();
    return m.tls && m.login == smtp_user ? "" : "the message came without STARTTLS or AUTH";
  }
  if (type == "azureEventHubs" || type == "azureServiceBus") {
    auto accepted = azure_.accepted();
    auto refusals = azure_.refusals();
    if (accepted.size() <= azure_seen_)
      return "the Azure stand-in accepted no message"
             + (refusals.empty() ? std::string{} : " (last refusal: " + refusals.back() + ")");
    return accepted.back().body.empty() ? "the Azure stand-in got an empty message" : "";
  }
  return {}; // log: the outcome is the effect
}

std::string trigger_world::check_custom(const std::string& trigger) const {
#if GANGLION_WITH_GRPC
  if (!custom_)
    return "no custom trigger server";
  if (custom_->fetches() <= custom_->fetches_seen)
    return "the custom trigger server got no FetchResource";
  if (custom_->executes() <= custom_->executes_seen)
    return "the custom trigger server got no Execute";
  if (custom_->policies() <= custom_->policies_seen)
    return "the custom trigger server got no ApplyPolicy";
  const auto& expected = custom_->triggers.at(trigger);
  auto spec_text = custom_->last_fetch();
  while (!spec_text.empty() && spec_text.back() == '\n')
    spec_text.pop_back();
  YAML::Node spec;
  try {
    spec = YAML::Load(spec_text);
  } catch (const YAML::Exception& e) {
    return fmt::format("FetchResource got a spec that is not YAML ({}): {}", e.what(), spec_text);
  }
  for (const auto& [key, value] : expected.spec)
    if (text_at(spec, {key.c_str()}) != value)
      return fmt::format("FetchResource got the spec \"{}\", not {}: {}", spec_text, key, value);
  auto resource_text = custom_->last_execute();
  auto resource = json::parse(resource_text, nullptr, false);
  if (!resource.is_object() || resource.value("kind", "") != "PipelineRun")
    return "Execute got a resource that is not the fetched PipelineRun: " + resource_text;
  for (const auto& [path, value] : expected.resource) {
    const json* at = &resource;
    std::size_t begin = 0;
    while (at && begin <= path.size()) {
      auto end = std::min(path.find('.', begin), path.size());
      auto key = path.substr(begin, end - begin);
      at = at->is_object() && at->contains(key) ? &at->at(key) : nullptr;
      begin = end + 1;
    }
    if (!at || !at->is_string() || at->get<std::string>() != value)
      return fmt::format("Execute got the resource {}, not {}: {}", resource_text, path, value);
  }
  return {};
#else
  return "no custom trigger server (built without gRPC): " + trigger;
#endif
}

} // namespace ganglion::test::corpus
