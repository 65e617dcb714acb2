// ganglion-loadgen: its histogram and seq matching directly, and the binary against in-test
// HTTP servers on loopback (a webhook stand-in that may forward each body to the sink, as the
// engine's HTTP trigger would).

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ganglion/http/server.hpp"
#include "test_support.hpp"

#if __has_include("histogram.hpp")
#include "histogram.hpp"
#include "seq_scan.hpp"
#define LOADGEN_SOURCES 1
#endif

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

#ifdef LOADGEN_SOURCES

using loadgen::histogram;

/// The exact percentile of sorted `v`, by the same nearest-rank rule as the histogram.
std::int64_t exact(const std::vector<std::int64_t>& v, double p) {
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

void expect_percentiles_within_1pct(std::vector<std::int64_t> values) {
  histogram h;
  for (auto v : values)
    h.record(v);
  std::sort(values.begin(), values.end());
  for (double p : {50.0, 90.0, 99.0, 99.9}) {
    auto want = static_cast<double>(exact(values, p));
    EXPECT_NEAR(static_cast<double>(h.percentile(p)), want, want * 0.01) << "p" << p;
  }
  EXPECT_EQ(h.max(), values.back());
  EXPECT_EQ(h.min(), values.front());
  EXPECT_EQ(h.count(), values.size());
}

TEST(loadgen_histogram, uniform_distribution_within_one_percent) {
  std::vector<std::int64_t> v;
  for (std::int64_t us = 1; us <= 100'000; ++us)
    v.push_back(us * 1000);
  expect_percentiles_within_1pct(v);
  histogram h;
  for (auto x : v)
    h.record(x);
  EXPECT_NEAR(h.mean(), 50'000'500.0, 1.0);
}

TEST(loadgen_histogram, exponential_and_lognormal_within_one_percent) {
  std::mt19937_64 rng(42);
  std::exponential_distribution<double> expo(1.0 / 800'000.0); // mean 0.8 ms
  std::lognormal_distribution<double> logn(std::log(2e6), 1.5); // long tail to seconds
  std::vector<std::int64_t> a, b;
  for (int i = 0; i < 200'000; ++i) {
    a.push_back(1000 + static_cast<std::int64_t>(expo(rng)));
    b.push_back(std::min<std::int64_t>(1000 + static_cast<std::int64_t>(logn(rng)), 50e9));
  }
  expect_percentiles_within_1pct(a);
  expect_percentiles_within_1pct(b);
}

TEST(loadgen_histogram, every_bucket_is_narrower_than_one_percent) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int64_t> any(1000, histogram::highest_ns);
  for (int i = 0; i < 100'000; ++i) {
    auto v = any(rng);
    auto idx = histogram::index_of(v);
    auto low = histogram::lowest_of(idx);
    ASSERT_LE(low, v);
    ASSERT_LT(v, low + histogram::width_of(idx));
    ASSERT_LE(static_cast<double>(histogram::width_of(idx)), 0.01 * static_cast<double>(low));
  }
}

TEST(loadgen_histogram, constant_extremes_merge_and_interval) {
  histogram c;
  for (int i = 0; i < 1000; ++i)
    c.record(1'234'567);
  EXPECT_EQ(c.percentile(50), 1'234'567);
  EXPECT_EQ(c.percentile(99.9), 1'234'567);

  histogram big;
  big.record(90'000'000'000); // beyond 60 s: counted in the last bucket, max stays exact
  big.record(500);
  EXPECT_EQ(big.max(), 90'000'000'000);
  EXPECT_EQ(big.percentile(100), 90'000'000'000);
  EXPECT_EQ(big.percentile(50), 500);

  histogram low, high, all;
  for (std::int64_t i = 1; i <= 1000; ++i) {
    (i <= 500 ? low : high).record(i * 10'000);
    all.record(i * 10'000);
  }
  histogram merged = low;
  merged.merge(high);
  EXPECT_EQ(merged.count(), all.count());
  EXPECT_EQ(merged.percentile(99), all.percentile(99));
  histogram interval = all;
  interval.subtract(low);
  EXPECT_EQ(interval.count(), 500u);
  EXPECT_NEAR(static_cast<double>(interval.percentile(50)), 7'500'000.0, 75'000.0);
  EXPECT_EQ(histogram{}.percentile(99), 0);
}

TEST(loadgen_seq_scan, finds_the_first_seq_key_in_reserialised_json) {
  using loadgen::find_seq;
  EXPECT_EQ(find_seq(R"({"seq":12,"x":1})"), 12u);
  EXPECT_EQ(find_seq(R"({"body": {"seq" :  "34"}})"), 34u);
  EXPECT_EQ(find_seq("{\n  \"seq\":\n\t56\n}"), 56u);
  EXPECT_EQ(find_seq(R"({"payload":"{\"seq\":7}"})"), 7u);
  EXPECT_EQ(find_seq(R"({"sequence":1,"seq":"x","seq":9})"), 9u);
  EXPECT_EQ(find_seq(R"({"subsequence":3})"), std::nullopt);
  EXPECT_EQ(find_seq(R"({"seq":-1})"), std::nullopt);
  EXPECT_EQ(find_seq(""), std::nullopt);
}

#endif // LOADGEN_SOURCES

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

/// POSTs bodies, one after another on one keep-alive connection, to an HTTP URL on loopback.
class forwarder {
public:
  forwarder(std::uint16_t port, std::string path) : port_(port), path_(std::move(path)) {
    thread_ = std::thread([this] { loop(); });
  }
  ~forwarder() {
    {
      std::lock_guard guard{mutex_};
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void push(std::string body) {
    {
      std::lock_guard guard{mutex_};
      queue_.push_back(std::move(body));
    }
    wake_.notify_all();
  }

private:
  void loop() {
    asio::io_context io;
    tcp::socket socket{io};
    boost::beast::flat_buffer buffer;
    for (;;) {
      std::string body;
      {
        std::unique_lock lock{mutex_};
        wake_.wait(lock, [&] { return done_ || !queue_.empty(); });
        if (queue_.empty())
          return;
        body = std::move(queue_.front());
        queue_.pop_front();
      }
      // The engine re-serialises the event; pretty printing puts spaces after the colons.
      auto wrapped = json{{"context", {{"type", "webhook"}}}, {"data", json::parse(body)}}.dump(2);
      boost::system::error_code ec;
      if (!socket.is_open())
        socket.connect({asio::ip::make_address("127.0.0.1"), port_}, ec);
      bhttp::request<bhttp::string_body> req{bhttp::verb::post, path_, 11};
      req.set(bhttp::field::host, "127.0.0.1");
      req.body() = wrapped;
      req.prepare_payload();
      bhttp::response<bhttp::string_body> res;
      if (!ec)
        bhttp::write(socket, req, ec);
      if (!ec)
        bhttp::read(socket, buffer, res, ec);
      if (ec) {
        socket.close(ec);
        buffer.clear();
      }
    }
  }

  std::uint16_t port_;
  std::string path_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::string> queue_;
  bool done_ = false;
  std::thread thread_;
};

/// A webhook stand-in: answers every POST with `status` and, when given a sink port, forwards
/// every `forward_every`-th body to it after answering.
class webhook_server {
public:
  explicit webhook_server(int status = 200, std::uint16_t sink_port = 0, int forward_every = 1)
    : status_(status), forward_every_(forward_every) {
    if (sink_port != 0)
      forward_ = std::make_unique<forwarder>(sink_port, "/sink");
    route_ = pool_.add_route("127.0.0.1", 0, "/hook", [this](http::request&& req, http::responder reply) {
      auto n = received_.fetch_add(1);
      {
        std::lock_guard guard{mutex_};
        bodies_.push_back(req.body);
      }
      reply(http::text_response(status_, "ok"));
      if (forward_ && n % forward_every_ == 0)
        forward_->push(std::move(req.body));
    });
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(route_.port()) + "/hook"; }
  std::size_t received() const { return received_.load(); }
  std::vector<std::string> bodies() const {
    std::lock_guard guard{mutex_};
    return bodies_;
  }

private:
  int status_;
  int forward_every_;
  std::unique_ptr<forwarder> forward_;
  std::atomic<std::size_t> received_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> bodies_;
  http::server_pool pool_;
  http::route route_;
};

/// The outcome of one ganglion-loadgen run.
struct run_outcome {
  int exit_code = -1;
  std::string output; ///< stdout and stderr
  json result;        ///< the --json file, null when absent
};

run_outcome run_loadgen(std::vector<std::string> args) {
#ifndef GANGLION_LOADGEN_BINARY
  ADD_FAILURE() << "built without bench/loadgen";
  return {};
#else
  auto json_path = test::temp_dir() + "/result.json";
  std::vector<std::string> argv{GANGLION_LOADGEN_BINARY, "--quiet", "--json", json_path};
  argv.insert(argv.end(), args.begin(), args.end());
  test::child_process p(argv);
  run_outcome out;
  out.exit_code = p.wait(30s).value_or(-1);
  out.output = p.output();
  std::ifstream in(json_path);
  if (in)
    out.result = json::parse(in, nullptr, false);
  return out;
#endif
}

TEST(loadgen, closed_loop_reports_requests_latency_and_json) {
  webhook_server server;
  auto r = run_loadgen({"--url", server.url(), "-c", "8", "-d", "1s", "--warmup", "200ms"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto& j = r.result;
  ASSERT_TRUE(j.is_object()) << r.output;
  EXPECT_EQ(j["url"], server.url());
  EXPECT_EQ(j["mode"], "closed");
  EXPECT_EQ(j["connections"], 8);
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 1.0);
  EXPECT_GT(j["requests"]["ok"].get<std::uint64_t>(), 100u);
  EXPECT_EQ(j["requests"]["errors"], 0);
  EXPECT_EQ(j["requests"]["5xx"], 0);
  EXPECT_EQ(j["requests"]["4xx"], 0);
  EXPECT_GT(j["throughput_rps"].get<double>(), 100.0);
  for (auto key : {"p50", "p90", "p99", "p999", "max", "mean"})
    EXPECT_GT(j["latency_ms"][key].get<double>(), 0.0) << key;
  EXPECT_LE(j["latency_ms"]["p50"].get<double>(), j["latency_ms"]["p99"].get<double>());
  EXPECT_TRUE(j["e2e"].is_null());
  // Warmup requests reach the server but are not counted.
  EXPECT_GT(server.received(), j["requests"]["ok"].get<std::size_t>());
  EXPECT_NE(r.output.find("throughput"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("p99.9"), std::string::npos) << r.output;
}

TEST(loadgen, open_loop_sends_the_target_rate_with_unique_seqs) {
  webhook_server server;
  auto r = run_loadgen({"--url", server.url(), "-c", "4", "--threads", "2", "--rate", "200", "-d",
                        "1s", "--warmup", "0", "--body-text", R"({"n":{{seq}},"t":{{send_ns}}})"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto& j = r.result;
  EXPECT_EQ(j["mode"], "open");
  EXPECT_DOUBLE_EQ(j["target_rate"].get<double>(), 200.0);
  EXPECT_NEAR(j["requests"]["ok"].get<double>(), 200.0, 30.0);
  EXPECT_NEAR(j["sent_rps"].get<double>(), 200.0, 30.0);
  auto bodies = server.bodies();
  EXPECT_NEAR(static_cast<double>(bodies.size()), 200.0, 30.0);
  std::set<std::uint64_t> seqs;
  for (const auto& b : bodies) {
    auto parsed = json::parse(b);
    seqs.insert(parsed["n"].get<std::uint64_t>());
    EXPECT_GT(parsed["t"].get<std::int64_t>(), 0);
  }
  EXPECT_EQ(seqs.size(), bodies.size()) << "every request carries its own seq";
  if (!seqs.empty()) {
    EXPECT_EQ(*seqs.rbegin(), seqs.size() - 1) << "seqs are 0, 1, 2, …";
  }
}

TEST(loadgen, counts_503_as_saturated_not_ok) {
  webhook_server server(503);
  auto r = run_loadgen({"--url", server.url(), "-c", "2", "-d", "300ms", "--warmup", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto& q = r.result["requests"];
  EXPECT_EQ(q["ok"], 0);
  EXPECT_GT(q["saturated"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(q["saturated"], q["5xx"]);
  EXPECT_EQ(q["errors"], 0);
  EXPECT_TRUE(r.result["latency_ms"].is_null());
}

TEST(loadgen, refused_port_exits_1_with_the_reason) {
  auto port = std::to_string(test::free_port());
  auto r = run_loadgen({"--url", "http://127.0.0.1:" + port + "/hook", "-d", "1s"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("cannot connect to 127.0.0.1:" + port + ": Connection refused"),
            std::string::npos)
    << r.output;
}

TEST(loadgen, bad_arguments_exit_2) {
  auto https = run_loadgen({"--url", "https://127.0.0.1:1/x"});
  EXPECT_EQ(https.exit_code, 2) << https.output;
  EXPECT_NE(https.output.find("only http://"), std::string::npos) << https.output;
  EXPECT_EQ(run_loadgen({"--url", "http://127.0.0.1:1/x", "-c", "0"}).exit_code, 2);
  EXPECT_EQ(run_loadgen({"--url", "http://127.0.0.1:1/x", "-d", "ten"}).exit_code, 2);
  EXPECT_EQ(run_loadgen({}).exit_code, 2);
}

TEST(loadgen, end_to_end_every_answered_request_arrives_at_the_sink) {
  auto sink_port = test::free_port();
  webhook_server server(200, sink_port, 1);
  auto r = run_loadgen({"--url", server.url(), "-c", "4", "-d", "1s", "--warmup", "200ms",
                        "--sink", "127.0.0.1:" + std::to_string(sink_port), "--drain", "5s"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto& e = r.result["e2e"];
  ASSERT_TRUE(e.is_object()) << r.output;
  auto ok = r.result["requests"]["ok"].get<std::uint64_t>();
  EXPECT_GT(ok, 50u);
  EXPECT_EQ(e["arrived"].get<std::uint64_t>(), ok);
  EXPECT_EQ(e["missing"], 0);
  EXPECT_EQ(e["duplicate"], 0);
  EXPECT_EQ(e["unmatched"], 0);
  EXPECT_GE(e["latency_ms"]["p50"].get<double>(), r.result["latency_ms"]["p50"].get<double>() * 0.5);
  EXPECT_NE(r.output.find("end to end"), std::string::npos) << r.output;
}

TEST(loadgen, end_to_end_reports_requests_that_never_arrived) {
  auto sink_port = test::free_port();
  webhook_server server(200, sink_port, 2);
  auto r = run_loadgen({"--url", server.url(), "-c", "4", "--rate", "400", "-d", "1s",
                        "--warmup", "0", "--sink", "127.0.0.1:" + std::to_string(sink_port),
                        "--drain", "1s"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto& e = r.result["e2e"];
  ASSERT_TRUE(e.is_object()) << r.output;
  auto ok = r.result["requests"]["ok"].get<double>();
  EXPECT_NEAR(e["missing"].get<double>(), ok / 2, ok * 0.05 + 2);
  EXPECT_NEAR(e["arrived"].get<double>(), ok / 2, ok * 0.05 + 2);
  EXPECT_EQ(e["arrived"].get<std::uint64_t>() + e["missing"].get<std::uint64_t>(),
            r.result["requests"]["ok"].get<std::uint64_t>());
}

} // namespace
