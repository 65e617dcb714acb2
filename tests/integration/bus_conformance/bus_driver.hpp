#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "ganglion/core/remote_bus.hpp"

namespace ganglion::test::bus_conformance {

/// What a driver may lack; the tests that need it are skipped with the driver's reason.
enum class capability {
  replicas,    ///< a second replica on the same bus at once (redelivery to it, shared state)
  ownership,   ///< core::ownership: names divided between the live replicas
  state_store, ///< core::state_store: values shared through the bus
};

/// One bus driver under test: a server of its own and the buses (replicas) opened on it. The
/// suite (`suite_*.cpp`) runs against this interface only; each `<driver>_driver.cpp` provides
/// one and instantiates the suite with it.
class bus_driver {
public:
  virtual ~bus_driver() = default;

  /// Empty when the driver has `c`; else why not (the reason a skipped test names).
  virtual std::string lacks(capability c) const = 0;

  /// Opens the bus of replica `replica` on the driver's server. `window`: publishes in flight
  /// (or, for the embedded bus, events alive) at most before `saturated`; 0: the driver's
  /// default. Opening a replica that was destroyed before restarts it on the same bus.
  virtual std::shared_ptr<core::remote_bus> open(const std::string& replica,
                                                 std::size_t window = 0) = 0;

  /// Makes the server stop storing events (down, or a full window for a bus without a server)
  /// until resume().
  virtual void stall() = 0;

  /// Undoes stall().
  virtual void resume() = 0;
};

/// How the suite makes a driver: a name (the instantiation's) and a factory.
struct driver_factory {
  std::string name;
  std::function<std::unique_ptr<bus_driver>()> make;
};

/// Prints the factory as its name (in a failed test's parameter).
inline void PrintTo(const driver_factory& factory, std::ostream* out) { *out << factory.name; }

/// The conformance suite's fixture: a fresh driver (and server) per test.
class bus_conformance : public ::testing::TestWithParam<driver_factory> {
protected:
  void SetUp() override { driver_ = GetParam().make(); }
  void TearDown() override { driver_.reset(); }

  /// The driver; a test that needs `c` calls `GANGLION_REQUIRE(c)` first.
  bus_driver& driver() { return *driver_; }

private:
  std::unique_ptr<bus_driver> driver_;
};

/// The instantiation's name, for test names (`jetstream/bus_conformance.…/0` → `…/jetstream`).
inline std::string driver_name(const ::testing::TestParamInfo<driver_factory>& info) {
  return info.param.name;
}

} // namespace ganglion::test::bus_conformance

/// Skips the test, naming why, when the driver lacks capability `c`.
#define GANGLION_REQUIRE(c)                                                                      \
  do {                                                                                           \
    if (auto why = driver().lacks(::ganglion::test::bus_conformance::capability::c);             \
        !why.empty())                                                                            \
      GTEST_SKIP() << #c << ": " << why;                                                         \
  } while (false)
