#include "bus/jetstream_stream.hpp"

#include <sstream>
#include <stdexcept>

#include <spdlog/spdlog.h>

namespace ganglion::nats {

namespace {

jsRetentionPolicy retention_of(const std::string& name) {
  if (name == "interest")
    return js_InterestPolicy;
  if (name == "workqueue")
    return js_WorkQueuePolicy;
  return js_LimitsPolicy;
}

std::string trimmed(std::string text) {
  auto first = text.find_first_not_of(" \t\r\"'");
  auto last = text.find_last_not_of(" \t\r\"'");
  return first == std::string::npos ? std::string{} : text.substr(first, last - first + 1);
}

} // namespace

void ensure_stream(jsCtx* js, const bus_spec& spec) {
  const auto& settings = spec.stream;
  std::string subjects = spec.stream_name + ".*.*";
  const char* subject_list[] = {subjects.c_str()};
  jsStreamConfig config;
  jsStreamConfig_Init(&config);
  config.Name = spec.stream_name.c_str();
  config.Subjects = subject_list;
  config.SubjectsLen = 1;
  config.Storage = js_FileStorage;
  config.Retention = retention_of(settings.retention);
  config.Discard = settings.discard == "old" ? js_DiscardOld : js_DiscardNew;
  config.MaxMsgs = settings.max_msgs;
  config.MaxBytes = settings.max_bytes;
  config.MaxAge = settings.max_age_ns;
  config.Duplicates = settings.duplicates_ns;
  config.Replicas = settings.replicas;
  jsStreamInfo* info = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  auto s = js_GetStreamInfo(&info, js, config.Name, nullptr, &code);
  if (s == NATS_OK) {
    jsStreamInfo_Destroy(info);
    info = nullptr;
    s = js_UpdateStream(&info, js, &config, nullptr, &code);
  } else if (s == NATS_NOT_FOUND || code == JSStreamNotFoundErr) {
    s = js_AddStream(&info, js, &config, nullptr, &code);
  }
  if (s != NATS_OK)
    throw std::runtime_error("cannot create or update the JetStream stream " + spec.stream_name
                             + ": " + status_text(s)
                             + (code ? " (JetStream error " + std::to_string(code) + ")" : ""));
  jsStreamInfo_Destroy(info);
  if (settings.discard == "old" && settings.retention == "limits"
      && (settings.max_msgs > 0 || settings.max_bytes > 0))
    spdlog::warn("JetStream stream {}: discard old with limits drops the oldest events when "
                 "full, even those a sensor has not read yet",
                 spec.stream_name);
}

credentials parse_access_secret(const dsl::secret_key_selector& secret,
                                const core::secret_store* secrets) {
  std::string error;
  auto text = secrets ? secrets->read(secret.name, secret.key, &error) : std::nullopt;
  if (!text)
    throw connection_error("spec.jetstreamExotic.accessSecret: cannot read secret " + secret.name
                           + "/" + secret.key + (error.empty() ? "" : ": " + error));
  std::string username, password, token;
  std::istringstream lines{*text};
  for (std::string line; std::getline(lines, line);) {
    auto colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    auto key = trimmed(line.substr(0, colon));
    auto value = trimmed(line.substr(colon + 1));
    if (key == "username")
      username = value;
    else if (key == "password")
      password = value;
    else if (key == "token")
      token = value;
  }
  credentials out;
  if (!username.empty())
    out.user_password = std::pair{username, password};
  else if (!token.empty())
    out.token = token;
  else
    out.token = trimmed(*text);
  return out;
}

} // namespace ganglion::nats
