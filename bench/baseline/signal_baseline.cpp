// ganglion-signal-baseline: the raw figure the bench's generic source step is divided by. A
// plain gRPC sync client (the Debian grpc++, as the engine uses) connects to a signal service
// (`generic.Eventing`, transports/grpc/proto/generic.proto), opens one StartEventSource stream
// and reads `--count` events, doing nothing with them but counting, then cancels the stream.
// Prints one JSON line:
// {"events", "seconds", "events_per_s", "seconds_from_call", "events_per_s_from_call",
//  "first_event_ms", "last_seq"}
// where seconds / events_per_s run from the first event to the Nth ((N − 1) intervals) and the
// _from_call pair from the call's start (the channel is connected before) to the Nth event.
// `--work-us N` busy-waits N µs after each event: a reader that does something with them, to
// see how the reader's pace changes the service's rate and cost.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include "proto/generic.grpc.pb.h"

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_between(clock_type::time_point a, clock_type::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

/// The number after `"seq":` in a payload of the example service, or -1.
long seq_of(const std::string& payload) {
  auto at = payload.find("\"seq\":");
  if (at == std::string::npos)
    return -1;
  return std::strtol(payload.c_str() + at + 6, nullptr, 10);
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"Raw gRPC client reading a generic.Eventing stream"};
  std::string target;
  std::string name = "bench";
  std::string config = "bench";
  long count = 10000;
  double connect_timeout_s = 10;
  double work_us = 0;
  app.add_option("--target", target, "HOST:PORT of the signal service")->required();
  app.add_option("--count", count, "events to read")->check(CLI::PositiveNumber);
  app.add_option("--name", name, "EventSource.name sent to the service");
  app.add_option("--config", config, "EventSource.config sent to the service");
  app.add_option("--connect-timeout", connect_timeout_s, "seconds to wait for the connection");
  app.add_option("--work-us", work_us, "µs to busy-wait after each event (default 0)");
  CLI11_PARSE(app, argc, argv);

  auto channel = ::grpc::CreateChannel(target, ::grpc::InsecureChannelCredentials());
  auto deadline = std::chrono::system_clock::now()
                  + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                    std::chrono::duration<double>(connect_timeout_s));
  if (!channel->WaitForConnected(deadline)) {
    std::fprintf(stderr, "ganglion-signal-baseline: cannot connect to %s\n", target.c_str());
    return 1;
  }
  auto stub = generic::Eventing::NewStub(channel);
  generic::EventSource request;
  request.set_name(name);
  request.set_config(config);
  ::grpc::ClientContext call;
  generic::Event event;
  long events = 0;
  long last_seq = -1;
  auto began = clock_type::now();
  auto reader = stub->StartEventSource(&call, request);
  clock_type::time_point first;
  clock_type::time_point last;
  auto work = std::chrono::duration_cast<clock_type::duration>(
    std::chrono::duration<double, std::micro>(work_us));
  while (events < count && reader->Read(&event)) {
    if (++events == 1)
      first = clock_type::now();
    if (work.count() > 0)
      for (auto until = clock_type::now() + work; clock_type::now() < until;) {
      }
  }
  last = clock_type::now();
  if (events > 0)
    last_seq = seq_of(event.payload());
  // The example service keeps the stream open after its --count events: end it here.
  call.TryCancel();
  auto status = reader->Finish();
  if (events < count) {
    std::fprintf(stderr, "ganglion-signal-baseline: the stream ended after %ld of %ld events: %s\n",
                 events, count, status.error_message().c_str());
    return 1;
  }
  double seconds = seconds_between(first, last);
  double from_call = seconds_between(began, last);
  std::printf("%s\n",
              fmt::format(R"({{"events":{},"seconds":{:.6f},"events_per_s":{:.1f},)"
                          R"("seconds_from_call":{:.6f},"events_per_s_from_call":{:.1f},)"
                          R"("first_event_ms":{:.3f},"last_seq":{}}})",
                          events, seconds,
                          seconds > 0 ? static_cast<double>(events - 1) / seconds : 0.0,
                          from_call, from_call > 0 ? static_cast<double>(events) / from_call : 0.0,
                          seconds_between(began, first) * 1000.0, last_seq)
                .c_str());
  return 0;
}
