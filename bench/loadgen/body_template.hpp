#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::loadgen {

/// A request body with `{{seq}}` and `{{send_ns}}` placeholders, split once so that rendering
/// is appends only.
class body_template {
public:
  /// Splits `text` at its placeholders.
  explicit body_template(std::string_view text);

  /// Size in bytes of the body rendered with these values.
  std::size_t rendered_size(std::uint64_t seq, std::int64_t send_ns) const noexcept;
  /// Appends the body with the placeholders replaced to `out`.
  void render(std::string& out, std::uint64_t seq, std::int64_t send_ns) const;
  /// True when some placeholder depends on the request.
  bool has_placeholders() const noexcept { return seq_count_ + send_ns_count_ > 0; }

private:
  enum class part_kind { text, seq, send_ns };
  struct part {
    part_kind kind;
    std::string text;
  };

  std::vector<part> parts_;
  std::size_t text_size_ = 0;
  std::size_t seq_count_ = 0;
  std::size_t send_ns_count_ = 0;
};

/// The default body: a ~200-byte GitHub-like pull request event with `"seq":{{seq}}`.
std::string_view default_body();

} // namespace ganglion::loadgen
