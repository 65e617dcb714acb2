#pragma once

// Private: one gRPC channel to one server, as the generic source and the custom trigger make
// them.

#include <cstddef>
#include <memory>
#include <string>

#include <grpcpp/channel.h>

namespace ganglion::grpc::detail {

/// How to reach one server.
struct channel_settings {
  std::string target;    ///< gRPC target: one address (`ipv4:…`) or a name
  std::string authority; ///< `:authority` of calls (`host:port` of the url); empty: the target's
  bool tls = false;
  std::string root_pem;    ///< CAs that verify the server; empty: the system's
  std::string server_name; ///< name the certificate must carry; empty: the authority's host
  std::size_t max_receive_bytes = 4 * 1024 * 1024;
  /// A fresh connection of its own (not shared with other channels to the same target).
  bool own_connection = true;
};

/// A channel for `settings`; it connects on first use.
std::shared_ptr<::grpc::Channel> make_channel(const channel_settings& settings);

/// The PEM text of file `path`; throws std::runtime_error when it cannot be read.
std::string read_pem_file(const std::string& path);

} // namespace ganglion::grpc::detail
