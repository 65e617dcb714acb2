#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::dsl {

/// A compiled trigger condition over dependency names: `!`, `&&`, `||`, parentheses
/// (e.g. `(dep01 || dep02) && !dep-04`); `!` binds tightest, then `&&`, then `||`. `!` is a
/// ganglion extension (Argo rejects it): `!d` holds while `d` holds no event.
class condition {
public:
  /// Compiles `text`; throws compile_error with the offending offset.
  static condition parse(std::string_view text);

  /// The default condition: the AND of all `names`.
  static condition all_of(const std::vector<std::string>& names);

  /// The distinct dependency names the condition uses, in order of first appearance.
  const std::vector<std::string>& variables() const noexcept;

  /// True when the expression contains `&&` (events must be held until it is satisfied).
  bool needs_state() const noexcept;

  /// Evaluates with `present[i]` telling whether variables()[i] holds an event.
  bool evaluate(std::span<const std::uint8_t> present) const noexcept;

  /// The normalised expression text.
  const std::string& text() const noexcept;

  condition();
  ~condition();
  condition(const condition&);
  condition& operator=(const condition&);
  condition(condition&&) noexcept;
  condition& operator=(condition&&) noexcept;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::dsl
