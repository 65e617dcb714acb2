// kube-api-server: the test Kubernetes API server (tests/support/kube) as a process, for the
// bench's k8s step and manual runs (kubectl works against it: docs/migrating.md). Listens on
// --port (default: a free one), writes a kubeconfig for it, prints `ready <url>` and serves
// until SIGTERM or SIGINT.
//
// With --stamp-created, every ConfigMap created through the API gets the annotation
// `created-ns`: the steady clock (CLOCK_MONOTONIC, as the load generator's `{{send_ns}}`) in
// nanoseconds when the server's write hook saw the creation (an update of the object, on the
// hook thread, right after the create).

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "kube/api_server.hpp"

namespace {

volatile std::sig_atomic_t stop_requested = 0;

void on_signal(int) {
  stop_requested = 1;
}

long long steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
           std::chrono::steady_clock::now().time_since_epoch())
    .count();
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"The test Kubernetes API server (tests/support/kube) as a process"};
  std::string kubeconfig;
  std::string ns = "default";
  bool stamp = false;
  std::uint16_t port = 0;
  app.add_option("--kubeconfig-out", kubeconfig, "where to write a kubeconfig for the server")
    ->required();
  app.add_option("--namespace", ns, "the kubeconfig context's namespace");
  app.add_option("--port", port, "the 127.0.0.1 port to listen on (default: a free one)");
  app.add_flag("--stamp-created", stamp,
               "annotate each ConfigMap created through the API with created-ns");
  CLI11_PARSE(app, argc, argv);

  ganglion::test::kube::server_options options;
  options.port = port;
  ganglion::test::kube::api_server server{options};
  if (stamp)
    server.on_write("v1", "ConfigMap", [&server](const ganglion::test::kube::write_event& e) {
      if (e.verb != "create")
        return;
      auto at = std::to_string(steady_ns());
      const auto& meta = e.object["metadata"];
      server.update("v1", "ConfigMap", meta.value("namespace", ""), meta.value("name", ""),
                    [&at](auto& object) { object["metadata"]["annotations"]["created-ns"] = at; });
    });
  {
    std::FILE* out = std::fopen(kubeconfig.c_str(), "w");
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", kubeconfig.c_str());
      return 1;
    }
    auto text = server.kubeconfig({}, std::nullopt, ns);
    std::fwrite(text.data(), 1, text.size(), out);
    std::fclose(out);
  }
  std::signal(SIGTERM, on_signal);
  std::signal(SIGINT, on_signal);
  std::printf("ready %s\n", server.url().c_str());
  std::fflush(stdout);
  while (!stop_requested)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return 0;
}
