#pragma once

// Not installed: exposes dsl::event_view (simdjson).

#include "ganglion/core/event.hpp"
#include "ganglion/dsl/filter/event_view.hpp"

namespace ganglion::core {

/// The context and raw data of `e` as the dsl evaluators see them; the data is not parsed
/// (`data_is_json` false) — the caller parses it with a parser it owns. `e` must outlive the view.
inline dsl::event_view context_view(const event& e) {
  dsl::event_view view;
  view.id = e.id;
  view.source = e.source;
  view.specversion = e.specversion;
  view.type = e.type;
  view.datacontenttype = e.datacontenttype;
  view.subject = e.subject;
  view.time = e.time;
  view.data_raw = e.data;
  return view;
}

} // namespace ganglion::core
