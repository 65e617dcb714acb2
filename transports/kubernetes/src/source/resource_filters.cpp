#include "source/resource_filters.hpp"

namespace ganglion::kubernetes::detail {

resource_filters::resource_filters(const std::optional<resource_filter>& filter,
                                   time_point start)
  : filter_(filter), start_(start) {
  if (filter_ && !filter_->fields.empty())
    fields_.emplace(filter_->fields);
}

bool resource_filters::pass(simdjson::dom::element object, std::string_view type,
                            time_point now) const {
  if (!filter_)
    return true;
  const auto& f = *filter_;
  if (!f.prefix.empty()) {
    std::string_view name;
    if (object["metadata"]["name"].get(name) != simdjson::SUCCESS || !name.starts_with(f.prefix))
      return false;
  }
  if (f.after_start && event_time(object, type, now) < start_)
    return false;
  if (f.created_by && creation_time(object) > *f.created_by)
    return false;
  return !fields_ || fields_->matches(object);
}

} // namespace ganglion::kubernetes::detail
