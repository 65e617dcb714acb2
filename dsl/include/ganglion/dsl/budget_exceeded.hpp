#pragma once

#include <stdexcept>

namespace ganglion::dsl {

/// A run cut off because it exceeded its budget: a script's time, instructions or memory, or a
/// path evaluation's steps or built JSON. The message says which.
class budget_exceeded : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace ganglion::dsl
