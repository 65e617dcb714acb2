// `argoWorkflow.args`: Argo appends them to its `argo` command line; ganglion has no CLI and
// maps the flags of `argo submit` that set something on the submitted Workflow. The flags that
// only change what the CLI prints (`--node-field-selector`, `--status`, `-o`) are taken and
// have no effect, as the Workflow Argo submits is the same with or without them.

#include <optional>

#include <fmt/format.h>

#include "ganglion/kubernetes/spec.hpp"

namespace ganglion::kubernetes {

namespace {

/// The flags taken, by every spelling: short, long; each takes a value.
struct flag {
  const char* short_name; ///< without `-`; empty: none
  const char* long_name;  ///< without `--`
  bool display_only = false; ///< changes only what `argo submit` prints
};

constexpr flag flags[] = {{"p", "parameter"},
                          {"", "entrypoint"},
                          {"", "serviceaccount"},
                          {"", "name"},
                          {"", "generate-name"},
                          {"l", "labels"},
                          {"", "node-field-selector", true},
                          {"", "status", true},
                          {"o", "output", true}};

/// The flag `arg` names, and its value when given in the same argument (`-pX`, `-p=X`,
/// `--parameter=X`); nullptr when it names none of `flags`.
const flag* match(const std::string& arg, std::optional<std::string>& inline_value) {
  for (const auto& f : flags) {
    const std::string long_form = std::string{"--"} + f.long_name;
    if (arg == long_form)
      return &f;
    if (arg.rfind(long_form + "=", 0) == 0) {
      inline_value = arg.substr(long_form.size() + 1);
      return &f;
    }
    if (*f.short_name == 0)
      continue;
    const std::string short_form = std::string{"-"} + f.short_name;
    if (arg == short_form)
      return &f;
    if (arg.size() > 2 && arg.rfind(short_form, 0) == 0 && arg[1] != '-') {
      inline_value = arg.substr(arg[2] == '=' ? 3 : 2);
      return &f;
    }
  }
  return nullptr;
}

/// `k=v`, split at the first `=`; nullopt without one.
std::optional<std::pair<std::string, std::string>> key_value(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return std::nullopt;
  return std::pair{text.substr(0, eq), text.substr(eq + 1)};
}

} // namespace

workflow_args map_workflow_args(const std::vector<std::string>& args, const std::string& operation,
                                std::vector<workflow_arg_problem>& problems) {
  workflow_args out;
  const bool submits = operation == "submit" || operation == "submit-from";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& arg = args[i];
    std::optional<std::string> value;
    const flag* f = submits ? match(arg, value) : nullptr;
    if (f == nullptr) {
      problems.push_back(
        {i, submits ? fmt::format("argo submit argument \"{}\" has no equivalent in the Workflow "
                                  "object; ganglion maps -p/--parameter, --entrypoint, "
                                  "--serviceaccount, --name, --generate-name and -l/--labels "
                                  "(and takes --node-field-selector, --status and -o, which "
                                  "only change what argo prints)",
                                  arg)
                    : fmt::format("argument \"{}\" of argo {} has no equivalent through the "
                                  "Kubernetes API (ganglion maps args of submit and submit-from "
                                  "only)",
                                  arg, operation.empty() ? "submit" : operation)});
      continue;
    }
    if (!value) {
      if (i + 1 == args.size()) {
        problems.push_back({i, fmt::format("\"{}\" needs a value", arg)});
        continue;
      }
      value = args[++i];
    }
    const std::string name = f->long_name;
    if (f->display_only)
      continue;
    if (name == "parameter") {
      if (auto kv = key_value(*value))
        out.parameters.push_back(std::move(*kv));
      else
        problems.push_back(
          {i, fmt::format("expected a parameter of the form NAME=VALUE, got \"{}\"", *value)});
    } else if (name == "labels") {
      std::size_t start = 0;
      while (start <= value->size()) {
        auto end = value->find(',', start);
        auto item = value->substr(start, end == std::string::npos ? end : end - start);
        if (auto kv = key_value(item))
          out.labels[kv->first] = kv->second;
        else
          problems.push_back(
            {i, fmt::format("expected labels of the form KEY=VALUE[,KEY=VALUE], got \"{}\"",
                            *value)});
        if (end == std::string::npos)
          break;
        start = end + 1;
      }
    } else if (name == "entrypoint") {
      out.entrypoint = *value;
    } else if (name == "serviceaccount") {
      out.service_account = *value;
    } else if (name == "name") {
      out.name = *value;
    } else {
      out.generate_name = *value;
    }
  }
  return out;
}

} // namespace ganglion::kubernetes
