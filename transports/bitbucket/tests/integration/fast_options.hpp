#pragma once

#include <chrono>

#include "ganglion/bitbucket/transport.hpp"

namespace ganglion::test {

/// The bitbucket transport's options for tests: short retries, no first delay, 3 attempts.
inline bitbucket::options fast_options() {
  using namespace std::chrono_literals;
  return {.request_timeout = 5000ms,
          .first_retry = 5ms,
          .max_retry = 20ms,
          .cloud_first_delay = 0ms,
          .server_first_delay = 0ms,
          .attempts = 3};
}

} // namespace ganglion::test
