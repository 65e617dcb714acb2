// Context filters with the semantics of Argo's filterContext.

#include "ganglion/dsl/filter/filter_eval.hpp"

namespace ganglion::dsl {

filter_outcome evaluate_context_filter(const event_context& expected, const event_view& event) {
  auto differs = [](const std::string& want, std::string_view got) {
    return !want.empty() && want != got;
  };
  bool pass = !differs(expected.type, event.type) && !differs(expected.subject, event.subject)
              && !differs(expected.source, event.source)
              && !differs(expected.datacontenttype, event.datacontenttype);
  return {pass, {}};
}

} // namespace ganglion::dsl
