#pragma once

// Little-endian fixed-width integers in byte strings, as the on-disk formats of the bus's log
// and the sensor store write them.

#include <cstdint>
#include <string>
#include <string_view>

namespace ganglion::core {

/// Appends `v` as 4 little-endian bytes.
inline void put_u32(std::string& out, std::uint32_t v) {
  char b[4];
  for (int i = 0; i < 4; ++i)
    b[i] = static_cast<char>(v >> (8 * i));
  out.append(b, 4);
}

/// Appends `v` as 8 little-endian bytes.
inline void put_u64(std::string& out, std::uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i)
    b[i] = static_cast<char>(v >> (8 * i));
  out.append(b, 8);
}

/// Stores `v` as 8 little-endian bytes at `at`.
inline void store_u64(char* at, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i)
    at[i] = static_cast<char>(v >> (8 * i));
}

/// The 4 little-endian bytes at `at`.
inline std::uint32_t load_u32(const char* at) noexcept {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= std::uint32_t{static_cast<unsigned char>(at[i])} << (8 * i);
  return v;
}

/// The 8 little-endian bytes at `at`.
inline std::uint64_t load_u64(const char* at) noexcept {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= std::uint64_t{static_cast<unsigned char>(at[i])} << (8 * i);
  return v;
}

/// Reads fixed-width integers and length-prefixed strings off a byte string; every read fails
/// (returns false) rather than go past the end.
class byte_reader {
public:
  /// Reads `bytes`, which must outlive the reader.
  explicit byte_reader(std::string_view bytes) noexcept : rest_(bytes) {}

  /// Reads a little-endian u32.
  bool u32(std::uint32_t& v) noexcept {
    if (rest_.size() < 4)
      return false;
    v = load_u32(rest_.data());
    rest_.remove_prefix(4);
    return true;
  }

  /// Reads a little-endian u64.
  bool u64(std::uint64_t& v) noexcept {
    if (rest_.size() < 8)
      return false;
    v = load_u64(rest_.data());
    rest_.remove_prefix(8);
    return true;
  }

  /// Reads a u32 length and that many bytes (a view into the input).
  bool string(std::string_view& v) noexcept {
    std::uint32_t size = 0;
    if (!u32(size) || rest_.size() < size)
      return false;
    v = rest_.substr(0, size);
    rest_.remove_prefix(size);
    return true;
  }

  /// True when every byte was read.
  bool empty() const noexcept { return rest_.empty(); }

private:
  std::string_view rest_;
};

} // namespace ganglion::core
