// The jq transform on libjq 1.6 (Argo uses gojq: first output only, which must be an object).

#include <algorithm>
#include <cctype>
#include <climits>
#include <stdexcept>

extern "C" {
#include <jq.h>
#include <jv.h>
}

#include <fmt/format.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/script/jq_transform.hpp"
#include "script/jq_watchdog.hpp"

namespace ganglion::dsl {

namespace {

// Consumes `value`; a string's text, any other value's JSON.
std::string text_of(jv value) {
  if (jv_get_kind(value) != JV_KIND_STRING)
    value = jv_dump_string(value, 0);
  const auto size = static_cast<std::size_t>(jv_string_length_bytes(jv_copy(value)));
  std::string text(jv_string_value(value), size);
  jv_free(value);
  return text;
}

// Consumes `invalid`; the message it carries.
std::string message_of(jv invalid) {
  return text_of(jv_invalid_get_msg(invalid));
}

// Keeps jq's messages on one line, without its closing "jq: N compile error(s)" summary.
void collect_error(void* data, jv message) {
  auto& errors = *static_cast<std::string*>(data);
  std::string text = text_of(message);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.pop_back();
  if (text.find("compile error") != std::string::npos && text.find("error:") == std::string::npos)
    return;
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (!errors.empty())
    errors += "; ";
  errors += text;
}

// The program with `env`, `$ENV` (the process's environment: credentials) and `stderr` (writes
// event data to the engine's log) shadowed. On the program's first line, so jq's line numbers
// stay right; the closing parenthesis on a line of its own, after any trailing comment.
std::string sandboxed(const std::string& program) {
  return "def env: {}; def stderr: .; {} as $ENV | (" + program + "\n)";
}

} // namespace

struct jq_transform::impl {
  jq_state* jq = nullptr;
  std::string errors;
  std::chrono::milliseconds budget;

  ~impl() {
    if (jq)
      jq_teardown(&jq);
  }
};

jq_transform::jq_transform(const std::string& program, std::chrono::milliseconds budget)
  : impl_(std::make_unique<impl>()) {
  impl_->budget = budget;
  impl_->jq = jq_init();
  if (!impl_->jq)
    throw compile_error("cannot create a jq state", 0);
  jq_set_error_cb(impl_->jq, collect_error, &impl_->errors);
  // No module search path: `import` and `include` cannot read files.
  jq_set_attr(impl_->jq, jv_string("JQ_LIBRARY_PATH"), jv_array());
  if (!jq_compile(impl_->jq, sandboxed(program).c_str()))
    throw compile_error(impl_->errors.empty() ? "jq: compile error" : impl_->errors, 0);
  impl_->errors.clear();
}

std::string jq_compile_error(const std::string& program) {
  try {
    jq_transform compiled{program};
  } catch (const compile_error& e) {
    return e.what();
  }
  return {};
}

jq_transform::~jq_transform() = default;
jq_transform::jq_transform(jq_transform&&) noexcept = default;
jq_transform& jq_transform::operator=(jq_transform&&) noexcept = default;

std::string jq_transform::apply(const event_view& event) const {
  if (!event.data_is_json && event.data_raw.empty())
    return {};
  if (event.data_raw.size() > INT_MAX)
    throw std::runtime_error("event data is too large for jq");
  jv input = jv_parse_sized(event.data_raw.data(), static_cast<int>(event.data_raw.size()));
  if (!jv_is_valid(input))
    throw std::runtime_error(fmt::format("event data is not valid JSON: {}", message_of(input)));
  if (jv_get_kind(input) != JV_KIND_OBJECT) {
    jv_free(input);
    throw std::runtime_error("event data is not a JSON object");
  }
  jq_start(impl_->jq, input, 0);
  auto& dog = jq::watchdog::instance();
  auto ticket = dog.watch(impl_->jq, jq::watchdog::clock::now() + impl_->budget);
  jv output = jq_next(impl_->jq);
  if (dog.release(ticket)) {
    jv_free(output);
    throw budget_exceeded(
        fmt::format("cut off after its time budget of {} ms", impl_->budget.count()));
  }
  if (!jv_is_valid(output)) {
    if (jv_invalid_has_msg(jv_copy(output)))
      throw std::runtime_error(fmt::format("jq: {}", message_of(output)));
    jv_free(output);
    throw std::runtime_error("no output available from the jq command execution");
  }
  if (jv_get_kind(output) != JV_KIND_OBJECT) {
    const char* kind = jv_kind_name(jv_get_kind(output));
    jv_free(output);
    throw std::runtime_error(
        fmt::format("jq transformation output must be a JSON object, not {}", kind));
  }
  return text_of(jv_dump_string(output, 0));
}

} // namespace ganglion::dsl
