#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>

#include <boost/asio/io_context.hpp>

#include "driver.hpp"
#include "results.hpp"
#include "seq_table.hpp"
#include "sink.hpp"

namespace ganglion::loadgen {

/// Makes the driver of one io thread with `connections` slots.
using driver_factory =
  std::function<std::unique_ptr<driver>(boost::asio::io_context& io, std::size_t connections)>;

/// How a run sends, independent of the transport.
struct run_plan {
  std::size_t connections = 64;
  std::size_t threads = 1;
  double duration_s = 10;
  double warmup_s = 1;
  double rate = 0; ///< total requests per second; 0: closed loop
  double timeout_s = 10;
  bool progress = true;
};

/// Runs the load: one io_context, driver and scheduler per thread; waits for the connections
/// (up to 2 s), sends for warmup + duration, waits for the requests in flight and prints the
/// progress line meanwhile. `table` (may be null) records every request for the sink. Fills
/// the request part of the results.
run_results run_load(const run_plan& plan, const driver_factory& make_driver, seq_table* table);

/// Waits until every measured 2xx request arrived at `s` or `drain_s` passed, then stops the
/// sink and counts what is missing.
e2e_results drain_sink(sink& s, const seq_table& table, std::uint64_t ok, double drain_s);

} // namespace ganglion::loadgen
