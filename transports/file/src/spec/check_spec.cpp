#include <array>
#include <string_view>

#include <re2/re2.h>

#include "ganglion/dsl/duration.hpp"
#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::file::detail {

using namespace dsl::detail;

namespace {

/// WatchPathConfig.Validate (the messages dsl's interim rule gave it).
void check_watch_path(const watch_path_config& w, const std::string& path,
                      const load_context& cx) {
  auto at = child_path(path, "watchPathConfig");
  if (require(w.directory, child_path(at, "directory"), "directory", cx)
      && w.directory.front() != '/')
    cx.error(child_path(at, "directory"), "directory must be an absolute path");
  if (w.path.empty() && w.path_regexp.empty())
    cx.error(at, "watchPathConfig needs path or pathRegexp");
  if (!w.path.empty() && !w.path_regexp.empty())
    cx.error(at, "watchPathConfig takes path or pathRegexp, not both");
  if (!w.path.empty() && w.path.front() == '/')
    cx.error(child_path(at, "path"), "path must be relative to directory");
  if (!w.path_regexp.empty()) {
    RE2 re{w.path_regexp, RE2::Quiet};
    if (!re.ok())
      cx.error(child_path(at, "pathRegexp"), "invalid regular expression: " + re.error());
  }
}

/// Argo compares eventType with the operation's name: another value never fires.
template <std::size_t N>
void check_event_type(const std::string& type, const std::array<std::string_view, N>& fired,
                      const std::string& path, const load_context& cx) {
  auto at = child_path(path, "eventType");
  if (!require(type, at, "eventType", cx))
    return;
  for (auto name : fired)
    if (type == name)
      return;
  std::string names;
  for (auto name : fired)
    names += (names.empty() ? "" : ", ") + std::string{name};
  cx.warning(at, "eventType \"" + type + "\" never fires: the events are " + names);
}

} // namespace

void check_event(const event_spec& spec, const dsl::spec_check_input& in) {
  static constexpr std::array<std::string_view, 5> ops{"CREATE", "WRITE", "REMOVE", "RENAME",
                                                       "CHMOD"};
  check_event_type(spec.event_type, ops, in.path, in.cx);
  check_watch_path(spec.watch_path, in.path, in.cx);
  const auto& w = spec.watch_path;
  // Argo matches `path` against the event's name with the directory cut off as written:
  // inotify names are <directory without trailing slash>/<name>.
  if (!spec.polling && !w.path.empty() && !w.directory.empty() && w.directory.back() != '/')
    in.cx.warning(child_path(child_path(in.path, "watchPathConfig"), "directory"),
                  "directory has no trailing slash: Argo compares path with \"/" + w.path
                    + "\", so path \"" + w.path + "\" never matches; write \"" + w.directory
                    + "/\"");
}

void check_sftp_event(const sftp_event_spec& spec, const dsl::spec_check_input& in) {
  static constexpr std::array<std::string_view, 2> ops{"CREATE", "REMOVE"};
  const auto& cx = in.cx;
  auto at = [&](const char* key) { return child_path(in.path, key); };
  check_event_type(spec.event_type, ops, in.path, cx);
  check_watch_path(spec.watch_path, in.path, cx);
  if (!spec.username)
    cx.error(at("username"), "username is required");
  if (!spec.address)
    cx.error(at("address"), "address is required");
  if (!spec.password && !spec.ssh_key_secret)
    cx.error(in.path, "an sftp event needs password or sshKeySecret");
  if (spec.password && spec.ssh_key_secret)
    cx.warning(at("password"), "ignored: sshKeySecret is given, and Argo then uses the key");
  check_secret(spec.username, at("username"), cx);
  check_secret(spec.password, at("password"), cx);
  check_secret(spec.ssh_key_secret, at("sshKeySecret"), cx);
  check_secret(spec.address, at("address"), cx);
  const auto& interval = spec.poll_interval_duration;
  if (!interval.empty()) {
    auto ns = dsl::parse_go_duration(interval);
    if (!ns)
      cx.error(at("pollIntervalDuration"), "invalid duration \"" + interval + "\"");
    else if (*ns <= 0)
      cx.error(at("pollIntervalDuration"), "pollIntervalDuration must be positive");
  }
}

} // namespace ganglion::file::detail
