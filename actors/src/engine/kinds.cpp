#include "ganglion/core/kinds.hpp"

namespace ganglion::core {

dsl::kind_specs spec_steps(const kinds& registered) {
  dsl::kind_specs out;
  for (const auto& [key, factory] : registered.sources)
    if (factory.spec().read)
      out.sources.emplace(key, factory.spec());
  for (const auto& [key, factory] : registered.triggers)
    if (factory.spec().read)
      out.triggers.emplace(key, factory.spec());
  for (const auto& [key, factory] : registered.buses)
    if (factory.spec_step.read)
      out.buses.emplace(key, factory.spec_step);
  return out;
}

} // namespace ganglion::core
