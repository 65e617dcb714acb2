#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/event.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// Sensors evaluated without actors, buses or side effects (`ganglion test`): events go
/// through each sensor's matching core in order, keeping join state between them, and every
/// firing is previewed instead of executed.
class dry_run {
public:
  /// Compiles every Sensor of `documents`; trigger previews use `triggers`.
  dry_run(const std::vector<dsl::document>& documents, const trigger_registry& triggers,
          const std::string& secrets_dir);
  ~dry_run();
  dry_run(const dry_run&) = delete;
  dry_run& operator=(const dry_run&) = delete;

  /// Processes one event; returns a readable report: each listening dependency's verdict with
  /// its reason, triggers that would fire with what they would send, and triggers still
  /// waiting for their condition.
  std::string process(event e);

  /// Firings so far of triggers that cannot run, or whose request could not be built.
  std::size_t failed_firings() const noexcept;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::core
