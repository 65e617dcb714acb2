#include "ganglion/core/dry_run.hpp"

#include <fmt/format.h>

#include "ganglion/core/parameter_step.hpp"
#include "sensor/sensor_core.hpp"

namespace ganglion::core {

namespace {

/// Indents every line of `text` by `spaces`.
std::string indent(const std::string& text, int spaces) {
  std::string pad(static_cast<std::size_t>(spaces), ' ');
  std::string out = pad;
  for (char c : text) {
    out += c;
    if (c == '\n')
      out += pad;
  }
  return out;
}

struct sensor_run {
  std::shared_ptr<const dsl::sensor> manifest;
  std::unique_ptr<sensor_core> core;
  std::string error;
  /// Per trigger: its executor, or why there is none.
  std::vector<std::unique_ptr<trigger_executor>> executors;
  std::vector<std::string> executor_errors;
};

} // namespace

struct dry_run::impl {
  std::vector<sensor_run> sensors;
  std::shared_ptr<const secret_store> secrets;
  metrics_registry metrics; ///< executors register their series here; never exported
  std::size_t failed = 0;
};

dry_run::dry_run(const std::vector<dsl::document>& documents, const trigger_registry& registry,
                 const std::string& secrets_dir)
  : impl_(std::make_unique<impl>()) {
  auto triggers = registry;
  add_engine_triggers(triggers);
  impl_->secrets = std::make_shared<const secret_store>(secrets_dir);
  sensor_options no_dedup;
  no_dedup.dedup_window = std::chrono::milliseconds{0};
  for (const auto& doc : documents) {
    auto s = std::get_if<dsl::sensor>(&doc.body);
    if (!s)
      continue;
    sensor_run run;
    run.manifest = std::make_shared<const dsl::sensor>(*s);
    try {
      run.core = std::make_unique<sensor_core>(*run.manifest, nullptr, no_dedup);
    } catch (const std::exception& ex) {
      run.error = ex.what();
    }
    for (const auto& t : run.manifest->spec.triggers) {
      const auto* action = action_of(t);
      auto type = action ? action->type : std::string{};
      auto factory = triggers.find(type);
      std::unique_ptr<trigger_executor> executor;
      std::string why;
      if (factory == triggers.end()) {
        why = type + " triggers are not run by ganglion yet — see docs/compatibility.md";
      } else {
        trigger_context ctx;
        ctx.sensor_name = run.manifest->metadata.argo_name();
        ctx.sensor_namespace = run.manifest->metadata.namespace_;
        ctx.sensor_service_account = run.manifest->spec.service_account_name;
        ctx.manifest = &t;
        ctx.secrets = impl_->secrets;
        ctx.metrics = &impl_->metrics;
        ctx.dry_run = true;
        try {
          executor = create_trigger_executor(factory->second, ctx);
        } catch (const std::exception& ex) {
          why = ex.what();
        }
      }
      run.executors.push_back(std::move(executor));
      run.executor_errors.push_back(std::move(why));
    }
    impl_->sensors.push_back(std::move(run));
  }
}

dry_run::~dry_run() = default;

std::string dry_run::process(event e) {
  auto ptr = std::make_shared<const event>(std::move(e));
  std::string out;
  bool anyone = false;
  for (auto& run : impl_->sensors) {
    const auto& name = run.manifest->metadata.name;
    if (!run.core) {
      out += fmt::format("  sensor {}: cannot run: {}\n", name, run.error);
      continue;
    }
    std::vector<firing> firings;
    std::vector<dependency_verdict> verdicts;
    run.core->process(ptr, firings, &verdicts);
    if (verdicts.empty())
      continue;
    anyone = true;
    out += fmt::format("  sensor {}\n", name);
    for (const auto& v : verdicts) {
      const auto& dep = run.core->dependencies()[v.dependency].name;
      out += v.pass ? fmt::format("    dependency {}: pass\n", dep)
                    : fmt::format("    dependency {}: REJECTED — {}\n", dep, v.reason);
    }
    std::vector<bool> fired(run.core->triggers().size());
    for (const auto& f : firings) {
      fired[f.trigger] = true;
      const auto& trig = run.core->triggers()[f.trigger];
      auto& executor = run.executors[f.trigger];
      if (!executor) {
        out += fmt::format("    trigger {} would fire, but cannot run: {}\n", trig.name,
                           run.executor_errors[f.trigger]);
        ++impl_->failed;
        continue;
      }
      std::string preview;
      try {
        preview = executor->preview(f.invocation);
      } catch (const std::exception& ex) {
        preview = fmt::format("(the request cannot be built: {})", ex.what());
        ++impl_->failed;
      }
      out += fmt::format("    trigger {} fires:\n{}\n", trig.name, indent(preview, 6));
    }
    for (std::size_t t = 0; t < fired.size(); ++t) {
      const auto& trig = run.core->triggers()[t];
      if (fired[t])
        continue;
      std::vector<std::string> holding;
      for (std::size_t var = 0; var < trig.present.size(); ++var)
        if (trig.present[var])
          holding.push_back(trig.condition->variables()[var]);
      if (!holding.empty())
        out += fmt::format("    trigger {} waits: condition \"{}\" holds events for: {}\n",
                           trig.name, trig.condition->text(), fmt::join(holding, ", "));
    }
  }
  if (!anyone)
    out += fmt::format("  no sensor has a dependency on {}/{}\n", ptr->source, ptr->subject);
  return out;
}

std::size_t dry_run::failed_firings() const noexcept {
  return impl_->failed;
}

} // namespace ganglion::core
