#include "ganglion/dsl/filter/precompiled_filters.hpp"

#include <stdexcept>
#include <string>

namespace ganglion::dsl {

namespace {

/// Runs `build`; rethrows its failure as "<kind> filter: <why>".
template <class Build>
void compile(const char* kind, Build&& build) {
  try {
    build();
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string{kind} + " filter: " + e.what());
  }
}

} // namespace

std::shared_ptr<const precompiled_filters> precompile_filters(const dependency_filter& f) {
  auto out = std::make_shared<precompiled_filters>();
  if (!f.exprs.empty())
    compile("exprs", [&] { out->exprs.emplace(f.exprs, f.expr_logical_operator); });
  if (!f.data.empty())
    compile("data", [&] { out->data.emplace(f.data, f.data_logical_operator); });
  return out;
}

} // namespace ganglion::dsl
