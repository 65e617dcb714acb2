// ganglion-k8s-baseline: the raw figure the bench's k8s trigger step is divided by. `--threads`
// threads each POST ConfigMaps (generateName, the label run=raw) to the API server's collection
// in a loop for `--duration` seconds, one libcurl easy handle per thread (keep-alive), as the
// k8s trigger's executor sends its creates from its 4 worker threads. Prints one JSON line:
// {"objects_per_s", "created", "failed", "p50_ms", "p99_ms"}.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <curl/curl.h>
#include <fmt/format.h>

namespace {

using clock_type = std::chrono::steady_clock;

std::size_t discard(char*, std::size_t size, std::size_t count, void*) {
  return size * count;
}

/// One thread's loop: the latencies (ms) of the creates that answered 201, and the failures.
struct worker_result {
  std::vector<double> latencies_ms;
  std::size_t failed = 0;
};

worker_result post_loop(const std::string& url, clock_type::time_point until) {
  worker_result out;
  const std::string body =
    R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"raw-",)"
    R"("labels":{"run":"raw"}},"data":{"k":"v"}})";
  CURL* curl = curl_easy_init();
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Accept: application/json");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 30000L);
  while (clock_type::now() < until) {
    auto began = clock_type::now();
    long status = 0;
    if (curl_easy_perform(curl) == CURLE_OK)
      curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    if (status == 201)
      out.latencies_ms.push_back(
        std::chrono::duration<double, std::milli>(clock_type::now() - began).count());
    else
      ++out.failed;
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return out;
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty())
    return 0;
  auto i = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1));
  return sorted[i];
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"Raw libcurl POST loop against a Kubernetes API server"};
  std::string server;
  std::string ns = "default";
  double duration_s = 10;
  int threads = 4;
  app.add_option("--server", server, "http://127.0.0.1:<port>")->required();
  app.add_option("--namespace", ns, "the namespace of the ConfigMaps");
  app.add_option("--duration", duration_s, "seconds");
  app.add_option("--threads", threads, "threads, one keep-alive connection each");
  CLI11_PARSE(app, argc, argv);
  curl_global_init(CURL_GLOBAL_DEFAULT);
  auto url = fmt::format("{}/api/v1/namespaces/{}/configmaps", server, ns);
  auto began = clock_type::now();
  auto until =
    began
    + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(duration_s));
  std::vector<worker_result> results(static_cast<std::size_t>(threads));
  std::vector<std::thread> pool;
  for (auto& r : results)
    pool.emplace_back([&r, &url, until] { r = post_loop(url, until); });
  for (auto& t : pool)
    t.join();
  auto elapsed = std::chrono::duration<double>(clock_type::now() - began).count();
  std::vector<double> all;
  std::size_t failed = 0;
  for (const auto& r : results) {
    all.insert(all.end(), r.latencies_ms.begin(), r.latencies_ms.end());
    failed += r.failed;
  }
  std::sort(all.begin(), all.end());
  std::printf("%s\n", fmt::format(R"({{"objects_per_s":{:.1f},"created":{},"failed":{},)"
                                  R"("p50_ms":{:.3f},"p99_ms":{:.3f}}})",
                                  static_cast<double>(all.size()) / elapsed, all.size(), failed,
                                  percentile(all, 0.5), percentile(all, 0.99))
                        .c_str());
  curl_global_cleanup();
  return failed && all.empty() ? 1 : 0;
}
