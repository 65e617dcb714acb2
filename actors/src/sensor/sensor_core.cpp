#include "sensor/sensor_core.hpp"

#include "ganglion/core/internal/event_view.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace ganglion::core {

namespace {


void count_rejection(compiled_dependency& dep, const dependency_verdict& verdict) {
  bool error = verdict.reason.find("error") != std::string::npos;
  (error ? dep.errored : dep.rejected)->inc();
  auto& by_kind = dep.rejected_by_kind[verdict.kind];
  if (!by_kind)
    by_kind = &dep.metrics->get_counter(
      "ganglion_dependency_rejections_total", "Events a dependency rejected, by filter kind",
      {{"sensor", dep.sensor_name}, {"dependency", dep.name}, {"kind", verdict.kind}});
  by_kind->inc();
}

/// A transformed copy of an event, with the event it came from.
struct derived_event {
  event e;
  event_ptr from;
};

// The parsers of this thread, shared by every sensor it runs: one parse is in use at a time,
// and one warm buffer beats a cold 25 KB buffer per sensor (10k sensors: 250 MB, all misses).
simdjson::dom::parser& event_parser() {
  thread_local simdjson::dom::parser parser;
  return parser;
}

simdjson::dom::parser& transform_parser() {
  thread_local simdjson::dom::parser parser;
  return parser;
}

} // namespace

sensor_core::sensor_core(const dsl::sensor& manifest, metrics_registry* metrics,
                         sensor_options options)
  : sensor_name_(manifest.metadata.name),
    namespace_(manifest.metadata.namespace_),
    dedup_(options.dedup_window, options.dedup_capacity) {
  if (metrics)
    duplicate_counter_ = &metrics->get_counter(
      "ganglion_sensor_duplicates_total",
      "Events skipped because their id was processed within the dedup window",
      {{"sensor", sensor_name_}});
  const auto& spec = manifest.spec;
  std::unordered_map<std::string, std::size_t> by_name;
  for (const auto& dep : spec.dependencies) {
    compiled_dependency c;
    c.name = dep.name;
    c.event_source_name = dep.event_source_name;
    c.event_name = dep.event_name;
    c.filters_or = dep.filters_logical_operator == "or";
    if (dep.filters) {
      const auto& f = *dep.filters;
      auto compile = [&](const char* kind, auto&& build) {
        try {
          build();
        } catch (const std::exception& ex) {
          throw std::runtime_error(
            fmt::format("dependency '{}': {} filter: {}", dep.name, kind, ex.what()));
        }
      };
      c.compiled = dep.precompiled;
      if (!c.compiled)
        try {
          c.compiled = dsl::precompile_filters(f);
        } catch (const std::exception& ex) {
          throw std::runtime_error(fmt::format("dependency '{}': {}", dep.name, ex.what()));
        }
      if (f.context)
        c.context = *f.context;
      if (f.time)
        compile("time", [&] { c.time.emplace(*f.time); });
      if (!f.script.empty())
        compile("script", [&] { c.script.emplace(f.script, options.script_budget); });
    }
    if (dep.transform) {
      // Argo checks jq first: when both are set, jq wins.
      try {
        if (!dep.transform->jq.empty())
          c.jq.emplace(dep.transform->jq, options.script_budget);
        else if (!dep.transform->script.empty())
          c.lua.emplace(dep.transform->script, options.script_budget);
      } catch (const std::exception& ex) {
        throw std::runtime_error(fmt::format("dependency '{}': transform: {}", dep.name, ex.what()));
      }
    }
    c.budgeted = c.script || c.jq || c.lua || (c.compiled && c.compiled->builds_json());
    if (metrics) {
      auto series = [&](const char* result) {
        return labels{{"sensor", sensor_name_}, {"dependency", dep.name}, {"result", result}};
      };
      const char* help = "Events evaluated by a dependency's filters, by result";
      c.passed = &metrics->get_counter("ganglion_dependency_events_total", help, series("pass"));
      c.rejected = &metrics->get_counter("ganglion_dependency_events_total", help, series("fail"));
      c.errored = &metrics->get_counter("ganglion_dependency_events_total", help, series("error"));
      if (c.budgeted)
        c.cut_off = &metrics->get_counter(
          "ganglion_script_cut_offs_total",
          "Runs of a dependency's script (transform, script filter) or filter path cut off by "
          "their budget (--script-budget, the path evaluation budget)",
          {{"sensor", sensor_name_}, {"dependency", dep.name}});
      c.metrics = metrics;
      c.sensor_name = sensor_name_;
    }
    by_name.emplace(dep.name, dependencies_.size());
    index_.at_or_add(dep.event_source_name, dep.event_name).push_back(dependencies_.size());
    dependencies_.push_back(std::move(c));
  }
  users_.resize(dependencies_.size());
  matched_.resize(dependencies_.size());
  matched_event_.resize(dependencies_.size());

  std::vector<std::string> all_names;
  for (const auto& dep : dependencies_)
    all_names.push_back(dep.name);
  for (const auto& trig : spec.triggers) {
    const auto& tmpl = trig.template_;
    compiled_trigger t;
    t.name = tmpl.name;
    try {
      if (tmpl.compiled_conditions)
        t.condition = tmpl.compiled_conditions;
      else
        t.condition = std::make_shared<const dsl::condition>(
          tmpl.conditions.empty() ? dsl::condition::all_of(all_names)
                                  : dsl::condition::parse(tmpl.conditions));
    } catch (const std::exception& ex) {
      throw std::runtime_error(fmt::format("trigger '{}': conditions: {}", tmpl.name, ex.what()));
    }
    for (const auto& var : t.condition->variables()) {
      auto it = by_name.find(var);
      if (it == by_name.end())
        throw std::runtime_error(fmt::format(
          "trigger '{}': conditions name unknown dependency '{}'", tmpl.name, var));
      users_[it->second].emplace_back(triggers_.size(), t.variable_dependency.size());
      t.variable_dependency.push_back(it->second);
    }
    t.held.resize(t.variable_dependency.size());
    t.present.resize(t.variable_dependency.size());
    triggers_.push_back(std::move(t));
  }
}

std::vector<std::pair<std::string, std::string>> sensor_core::subscriptions() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& dep : dependencies_) {
    std::pair<std::string, std::string> entry{dep.event_source_name, dep.event_name};
    if (std::find(out.begin(), out.end(), entry) == out.end())
      out.push_back(std::move(entry));
  }
  return out;
}

bool sensor_core::accepts(compiled_dependency& dep, const dsl::event_view& view,
                          dependency_verdict& verdict) {
  // Argo's filterEvent: each configured filter kind in order; AND stops at the first error,
  // OR passes when any configured kind passes (errors of the others are only reported).
  bool any_configured = false;
  bool any_pass = false;
  bool all_pass = true;
  std::vector<std::string> problems;
  auto apply = [&](const char* kind, const dsl::filter_outcome& outcome) {
    any_configured = true;
    any_pass |= outcome.pass;
    all_pass &= outcome.pass;
    if (outcome.pass)
      return true;
    if (verdict.kind.empty()) {
      verdict.kind = kind;
      const auto& text = !outcome.error.empty()    ? outcome.error
                         : !outcome.reason.empty() ? outcome.reason
                                                   : std::string{"rejected the event"};
      auto prefix = fmt::format("{} filter", kind);
      verdict.reason = text.rfind(prefix, 0) == 0 ? text : prefix + ": " + text;
    }
    verdict.cut_off |= outcome.cut_off;
    if (!outcome.error.empty())
      problems.push_back(fmt::format("{} filter: {}", kind, outcome.error));
    return dep.filters_or || outcome.error.empty();
  };
  const auto* compiled = dep.compiled.get();
  if (compiled && compiled->exprs && !apply("expr", compiled->exprs->evaluate(view)))
    return false;
  if (compiled && compiled->data && !apply("data", compiled->data->evaluate(view)))
    return false;
  if (dep.context && !apply("context", dsl::evaluate_context_filter(*dep.context, view)))
    return false;
  if (dep.time && !apply("time", dep.time->evaluate(view)))
    return false;
  if (dep.script && !apply("script", dep.script->evaluate(view)))
    return false;
  if (!any_configured)
    return true;
  bool pass = dep.filters_or ? any_pass : all_pass;
  if (pass) {
    verdict.kind.clear();
    verdict.reason.clear();
  } else if (dep.filters_or && !problems.empty()) {
    verdict.reason = fmt::format("{}", fmt::join(problems, "; "));
  }
  return pass;
}

event_ptr sensor_core::transformed(compiled_dependency& dep, const event_ptr& e,
                                   const dsl::event_view& view, dsl::event_view& out,
                                   dependency_verdict& verdict) {
  std::string data;
  try {
    data = dep.jq ? dep.jq->apply(view) : dep.lua->apply(view);
  } catch (const dsl::budget_exceeded& ex) {
    verdict.kind = "transform";
    verdict.reason = fmt::format("{} transform: {}", dep.jq ? "jq" : "lua", ex.what());
    verdict.cut_off = true;
    return nullptr;
  } catch (const std::exception& ex) {
    verdict.kind = "transform";
    verdict.reason = fmt::format("{} transform: {}", dep.jq ? "jq" : "lua", ex.what());
    return nullptr;
  }
  if (data.empty()) {
    out = view;
    return e;
  }
  // The transformed event keeps its source alive: whoever holds it (a join, a firing) also
  // holds the event the bus delivered, which is what the durable bus tracks.
  auto derived = std::make_shared<derived_event>(derived_event{*e, e});
  derived->e.data = std::move(data);
  derived->e.datacontenttype = "application/json";
  event_ptr copy{derived, &derived->e};
  out = context_view(*copy);
  auto parsed = transform_parser().parse(copy->data);
  if (!parsed.error()) {
    out.data = parsed.value_unsafe();
    out.data_is_json = true;
  }
  return copy;
}

void sensor_core::process(const event_ptr& e, std::vector<firing>& out,
                          std::vector<dependency_verdict>* verdicts) {
  const auto* routed = index_.find(e->source, e->subject);
  if (!routed || !same_namespace(*e))
    return;
  if (dedup_.seen_before(e->id, dedup_window::clock::now())) {
    ++duplicates_;
    if (duplicate_counter_)
      duplicate_counter_->inc();
    return;
  }
  auto view = context_view(*e);
  if (e->datacontenttype == "application/json" && !e->data.empty()) {
    auto parsed = event_parser().parse(e->data);
    if (!parsed.error()) {
      view.data = parsed.value_unsafe();
      view.data_is_json = true;
    }
  }
  bool any = false;
  for (auto d : *routed) {
    auto& dep = dependencies_[d];
    dependency_verdict verdict;
    verdict.dependency = d;
    bool pass = false;
    if (dep.jq || dep.lua) {
      dsl::event_view changed;
      matched_event_[d] = transformed(dep, e, view, changed, verdict);
      pass = matched_event_[d] && accepts(dep, changed, verdict);
    } else {
      matched_event_[d] = e;
      pass = accepts(dep, view, verdict);
    }
    verdict.pass = pass;
    if (verdict.cut_off) {
      ++consecutive_cut_offs_;
      last_cut_off_ = fmt::format("dependency '{}': {}", dep.name, verdict.reason);
      if (dep.cut_off)
        dep.cut_off->inc();
    } else if (dep.budgeted) {
      consecutive_cut_offs_ = 0;
    }
    matched_[d] = pass;
    any |= pass;
    if (pass && dep.passed)
      dep.passed->inc();
    else if (!pass && dep.metrics)
      count_rejection(dep, verdict);
    if (verdicts)
      verdicts->push_back(std::move(verdict));
  }
  if (!any) {
    for (auto d : *routed)
      matched_event_[d].reset();
    return;
  }
  // Each trigger fires at most once per event, whichever of its dependencies matched.
  auto& touched = touched_;
  touched.clear();
  for (auto d : *routed) {
    if (!matched_[d])
      continue;
    for (auto [t, var] : users_[d]) {
      auto& trig = triggers_[t];
      trig.held[var] = matched_event_[d];
      trig.present[var] = 1;
      if (std::find(touched.begin(), touched.end(), t) == touched.end())
        touched.push_back(t);
    }
  }
  for (auto t : touched) {
    auto& trig = triggers_[t];
    if (!trig.condition->evaluate(trig.present))
      continue;
    // Built in place, the held events moved into it: no copy of the firing, no count traffic.
    auto& f = out.emplace_back();
    f.trigger = t;
    for (std::size_t var = 0; var < trig.held.size(); ++var)
      if (trig.present[var])
        f.invocation.events.emplace(dependencies_[trig.variable_dependency[var]].name,
                                    std::move(trig.held[var]));
    std::fill(trig.held.begin(), trig.held.end(), nullptr);
    std::fill(trig.present.begin(), trig.present.end(), 0);
  }
  for (auto d : *routed) {
    matched_[d] = 0;
    matched_event_[d].reset();
  }
}

std::vector<held_event_ref> sensor_core::held() const {
  std::vector<held_event_ref> out;
  for (const auto& trig : triggers_)
    for (std::size_t var = 0; var < trig.held.size(); ++var)
      if (trig.present[var])
        out.push_back(
          {trig.name, dependencies_[trig.variable_dependency[var]].name, trig.held[var]});
  return out;
}

bool sensor_core::hold(const std::string& trigger, const std::string& dependency, event_ptr e) {
  for (auto& trig : triggers_) {
    if (trig.name != trigger)
      continue;
    for (std::size_t var = 0; var < trig.held.size(); ++var) {
      if (dependencies_[trig.variable_dependency[var]].name != dependency)
        continue;
      trig.held[var] = std::move(e);
      trig.present[var] = 1;
      return true;
    }
  }
  return false;
}

void sensor_core::reset() {
  for (std::size_t t = 0; t < triggers_.size(); ++t)
    reset_trigger(t);
}

void sensor_core::reset_trigger(std::size_t index) {
  auto& trig = triggers_.at(index);
  std::fill(trig.held.begin(), trig.held.end(), nullptr);
  std::fill(trig.present.begin(), trig.present.end(), 0);
}

} // namespace ganglion::core
