#include <cstdio>

#include "bus_choice.hpp"
#include "commands.hpp"
#include "ganglion/dsl/dependencies.hpp"
#include "ganglion/dsl/load.hpp"
#include "kinds.hpp"

namespace ganglion::app {

int validate_command(const validate_options& options) {
  http::runtime_options transport;
  if (!options.listen.empty())
    transport.listen = http::parse_listen(options.listen);
  auto registered =
    register_kinds(std::make_shared<http::runtime>(transport),
                   settings_of(options.kind_options, options.kubeconfig, options.object_identity));
  auto result = dsl::load_manifests(options.files, load_options_for(registered, options.strict));
  auto unresolved = dsl::unresolved_dependencies(result.documents);
  result.diagnostics.insert(result.diagnostics.end(), unresolved.begin(), unresolved.end());
  auto refused = refusals_of(result.documents, registered, options.secrets_dir);
  for (auto& r : refused) {
    if (options.strict)
      r.why.level = dsl::severity::error;
    result.diagnostics.push_back(r.why);
  }
  for (auto& d : bus_diagnostics(result.documents, registered.buses)) {
    if (options.strict)
      d.level = dsl::severity::error;
    result.diagnostics.push_back(std::move(d));
  }
  std::size_t errors = 0;
  std::size_t warnings = 0;
  for (const auto& d : result.diagnostics) {
    std::fprintf(stderr, "%s\n", d.to_string().c_str());
    (d.level == dsl::severity::error ? errors : warnings)++;
  }
  std::size_t argo = 0;
  for (const auto& doc : result.documents)
    if (doc.body.index() != 0)
      ++argo;
  if (auto summary = core::runnability_summary(refused); !summary.empty())
    std::printf("%s (see docs/compatibility.md)\n", summary.c_str());
  std::printf("%zu document(s), %zu Argo object(s): %zu error(s), %zu warning(s)\n",
              result.documents.size(), argo, errors, warnings);
  return errors > 0 ? 1 : 0;
}

} // namespace ganglion::app
