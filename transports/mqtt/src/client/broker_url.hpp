#pragma once

// Private: the broker address of `spec.mqtt.<event>.url`, read as paho (Argo's client) reads
// it, limited to what libmosquitto can connect to.

#include <optional>
#include <string>
#include <string_view>

namespace ganglion::mqtt {

/// Where to connect: a TCP host and port, with TLS or without.
struct broker_address {
  std::string scheme; ///< as written, lowercased (`tcp` when the url had none)
  std::string host;   ///< a name or an IP address, without IPv6 brackets
  int port = 0;
  bool tls = false;   ///< ssl, tls, mqtts, mqtt+ssl and tcps
  bool has_user_info = false; ///< `user:pass@` before the host (paho does not use it)
};

/// Parses `url` as paho does (`host:port` alone means `tcp://host:port`). Schemes: tcp and
/// mqtt (plain), ssl, tls, mqtts, mqtt+ssl and tcps (TLS); ws, wss and unix, which paho also
/// takes, are refused (libmosquitto has no WebSocket or socket-path client here). The port is
/// required (paho dials `host:port` as written). nullopt with `error` set when it cannot run.
std::optional<broker_address> parse_broker_url(std::string_view url, std::string& error);

} // namespace ganglion::mqtt
