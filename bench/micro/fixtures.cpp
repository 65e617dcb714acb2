// The shared fixtures of the micro benchmarks (see fixtures.hpp); nothing is measured here.

#include "fixtures.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <variant>

#include <unistd.h>

#include "ganglion/core/internal/event_view.hpp"
#include "ganglion/dsl/load.hpp"

namespace ganglion::bench {

namespace {

// GitHub pull_request and push, a GitLab merge request, a Stripe payment, a calendar tick, a
// MinIO S3 notification, an IoT reading and a GitHub workflow_run, as Argo's webhook source
// publishes them: {"header": <HTTP headers>, "body": <the request body>}.
const char* const payloads[] = {
  // github_pull_request: 1393 bytes
  R"json({"header":{"Accept":["*/*"],"Content-Type":["application/json"],"User-Agent":["GitHu)json"
  R"json(b-Hookshot/4e5a1b2"],"X-Github-Event":["pull_request"],"X-Github-Delivery":["72d3162)json"
  R"json(e-cc78-11e3-81ab-4c9367dc0958"],"X-Hub-Signature-256":["sha256=d57c68ca6f92289e69879)json"
  R"json(22ff26938930f6e66a2d161ef06abdf1859230aa23c"]},"body":{"action":"opened","number":13)json"
  R"json(47,"pull_request":{"id":1874512390,"number":1347,"state":"open","title":"Compile dat)json"
  R"json(a filters once per dependency","draft":false,"body":"Data filters compiled their pat)json"
  R"json(hs, regexes and templates on every event. This compiles them once when the sensor lo)json"
  R"json(ads and keeps one simdjson parser per sensor, so an event is parsed once whatever th)json"
  R"json(e number of filters.\n\nBenchmarks: bench/micro shows the per-event cost drop from 9)json"
  R"json(.1 us to 1.2 us on the webhook corpus.\n\nFixes #2981.","user":{"login":"octocat","i)json"
  R"json(d":583231},"head":{"ref":"filters-compiled","sha":"6dcb09b5b57875f334f61aebed695e2e4)json"
  R"json(193db5e"},"base":{"ref":"main","sha":"7638417db6d59f3c431d3e1f261cc637155684cd"},"ad)json"
  R"json(ditions":120,"deletions":38,"changed_files":7,"commits":3,"mergeable":true},"reposit)json"
  R"json(ory":{"id":1296269,"full_name":"argoproj/argo-events","private":false,"default_branc)json"
  R"json(h":"main","stargazers_count":2241},"labels":[{"id":208045946,"name":"enhancement","c)json"
  R"json(olor":"a2eeef"},{"id":208045947,"name":"performance","color":"d4c5f9"}],"sender":{"i)json"
  R"json(d":583231,"login":"octocat","site_admin":false}}})json",
  // github_push: 1056 bytes
  R"json({"header":{"Accept":["*/*"],"Content-Type":["application/json"],"User-Agent":["GitHu)json"
  R"json(b-Hookshot/4e5a1b2"],"X-Github-Event":["push"],"X-Github-Delivery":["9a1f4c2e-cc79-1)json"
  R"json(1e3-8a3b-0e2f3a7b9c10"]},"body":{"action":"push","ref":"refs/heads/main","before":"9)json"
  R"json(049f1265b7d61be4a8904a9a27120d2064dab3b","after":"0d1a26e67d8f5eaf1f6ba5c57fc3c7d91a)json"
  R"json(c0fd1c","commits":[{"id":"0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c","message":"Route)json"
  R"json( events through one index","timestamp":"2024-05-01T12:13:10Z","author":{"name":"Mona)json"
  R"json( Lisa","email":"mona@example.com"},"added":[],"modified":["actors/src/route_index.hp)json"
  R"json(p"]},{"id":"4b825dc642cb6eb9a060e54bf8d69288fbee4904","message":"Bench: dependency i)json"
  R"json(ndex","timestamp":"2024-05-01T12:12:44Z","author":{"name":"Mona Lisa","email":"mona@)json"
  R"json(example.com"},"added":["bench/micro/sensor_bench.cpp"],"modified":[]}],"repository":)json"
  R"json({"id":1296269,"full_name":"argoproj/argo-events","private":false},"pusher":{"name":")json"
  R"json(monalisa","email":"mona@example.com"},"labels":[{"id":1,"name":"main"}],"sender":{"i)json"
  R"json(d":4417,"login":"monalisa","site_admin":false}}})json",
  // gitlab_merge_request: 780 bytes
  R"json({"header":{"Accept":["*/*"],"Content-Type":["application/json"],"User-Agent":["GitLa)json"
  R"json(b/16.11.1"],"X-Gitlab-Event":["Merge Request Hook"],"X-Gitlab-Token":["s3cr3t"],"X-G)json"
  R"json(itlab-Instance":["https://gitlab.example.com"]},"body":{"object_kind":"merge_request)json"
  R"json(","event_type":"merge_request","action":"merge","project":{"id":15,"name":"ganglion")json"
  R"json(,"path_with_namespace":"platform/ganglion","default_branch":"main"},"object_attribut)json"
  R"json(es":{"id":99,"iid":12,"title":"Lua sandbox limits (per event)","state":"merged","sou)json"
  R"json(rce_branch":"lua-limits","target_branch":"main","merge_status":"can_be_merged","upda)json"
  R"json(ted_at":"2024-05-01 12:13:00 UTC"},"labels":[{"id":206,"name":"backend","color":"#42)json"
  R"json(8BCA"},{"id":207,"name":"ready","color":"#69D100"}],"sender":{"id":51,"login":"jsmit)json"
  R"json(h","site_admin":false}}})json",
  // stripe_payment: 661 bytes
  R"json({"header":{"Accept":["*/*"],"Content-Type":["application/json"],"User-Agent":["Strip)json"
  R"json(e/1.0 (+https://stripe.com/docs/webhooks)"],"Stripe-Signature":["t=1714565594,v1=525)json"
  R"json(7a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd"]},"body":{"id":"evt_1)json"
  R"json(PBXyZ2eZvKYlo2C","object":"event","action":"payment_intent.succeeded","api_version":)json"
  R"json("2024-04-10","created":1714565594,"livemode":false,"data":{"object":{"id":"pi_3PBXyZ)json"
  R"json(2eZvKYlo2C0","amount":2599,"amount_received":2599,"currency":"eur","customer":"cus_Q)json"
  R"json(1w2e3r4","payment_method_types":["card"],"status":"succeeded"}},"labels":[{"id":3,"n)json"
  R"json(ame":"payments"}],"sender":{"id":7,"login":"stripe","site_admin":false}}})json",
  // calendar_tick: 275 bytes
  R"json({"header":{"Accept":["*/*"],"Content-Type":["application/json"],"User-Agent":["gangl)json"
  R"json(ion-calendar/0.1"]},"body":{"action":"tick","eventTime":"2024-05-01 12:13:14.1234567)json"
  R"json(89 +0000 UTC","labels":[{"id":1,"name":"hourly"}],"sender":{"id":1,"login":"calendar)json"
  R"json(","site_admin":false}}})json",
  // minio_notification: 795 bytes
  R"json({"header":{"Accept":["*/*"],"Content-Type":["application/json"],"User-Agent":["MinIO)json"
  R"json( (linux; amd64) minio-go/v7.0.70"]},"body":{"action":"s3:ObjectCreated:Put","EventNa)json"
  R"json(me":"s3:ObjectCreated:Put","Key":"uploads/2024/05/01/report.csv","Records":[{"eventV)json"
  R"json(ersion":"2.0","eventSource":"minio:s3","awsRegion":"","eventTime":"2024-05-01T12:13:)json"
  R"json(14.120Z","eventName":"s3:ObjectCreated:Put","userIdentity":{"principalId":"minioadmi)json"
  R"json(n"},"requestParameters":{"sourceIPAddress":"10.0.3.17"},"s3":{"bucket":{"name":"uplo)json"
  R"json(ads","arn":"arn:aws:s3:::uploads"},"object":{"key":"2024%2F05%2F01%2Freport.csv","si)json"
  R"json(ze":48213,"eTag":"d41d8cd98f00b204e9800998ecf8427e","contentType":"text/csv","sequen)json"
  R"json(cer":"17CB0B5E1E6AA0B2"}}}],"labels":[{"id":9,"name":"ingest"}],"sender":{"id":2,"lo)json"
  R"json(gin":"minioadmin","site_admin":false}}})json",
  // iot_reading: 300 bytes
  R"json({"header":{"Accept":["*/*"],"Content-Type":["application/json"],"User-Agent":["esp-h)json"
  R"json(ttp-client/1.0"]},"body":{"action":"reading","device":"greenhouse-7","temperature":2)json"
  R"json(1.5,"humidity":0.63,"battery":87,"labels":[{"id":4,"name":"sensor"}],"sender":{"id":)json"
  R"json(707,"login":"greenhouse-7","site_admin":false}}})json",
  // github_workflow_run: 778 bytes
  R"json({"header":{"Accept":["*/*"],"Content-Type":["application/json"],"User-Agent":["GitHu)json"
  R"json(b-Hookshot/4e5a1b2"],"X-Github-Event":["workflow_run"],"X-Github-Delivery":["d7a3c0f)json"
  R"json(2-cc7a-11e3-9f6e-2a1b3c4d5e6f"]},"body":{"action":"completed","workflow_run":{"id":9)json"
  R"json(012345678,"name":"CI","head_branch":"main","head_sha":"0d1a26e67d8f5eaf1f6ba5c57fc3c)json"
  R"json(7d91ac0fd1c","run_number":881,"event":"push","status":"completed","conclusion":"succ)json"
  R"json(ess","run_attempt":1,"run_started_at":"2024-05-01T12:01:02Z","updated_at":"2024-05-0)json"
  R"json(1T12:13:09Z"},"workflow":{"id":161335,"name":"CI","path":".github/workflows/ci.yml",)json"
  R"json("state":"active"},"repository":{"id":1296269,"full_name":"argoproj/argo-events","pri)json"
  R"json(vate":false},"labels":[{"id":5,"name":"ci"}],"sender":{"id":583231,"login":"octocat")json"
  R"json(,"site_admin":false}}})json",
};

} // namespace

const std::vector<std::string>& corpus_data() {
  static const std::vector<std::string> data(std::begin(payloads), std::end(payloads));
  return data;
}

core::event_ptr corpus_event(std::size_t index, std::string subject) {
  const auto& data = corpus_data();
  auto e = std::make_shared<core::event>();
  e->id = core::new_event_id();
  e->source = std::string(corpus_source);
  e->type = "webhook";
  e->subject = std::move(subject);
  e->time = std::string(corpus_time);
  e->datacontenttype = "application/json";
  e->data = data[index % data.size()];
  return e;
}

const std::vector<core::event_ptr>& corpus_events() {
  static const std::vector<core::event_ptr> events = [] {
    std::vector<core::event_ptr> out;
    for (std::size_t i = 0; i < corpus_data().size(); ++i)
      out.push_back(corpus_event(i, std::string(corpus_event_name)));
    return out;
  }();
  return events;
}

std::int64_t corpus_bytes(std::int64_t count) {
  const auto& data = corpus_data();
  auto n = static_cast<std::int64_t>(data.size());
  std::int64_t pass = 0;
  for (const auto& d : data)
    pass += static_cast<std::int64_t>(d.size());
  std::int64_t bytes = count / n * pass;
  for (std::int64_t i = 0; i < count % n; ++i)
    bytes += static_cast<std::int64_t>(data[i].size());
  return bytes;
}

parsed_corpus::parsed_corpus() {
  for (const auto& e : corpus_events()) {
    auto& parser = *parsers_.emplace_back(std::make_unique<simdjson::dom::parser>());
    auto view = core::context_view(*e);
    if (parser.parse(e->data).get(view.data))
      throw std::runtime_error("a corpus payload is not valid JSON");
    view.data_is_json = true;
    views_.push_back(view);
  }
}

std::string sensor_yaml(std::string_view name, std::string_view event_name, bool with_filters) {
  std::string yaml = R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: )";
  yaml += name;
  yaml += R"(
spec:
  dependencies:
    - name: payload
      eventSourceName: )";
  yaml += corpus_source;
  yaml += R"(
      eventName: )";
  yaml += event_name;
  if (with_filters) {
    yaml += R"(
      filters:
        data:
          - path: body.action
            type: string
            value:
              - ")";
    yaml += pipeline_action_regex;
    yaml += R"("
          - path: body.sender.id
            type: number
            comparator: ">"
            value:
              - "0"
          - path: body.sender.site_admin
            type: bool
            value:
              - "false"
        exprs:
          - expr: id > 0 && label != "wontfix"
            fields:
              - name: id
                path: body.sender.id
              - name: label
                path: body.labels.0.name)";
  }
  yaml += R"(
  triggers:
    - template:
        name: fire
        log: {}
)";
  return yaml;
}

dsl::sensor load_sensor(const std::string& yaml) {
  auto loaded = dsl::load_manifest_text(yaml, "bench-sensor.yaml");
  std::string problems;
  for (const auto& d : loaded.diagnostics)
    problems += d.to_string() + "\n";
  if (!problems.empty() || loaded.documents.size() != 1
      || !std::holds_alternative<dsl::sensor>(loaded.documents.front().body))
    throw std::runtime_error("the benchmark sensor does not load:\n" + problems);
  return std::get<dsl::sensor>(loaded.documents.front().body);
}

const dsl::dependency_filter& pipeline_filters() {
  static const dsl::sensor sensor = load_sensor(sensor_yaml("filters", corpus_event_name, true));
  return *sensor.spec.dependencies.front().filters;
}

std::int64_t rss_kb() {
  std::ifstream statm("/proc/self/statm");
  std::int64_t size = 0;
  std::int64_t resident = 0;
  statm >> size >> resident;
  return resident * ::sysconf(_SC_PAGESIZE) / 1024;
}

} // namespace ganglion::bench
