#pragma once

// Synthetic events for the dependencies of an Argo corpus Sensor: what the corpus trigger test
// (corpus_triggers_test.cpp) feeds each Sensor so that its triggers fire.

#include <map>
#include <string>
#include <vector>

#include "ganglion/core/event.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::test::corpus {

/// Events for dependency `dep` of `sensor`, each a candidate to pass its filters: the data holds
/// every `dataKey` (and `.Input.<path>` of a `dataTemplate`) that the sensor's triggers read
/// from `dep`, the paths its transform reads or writes (`event.<path>` of a script, `.<path>`
/// of a jq expression; strings inside objects), the values its data filters ask for (a number just past a `>`/`<`/`!=` bound),
/// the `event.<path> == "<text>"` comparisons of its script filter, and — one candidate per
/// combination — the literals of its expr filters for their fields and a time of day at
/// every hour (HH:45:00 UTC today) for a time filter. The context filter's `type` and
/// `datacontenttype` are set; `source` and `subject` are the dependency's EventSource and
/// event. `fixed` (data path → string) is set in every candidate, over what the triggers read.
/// At most 600 candidates; each has its own id.
std::vector<core::event> candidate_events(const dsl::sensor& sensor,
                                          const dsl::event_dependency& dep,
                                          const std::map<std::string, std::string>& fixed = {});

} // namespace ganglion::test::corpus
