#include "client/channel.hpp"

#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include <grpc/support/log.h>
#include <spdlog/spdlog.h>

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/channel_arguments.h>

namespace ganglion::grpc::detail {

namespace {

/// gRPC's own log lines (a failed TLS handshake says why here) go to the engine's log.
void forward_log(gpr_log_func_args* args) {
  if (args->severity == GPR_LOG_SEVERITY_ERROR)
    spdlog::warn("grpc: {}", args->message);
  else
    spdlog::debug("grpc: {}", args->message);
}

} // namespace

std::shared_ptr<::grpc::Channel> make_channel(const channel_settings& settings) {
  static std::once_flag log_forwarded;
  std::call_once(log_forwarded, [] { gpr_set_log_function(forward_log); });
  ::grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(static_cast<int>(settings.max_receive_bytes));
  if (!settings.authority.empty())
    args.SetString(GRPC_ARG_DEFAULT_AUTHORITY, settings.authority);
  if (settings.own_connection)
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  // Within one connection attempt, a refused connection is tried again soon.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 200);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  // A peer that vanished without closing the connection is noticed while the stream is idle;
  // 5 minutes is what gRPC servers accept by default (more often they answer "too many pings").
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 300000);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 20000);
  std::shared_ptr<::grpc::ChannelCredentials> credentials;
  if (settings.tls) {
    ::grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = settings.root_pem;
    credentials = ::grpc::SslCredentials(ssl);
    if (!settings.server_name.empty())
      args.SetSslTargetNameOverride(settings.server_name);
  } else {
    credentials = ::grpc::InsecureChannelCredentials();
  }
  return ::grpc::CreateCustomChannel(settings.target, credentials, args);
}

std::string read_pem_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace ganglion::grpc::detail
