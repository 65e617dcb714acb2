#pragma once

#include <string>
#include <vector>

#include "commands.hpp"
#include "ganglion/core/event.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::app {

/// Reads a CloudEvent from a JSON file: `source` and `subject` are required; `data` may be any
/// JSON value (kept as JSON text) or, with a non-JSON content type, a string; `id`, `type`,
/// `time`, `datacontenttype` and `specversion` have defaults. Throws std::runtime_error with
/// the reason.
core::event read_event_file(const std::string& path);

/// The event webhook `--source`/`--subject` publishes for a POST of the `--body` file with the
/// `--header`s (Content-Type application/json and Content-Length unless given, as the load
/// generator sends them; its `{{seq}}` and `{{send_ns}}` filled in), with that webhook's
/// metadata from `documents`. Throws std::runtime_error with the reason.
core::event read_body_event(const test_options& options,
                            const std::vector<dsl::document>& documents);

} // namespace ganglion::app
