// Fuzzes trigger conditions: parse, evaluate under several assignments, and check that the
// normalised text parses back to itself.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/expr/condition.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ganglion::dsl::condition c;
  try {
    c = ganglion::dsl::condition::parse(text);
  } catch (const ganglion::dsl::compile_error&) {
    return 0;
  }
  std::vector<std::uint8_t> present(c.variables().size(), 0);
  for (std::size_t bits = 0; bits < 8; ++bits) {
    for (std::size_t i = 0; i < present.size(); ++i)
      present[i] = (bits >> (i % 3)) & 1;
    (void)c.evaluate(present);
  }
  (void)c.evaluate({});
  auto again = ganglion::dsl::condition::parse(c.text());
  if (again.text() != c.text() || again.variables().size() != c.variables().size())
    __builtin_trap();
  return 0;
}
