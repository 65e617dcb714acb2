// Fuzzes govaluate expressions: the first line is the expression, the rest a JSON object whose
// members are bound to the variables of the same name.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/expr/expr.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ganglion::dsl;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto newline = input.find('\n');
  auto text = input.substr(0, newline);
  std::string json(newline == std::string_view::npos ? std::string_view("{}")
                                                     : input.substr(newline + 1));
  expression e;
  try {
    e = expression::compile(text);
  } catch (const compile_error&) {
    return 0;
  }
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::object object;
  std::vector<expr_value> values;
  values.reserve(e.variables().size());
  std::vector<const expr_value*> bound;
  bool have_object = !parser.parse(json).get(root) && !root.get(object);
  for (const auto& name : e.variables()) {
    simdjson::dom::element member;
    if (have_object && !object.at_key(name).get(member)) {
      values.push_back(expr_value::from_json(member));
      bound.push_back(&values.back());
    } else {
      bound.push_back(nullptr);
    }
  }
  try {
    (void)to_display(e.evaluate(bound));
  } catch (const expr_error&) {
  }
  return 0;
}
