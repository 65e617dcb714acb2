// Fuzzes gjson paths: the first line is the path, the rest the JSON document. A path cut off by
// its evaluation budget is an expected outcome; a slow one that is not is a finding.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "ganglion/dsl/budget_exceeded.hpp"
#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/path/json_eval.hpp"
#include "ganglion/dsl/path/json_path.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto newline = input.find('\n');
  auto path_text = input.substr(0, newline);
  std::string json(newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1));
  ganglion::dsl::json_path path;
  try {
    path = ganglion::dsl::json_path::compile(path_text);
  } catch (const ganglion::dsl::compile_error&) {
    return 0;
  }
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json).get(root))
    return 0;
  ganglion::dsl::path_result result;
  try {
    result = ganglion::dsl::evaluate(path, root);
  } catch (const ganglion::dsl::budget_exceeded&) {
    return 0; // a path past its evaluation budget: cut off, as the engine does
  }
  (void)result.kind();
  (void)result.string_value();
  (void)result.float_value();
  (void)result.bool_value();
  (void)result.raw();
  return 0;
}
