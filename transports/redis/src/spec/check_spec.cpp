#include "client/address.hpp"
#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::redis::detail {

using namespace dsl::detail;

namespace {

/// What both kinds check: the address, db, the password secret, username and TLS.
void check_server(const server_spec& s, const std::string& at, const load_context& cx) {
  auto address = child_path(at, "hostAddress");
  if (require(s.host_address, address, "hostAddress", cx)) {
    std::string error;
    if (!split_host_address(s.host_address, error))
      cx.error(address, error); // *ganglion*: Argo fails when it dials
  }
  if (s.db < 0)
    cx.error(child_path(at, "db"), "db must not be negative"); // *ganglion*
  check_secret(s.password, child_path(at, "password"), cx);
  if (!s.username.empty() && !s.password)
    cx.warning(child_path(at, "username"),
               "ignored: username is sent only with a password (AUTH username password), as "
               "Argo's client does");
  check_tls(s.tls, child_path(at, "tls"), cx);
}

/// Argo requires the list (`nil` is an error); ganglion also refuses an empty one, which would
/// listen to nothing.
void check_list(const std::vector<std::string>& list, const std::string& at,
                std::string_view key, std::string_view what, const load_context& cx) {
  auto path = child_path(at, std::string{key});
  if (!present(cx, path))
    cx.error(path, std::string{key} + " is required");
  else if (list.empty())
    cx.error(path, std::string{key} + " must name at least one " + std::string{what});
}

} // namespace

void check_event(const event_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  check_server(s, at, cx);
  check_list(s.channels, at, "channels", "channel", cx);
  if (s.password && s.namespace_name.empty())
    cx.error(child_path(at, "namespace"), "namespace is required to read the password secret");
}

void check_stream(const stream_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  check_server(s, at, cx);
  check_list(s.streams, at, "streams", "stream", cx);
  for (std::size_t i = 0; i < s.streams.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (s.streams[i] == s.streams[j]) { // *ganglion*: one XREADGROUP reads each stream once
        cx.error(child_path(at, "streams"), "stream \"" + s.streams[i] + "\" is listed twice");
        break;
      }
  if (s.max_msg_count_per_read < 0)
    cx.error(child_path(at, "maxMsgCountPerRead"),
             "maxMsgCountPerRead must not be negative (0 or absent: 10)"); // *ganglion*
}

} // namespace ganglion::redis::detail
