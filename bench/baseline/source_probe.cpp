#include "source_probe.hpp"

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

namespace source_bench {

host_port split_address(const std::string& address) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos || colon + 1 == address.size())
    throw std::runtime_error("not host:port: " + address);
  return {address.substr(0, colon), std::stoi(address.substr(colon + 1))};
}

pace::pace(double rate) : rate_(rate), start_ns_(bus_bench::now_ns()) {}

void pace::wait(std::int64_t i) const {
  if (rate_ <= 0)
    return;
  auto due = start_ns_ + static_cast<std::int64_t>(static_cast<double>(i) * 1e9 / rate_);
  auto ahead = due - bus_bench::now_ns();
  if (ahead > 200'000) // sleep in steps of at least 0.2 ms; a burst catches up
    std::this_thread::sleep_for(std::chrono::nanoseconds(ahead));
}

void arrived(bus_bench::tally& t, bool& started, std::string_view payload) {
  if (!started) {
    t.start();
    started = true;
  }
  t.arrived(payload);
}

void say_ready() {
  std::printf("ready\n");
  std::fflush(stdout);
}

int finish(bus_bench::tally& t, const settings& s, const char* mode) {
  using clock = std::chrono::steady_clock;
  auto deadline = clock::now() + std::chrono::milliseconds(static_cast<int>(s.first_s * 1000));
  while (t.received() == 0 && clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  bool all = t.wait_all(std::chrono::milliseconds(static_cast<int>(s.idle_s * 1000)));
  std::printf("%s\n", t.report(mode, 0).c_str());
  std::fflush(stdout);
  return all ? 0 : 1;
}

void publisher_report(const char* mode, std::int64_t sent, std::int64_t start_ns) {
  double seconds = static_cast<double>(bus_bench::now_ns() - start_ns) / 1e9;
  std::printf("%s\n", fmt::format(R"({{"mode":"{}","sent":{},"seconds":{:.3f},)"
                                  R"("events_per_s":{:.0f}}})",
                                  mode, sent, seconds, seconds > 0 ? sent / seconds : 0.0)
                        .c_str());
  std::fflush(stdout);
}

} // namespace source_bench
