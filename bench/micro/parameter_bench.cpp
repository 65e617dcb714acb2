// Trigger parameters on a corpus event parsed once: resolving each kind of parameter (dataKey,
// dataTemplate, contextKey), building an HTTP payload from the three (dsl::build_payload),
// applying them to a small JSON body (dsl::apply_parameters), and a Go template render alone.
// This runs per firing, after matching; compare with baseline_simdjson_dom_parse for scale.

#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "ganglion/dsl/tmpl/go_template.hpp"
#include "ganglion/dsl/params/parameters.hpp"

namespace ganglion::bench {
namespace {

/// The first three resolve parameter compiled_parameters()[index] alone.
enum class render {
  data_key,
  data_template,
  context_key,
  build_payload,
  apply_parameters,
  go_template
};

dsl::trigger_parameter parameter(std::string dest) {
  dsl::trigger_parameter p;
  p.src.dependency_name = "payload";
  p.dest = std::move(dest);
  return p;
}

// dataKey → action, dataTemplate → user, contextKey → type.
std::vector<dsl::compiled_parameter> compiled_parameters() {
  auto action = parameter("action");
  action.src.data_key = "body.action";
  auto user = parameter("user");
  user.src.data_template = "{{ .Input.body.sender.login | upper }}";
  auto type = parameter("type");
  type.src.context_key = "type";
  return {dsl::compiled_parameter(action), dsl::compiled_parameter(user),
          dsl::compiled_parameter(type)};
}

constexpr std::string_view body_template = R"({"action":"","user":"","type":"","static":true})";

void parameter_render(benchmark::State& state, render what) {
  parsed_corpus corpus;
  const auto parameters = compiled_parameters();
  const auto tmpl =
    dsl::go_template::parse("{{ .Input.body.sender.login | upper }}/{{ .Input.body.action }}");
  std::size_t next = 0;
  dsl::event_lookup lookup = [&](std::string_view) { return &corpus.views()[next]; };
  std::string document;
  for (auto _ : state) {
    bool ok = false;
    switch (what) {
      case render::data_key:
      case render::data_template:
      case render::context_key: {
        const auto& p = parameters[static_cast<std::size_t>(what)];
        auto value = dsl::resolve_parameter(p, &corpus.views()[next]);
        ok = value && !value->text.empty();
        break;
      }
      case render::build_payload:
        document = dsl::build_payload(parameters, lookup);
        ok = document.find(R"("user":")") != std::string::npos;
        break;
      case render::apply_parameters:
        document.assign(body_template);
        dsl::apply_parameters(document, parameters, lookup);
        ok = document.size() > body_template.size();
        break;
      case render::go_template:
        document = tmpl.execute_input(corpus.views()[next].data);
        ok = document.find("<no value>") == std::string::npos;
        break;
    }
    if (!ok) {
      state.SkipWithError("a parameter did not resolve");
      break;
    }
    next = next_index(next, corpus.size());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(corpus_bytes(state.iterations()));
}

} // namespace

BENCHMARK_CAPTURE(parameter_render, data_key, render::data_key);
BENCHMARK_CAPTURE(parameter_render, data_template, render::data_template);
BENCHMARK_CAPTURE(parameter_render, context_key, render::context_key);
BENCHMARK_CAPTURE(parameter_render, build_payload, render::build_payload);
BENCHMARK_CAPTURE(parameter_render, apply_parameters, render::apply_parameters);
BENCHMARK_CAPTURE(parameter_render, go_template, render::go_template);

} // namespace ganglion::bench
