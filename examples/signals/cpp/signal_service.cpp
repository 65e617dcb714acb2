// A signal service: a gRPC server implementing `generic.Eventing` (transports/grpc/proto/
// generic.proto). Every StartEventSource call gets its own stream of numbered JSON events.
// Copy it and replace `next_payload` with your own source of events. Flags: see usage().

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include <grpcpp/grpcpp.h>

#include "proto/generic.grpc.pb.h"

namespace {

/// The command line (the same contract as python/signal_service.py).
struct settings {
  std::string listen = "127.0.0.1:9000";
  std::string token, tls_cert, tls_key, replica;
  long interval_ms = 1000, count = 0;
};

/// Set when SIGTERM or SIGINT arrived: open streams end.
std::atomic<bool> stopping{false};

/// `text` as a JSON string literal.
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\u%04x", c);
          out += hex;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

/// Compares in a time that depends on the length only, not on where the texts differ.
bool same_secret(const std::string& a, const std::string& b) {
  if (a.size() != b.size())
    return false; // the length is no secret
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

/// The service: numbered events for every stream, until the client cancels or we stop.
class eventing final : public generic::Eventing::Service {
public:
  /// Serves as `s` says; the port is the one of `s.listen` until set_port.
  explicit eventing(settings s) : s_(std::move(s)) {
    set_port(std::atoi(s_.listen.substr(s_.listen.rfind(':') + 1).c_str()));
  }

  /// The port the server listens on, for the default replica name HOST:PORT.
  void set_port(int port) { port_ = port; }

  /// One stream: events every --interval-ms, --count of them (0: no end).
  ::grpc::Status StartEventSource(::grpc::ServerContext* ctx, const generic::EventSource* source,
                                  ::grpc::ServerWriter<generic::Event>* writer) override {
    if (!s_.token.empty() && !authorized(*ctx)) {
      std::cerr << "stream refused: " << source->name() << ": invalid bearer token" << std::endl;
      return {::grpc::StatusCode::UNAUTHENTICATED, "invalid bearer token"};
    }
    std::cerr << "stream started: " << source->name() << " (" << ctx->peer() << ")" << std::endl;
    long seq = 0;
    while (!ended(*ctx)) {
      if (s_.count != 0 && seq >= s_.count) {
        pause(*ctx, 100); // after the last event the stream stays open, idle, until cancelled
        continue;
      }
      generic::Event event;
      event.set_name(source->name());
      event.set_payload(next_payload(++seq, *source));
      if (!writer->Write(event))
        break; // the client is gone
      pause(*ctx, s_.interval_ms);
    }
    std::cerr << "stream ended: " << source->name() << " after " << seq << " events ("
              << (stopping ? "shutting down" : "cancelled by the client") << ")" << std::endl;
    return ::grpc::Status::OK;
  }

private:
  /// Your event source goes here: the payload of event number `seq`.
  std::string next_payload(long seq, const generic::EventSource& source) const {
    return "{\"seq\":" + std::to_string(seq) + ",\"source\":" + json_string(source.name())
           + ",\"config\":" + json_string(source.config())
           + ",\"replica\":" + json_string(replica()) + "}";
  }

  /// --replica-name, or HOST:PORT of the listening address.
  std::string replica() const {
    if (!s_.replica.empty())
      return s_.replica;
    return s_.listen.substr(0, s_.listen.rfind(':') + 1) + std::to_string(port_.load());
  }

  /// True when the call carries `authorization: Bearer <--token>`.
  bool authorized(const ::grpc::ServerContext& ctx) const {
    auto it = ctx.client_metadata().find("authorization");
    if (it == ctx.client_metadata().end())
      return false;
    return same_secret(std::string(it->second.data(), it->second.size()), "Bearer " + s_.token);
  }

  /// True once the client cancelled the call or the server is stopping.
  static bool ended(::grpc::ServerContext& ctx) { return stopping || ctx.IsCancelled(); }

  /// Sleeps `ms`, waking every 50 ms to notice a cancelled call.
  static void pause(::grpc::ServerContext& ctx, long ms) {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!ended(ctx) && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        std::chrono::milliseconds(50), until - std::chrono::steady_clock::now()));
  }

  settings s_;
  std::atomic<int> port_{0};
};

/// The content of the file at `path`; throws when it cannot be read.
std::string read_file(const std::string& path) {
  std::ifstream in{path};
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Prints `error` and the usage to stderr; the exit code of a bad command line.
int usage(const std::string& error) {
  std::cerr << "signal_service: " << error << "\n"
            << "usage: signal_service [--listen HOST:PORT] [--token TOKEN] [--tls-cert FILE "
               "--tls-key FILE] [--interval-ms N] [--count N] [--replica-name NAME]\n";
  return 2;
}

} // namespace

/// Serves until SIGTERM or SIGINT; prints `listening on HOST:PORT` once it accepts calls.
int main(int argc, char** argv) {
  settings s;
  const std::map<std::string, std::string*> texts{{"--listen", &s.listen},
                                                  {"--token", &s.token},
                                                  {"--tls-cert", &s.tls_cert},
                                                  {"--tls-key", &s.tls_key},
                                                  {"--replica-name", &s.replica}};
  const std::map<std::string, long*> numbers{{"--interval-ms", &s.interval_ms},
                                             {"--count", &s.count}};
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      usage("a generic.Eventing service for ganglion's generic event source");
      return 0;
    }
    if (!texts.count(flag) && !numbers.count(flag))
      return usage("unknown flag " + flag);
    if (i + 1 >= argc)
      return usage(flag + " needs a value");
    std::string value = argv[++i];
    if (texts.count(flag)) {
      *texts.at(flag) = value;
      continue;
    }
    char* end = nullptr;
    *numbers.at(flag) = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0')
      return usage(flag + " takes a number, got '" + value + "'");
  }
  if (s.interval_ms < 0 || s.count < 0)
    return usage("--interval-ms and --count must not be negative");
  if (s.tls_cert.empty() != s.tls_key.empty())
    return usage("--tls-cert and --tls-key go together");
  auto colon = s.listen.rfind(':');
  if (colon == std::string::npos)
    return usage("--listen wants HOST:PORT, got " + s.listen);

  // Signals are taken by sigwait below, not by a handler: block them before threads start.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  std::shared_ptr<::grpc::ServerCredentials> credentials = ::grpc::InsecureServerCredentials();
  if (!s.tls_cert.empty()) {
    ::grpc::SslServerCredentialsOptions tls;
    try {
      tls.pem_key_cert_pairs.push_back({read_file(s.tls_key), read_file(s.tls_cert)});
    } catch (const std::exception& e) {
      return usage(e.what());
    }
    credentials = ::grpc::SslServerCredentials(tls);
  }
  eventing service{s};
  int port = 0;
  ::grpc::ServerBuilder builder;
  builder.AddListeningPort(s.listen, credentials, &port);
  builder.RegisterService(&service);
  // The engine pings every 10 s to notice a dead connection; allow it on idle streams.
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 5000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 0);
  // A port in use is an error, not shared with the server already there.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  auto server = builder.BuildAndStart();
  if (!server || port == 0) {
    std::cerr << "signal_service: cannot listen on " << s.listen << " (in use, or not local)"
              << std::endl;
    return 1;
  }
  service.set_port(port);

  std::cout << "listening on " << s.listen.substr(0, colon) << ":" << port << std::endl;
  int received = 0;
  sigwait(&signals, &received);
  stopping = true;
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  return 0;
}
