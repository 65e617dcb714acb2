#include "validate/validate_sources.hpp"

#include <functional>
#include <map>

#include <re2/re2.h>

#include "ganglion/dsl/duration.hpp"
#include "ganglion/dsl/kind/json_rules.hpp"

namespace ganglion::dsl::detail {

namespace {

using json = nlohmann::json;

void check_tls(const json& spec, const std::string& path, const load_context& cx) {
  if (!has(spec, "tls"))
    return;
  const auto& tls = spec["tls"];
  auto at = child_path(path, "tls");
  bool ca = has(tls, "caCertSecret");
  bool cert = has(tls, "clientCertSecret");
  bool key = has(tls, "clientKeySecret");
  bool enabled = has(tls, "enabled") && tls["enabled"] == true;
  if (!ca && !cert && !key && !enabled)
    cx.error(at, "tls needs caCertSecret, clientCertSecret and clientKeySecret, or enabled: true");
  if (cert != key)
    cx.error(at, "tls needs both clientCertSecret and clientKeySecret");
}

void check_duration(const json& spec, const char* key, const std::string& path,
                    const load_context& cx) {
  auto value = text(spec, key);
  if (!value.empty() && !parse_go_duration(value))
    cx.error(child_path(path, key), "invalid duration \"" + value + "\"");
}

// WatchPathConfig.Validate, inline (hdfs; file and sftp check theirs in transports/file).
void check_watch_path(const json& spec, const std::string& path, bool is_inline,
                      const load_context& cx) {
  static const json none = json::object();
  auto at = is_inline ? path : child_path(path, "watchPathConfig");
  const json& w = is_inline ? spec : has(spec, "watchPathConfig") ? spec["watchPathConfig"] : none;
  auto directory = text(w, "directory");
  auto file = text(w, "path");
  auto pattern = text(w, "pathRegexp");
  if (required(w, "directory", at, cx) && directory.front() != '/')
    cx.error(child_path(at, "directory"), "directory must be an absolute path");
  if (file.empty() && pattern.empty())
    cx.error(at, "watchPathConfig needs path or pathRegexp");
  if (!file.empty() && !pattern.empty())
    cx.error(at, "watchPathConfig takes path or pathRegexp, not both");
  if (!file.empty() && file.front() == '/')
    cx.error(child_path(at, "path"), "path must be relative to directory");
  if (!pattern.empty()) {
    RE2 re{pattern, RE2::Quiet};
    if (!re.ok())
      cx.error(child_path(at, "pathRegexp"), "invalid regular expression: " + re.error());
  }
}

using rule = std::function<void(const json&, const std::string&, const load_context&)>;

const std::map<std::string, rule, std::less<>>& rules() {
  static const std::map<std::string, rule, std::less<>> table{
    {"mns",
     [](const json& s, const std::string& p, const load_context& cx) {
       required(s, "queue", p, cx);
       required(s, "endpoint", p, cx);
     }},
    {"emitter",
     [](const json& s, const std::string& p, const load_context& cx) {
       required(s, "broker", p, cx);
       required(s, "channelName", p, cx);
       required(s, "channelKey", p, cx);
       check_tls(s, p, cx);
     }},
    {"hdfs",
     [](const json& s, const std::string& p, const load_context& cx) {
       auto type = text(s, "type");
       if (required(s, "type", p, cx) && type != "CREATE" && type != "CLOSE" && type != "APPEND"
           && type != "RENAME" && type != "METADATA" && type != "UNLINK"
           && type != "TRUNCATE")
         cx.error(child_path(p, "type"), "unknown HDFS event type \"" + type + "\"");
       check_duration(s, "checkInterval", p, cx);
       check_watch_path(s, p, true, cx);
       if (!has(s, "addresses") || s["addresses"].empty())
         cx.error(child_path(p, "addresses"), "addresses must not be empty");
       bool ccache = has(s, "krbCCacheSecret");
       bool keytab = has(s, "krbKeytabSecret");
       if (text(s, "hdfsUser").empty() && !ccache && !keytab)
         cx.error(p, "an hdfs event needs hdfsUser, krbCCacheSecret or krbKeytabSecret");
       if (keytab && (text(s, "krbServicePrincipalName").empty() || !has(s, "krbConfigConfigMap")
                      || text(s, "krbUsername").empty() || text(s, "krbRealm").empty()))
         cx.error(p, "krbKeytabSecret needs krbServicePrincipalName, krbConfigConfigMap, "
                     "krbUsername and krbRealm");
       if (ccache && (text(s, "krbServicePrincipalName").empty() || !has(s, "krbConfigConfigMap")))
         cx.error(p, "krbCCacheSecret needs krbServicePrincipalName and krbConfigConfigMap");
     }},
    {"nsq",
     [](const json& s, const std::string& p, const load_context& cx) {
       required(s, "hostAddress", p, cx);
       required(s, "topic", p, cx);
       required(s, "channel", p, cx);
       check_tls(s, p, cx);
     }},
  };
  return table;
}

} // namespace

void validate_unmodelled_source(const source_event& event, const std::string& path,
                                const load_context& cx) {
  auto spec = json::parse(event.json, nullptr, false);
  if (spec.is_discarded() || !spec.is_object())
    return;
  auto rule = rules().find(event.type);
  if (rule != rules().end())
    rule->second(spec, path, cx);
}

} // namespace ganglion::dsl::detail
