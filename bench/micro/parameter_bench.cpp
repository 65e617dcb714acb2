// Trigger parameters on a corpus event parsed once: resolving each kind of parameter (dataKey,
// dataTemplate, contextKey), building an HTTP payload from the three (dsl::build_payload),
// applying them to a small JSON body (dsl::apply_parameters), a Go template render alone, and
// a trigger's resource with parameters (dsl::resource_parameters, as the core trigger step
// applies them per firing): `<kind>.parameters[]` only, and with template-level `parameters[]`.
// This runs per firing, after matching; compare with baseline_simdjson_dom_parse for scale.

#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "ganglion/dsl/tmpl/go_template.hpp"
#include "ganglion/dsl/params/parameters.hpp"
#include "ganglion/dsl/params/trigger_parameters.hpp"

namespace ganglion::bench {
namespace {

/// The first three resolve parameter compiled_parameters()[index] alone.
enum class render {
  data_key,
  data_template,
  context_key,
  build_payload,
  apply_parameters,
  go_template,
  resource_own,
  resource_template
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

/// An HTTP trigger template as a loaded manifest gives it.
/// The template as the loader writes it: its `http.parameters` are resource_parameters()'s own
/// list, which a trigger-level parameter's rewrite reads from here.
constexpr std::string_view trigger_template =
  R"({"name":"to-sink","conditions":"payload","http":{"url":"http://sink:8080/hook",)"
  R"("method":"POST","headers":{"Content-Type":"application/json","X-Static":"yes"},)"
  R"("timeout":10,"payload":[{"src":{"dependencyName":"payload","dataKey":"body.action"},)"
  R"("dest":"action"}],"parameters":[{"src":{"dependencyName":"payload","dataTemplate":)"
  R"("http://sink:8080/{{ .Input.body.action }}"},"dest":"url"},{"src":{"dependencyName":)"
  R"("payload","contextKey":"type"},"dest":"headers.X-Type"}]}})";

/// `http.parameters[]` (dataKey → url, contextKey → a header) and, with `template_level`, a
/// trigger-level parameter (dataTemplate → http.method).
dsl::resource_parameters resource_parameters(bool template_level) {
  auto url = parameter("url");
  url.src.data_template = "http://sink:8080/{{ .Input.body.action }}";
  auto header = parameter("headers.X-Type");
  header.src.context_key = "type";
  std::vector<dsl::trigger_parameter> on_template;
  if (template_level) {
    auto method = parameter("http.method");
    method.src.value = "PUT";
    method.src.data_key = "body.absent";
    on_template.push_back(method);
  }
  return dsl::resource_parameters(on_template, {url, header}, "http",
                                  [] { return std::string(trigger_template); });
}

void parameter_render(benchmark::State& state, render what) {
  parsed_corpus corpus;
  const auto parameters = compiled_parameters();
  const auto tmpl =
    dsl::go_template::parse("{{ .Input.body.sender.login | upper }}/{{ .Input.body.action }}");
  std::size_t next = 0;
  dsl::event_lookup lookup = [&](std::string_view) { return &corpus.views()[next]; };
  auto own_only = resource_parameters(false);
  auto with_template = resource_parameters(true);
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
      case render::resource_own:
      case render::resource_template:
        document = (what == render::resource_own ? own_only : with_template).resolve(lookup);
        ok = document.find("http://sink:8080/") != std::string::npos;
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
BENCHMARK_CAPTURE(parameter_render, resource_own, render::resource_own);
BENCHMARK_CAPTURE(parameter_render, resource_template, render::resource_template);

} // namespace ganglion::bench
