#pragma once

#include <stdexcept>
#include <string>

namespace ganglion::dsl {

/// Thrown at load time when a small-language text (condition, path, dest …) does not compile.
class compile_error : public std::runtime_error {
public:
  /// `offset` is the 0-based character position of the problem in the source text.
  compile_error(const std::string& message, std::size_t offset)
    : std::runtime_error(message), offset_(offset) {}

  /// 0-based character offset of the problem.
  std::size_t offset() const noexcept { return offset_; }

private:
  std::size_t offset_;
};

} // namespace ganglion::dsl
