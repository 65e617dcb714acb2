#include "pubsub_emulator.hpp"

#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "http_request.hpp"
#include "http_sink.hpp"
#include "kube/text.hpp"
#include "server_process.hpp"

namespace ganglion::test {

namespace {

constexpr const char* script_in_sdk = "platform/pubsub-emulator/bin/cloud-pubsub-emulator";

} // namespace

std::string pubsub_emulator_script(std::string& why) {
  std::error_code ec;
  for (const char* root : {"/usr/lib/google-cloud-sdk", "/usr/share/google-cloud-sdk"}) {
    auto path = std::filesystem::path{root} / script_in_sdk;
    if (std::filesystem::exists(path, ec))
      return path.string();
  }
  why = "the Pub/Sub emulator is not installed (gcloud's pubsub-emulator component, Debian "
        "package google-cloud-cli-pubsub-emulator)";
  return {};
}

pubsub_emulator::pubsub_emulator() : port_(free_port()) {
  std::string why;
  auto script = pubsub_emulator_script(why);
  if (script.empty())
    throw std::runtime_error(why);
  process_ = std::make_unique<child_process>(
    std::vector<std::string>{script, "--host=127.0.0.1", "--port=" + std::to_string(port_)});
  wait_until_accepting(*process_, std::vector<std::uint16_t>{port_}, "pubsub emulator",
                       std::chrono::seconds(60));
}

pubsub_emulator::~pubsub_emulator() {
  stop();
}

std::string pubsub_emulator::host() const {
  return "127.0.0.1:" + std::to_string(port_);
}

void pubsub_emulator::stop() {
  stop_server_process(process_);
}

std::string pubsub_emulator::call(const std::string& method, const std::string& path,
                                  const std::string& body, long* status) {
  auto r =
    http_request(method, "http://" + host() + path, body, {"Content-Type: application/json"});
  if (status) {
    *status = r.status;
    return r.body;
  }
  if (r.status != 200)
    throw std::runtime_error(method + " " + path + ": " + std::to_string(r.status) + " " + r.body
                             + r.error);
  return r.body;
}

void pubsub_emulator::create_topic(const std::string& project, const std::string& topic) {
  call("PUT", "/v1/projects/" + project + "/topics/" + topic, "{}");
}

void pubsub_emulator::create_subscription(const std::string& project, const std::string& sub,
                                          const std::string& topic_name) {
  call("PUT", "/v1/projects/" + project + "/subscriptions/" + sub,
       nlohmann::json{{"topic", topic_name}}.dump());
}

std::optional<std::string> pubsub_emulator::subscription_topic(const std::string& project,
                                                               const std::string& sub) {
  long status = 0;
  auto body = call("GET", "/v1/projects/" + project + "/subscriptions/" + sub, {}, &status);
  if (status == 404)
    return std::nullopt;
  if (status != 200)
    throw std::runtime_error("GET subscription " + sub + ": " + std::to_string(status));
  return nlohmann::json::parse(body).value("topic", "");
}

std::string pubsub_emulator::publish(const std::string& project, const std::string& topic,
                                     const std::string& data,
                                     const std::map<std::string, std::string>& attributes) {
  nlohmann::json message{{"data", kube::base64_encode(data)}};
  if (!attributes.empty())
    message["attributes"] = attributes;
  auto body = call("POST", "/v1/projects/" + project + "/topics/" + topic + ":publish",
                   nlohmann::json{{"messages", {message}}}.dump());
  return nlohmann::json::parse(body).at("messageIds").at(0).get<std::string>();
}

std::vector<pulled_message> pubsub_emulator::pull_now(const std::string& project,
                                                      const std::string& sub) {
  auto body = call("POST", "/v1/projects/" + project + "/subscriptions/" + sub + ":pull",
                   R"({"maxMessages":100,"returnImmediately":true})");
  std::vector<pulled_message> out;
  auto j = nlohmann::json::parse(body);
  for (const auto& r : j.value("receivedMessages", nlohmann::json::array())) {
    const auto& m = r.at("message");
    bool ok = true;
    pulled_message p{r.value("ackId", ""),
                     m.value("messageId", ""),
                     kube::base64_decode(m.value("data", ""), ok),
                     {}};
    for (const auto& [k, v] : m.value("attributes", nlohmann::json::object()).items())
      p.attributes[k] = v.get<std::string>();
    out.push_back(std::move(p));
  }
  return out;
}

} // namespace ganglion::test
