// libFuzzer target: Go text/template parsing, and execution of what parses, on a fixed input.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/tmpl/go_template.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static simdjson::dom::parser parser;
  static const simdjson::dom::element input =
    parser.parse(std::string_view(R"({"body":{"a":"YWJj","n":3.5,"list":[1,"x",null],"m":{"k":true}}})"))
      .value();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto t = ganglion::dsl::go_template::parse(text);
    t.execute_input(input);
    t.execute_input_string(text);
  } catch (const ganglion::dsl::compile_error&) {
  } catch (const std::runtime_error&) {
  }
  return 0;
}
