#include "ganglion/dsl/path/json_path.hpp"

#include <algorithm>

#include "path/json_path_ast.hpp"

namespace ganglion::dsl {

namespace {

// One chain whose nested paths (`#.rest`, query subjects and rests) are such chains too: what it
// builds is bounded by the event, not by the path.
bool linear(const path_ast::path& p) {
  if (p.segments.size() != 1 || p.segments[0].kind != path_ast::segment_kind::chain)
    return false;
  return std::all_of(p.segments[0].chain.begin(), p.segments[0].chain.end(), [](const auto& c) {
    return (!c.rest || linear(*c.rest))
           && (!c.filter || !c.filter->subject || linear(*c.filter->subject));
  });
}

} // namespace

json_path json_path::compile(std::string_view text) {
  json_path out;
  out.impl_->compiled = path_ast::parse(text);
  out.impl_->text = std::string(text);
  const auto& segments = out.impl_->compiled.segments;
  out.impl_->plain =
    segments.size() == 1 && segments[0].kind == path_ast::segment_kind::chain
    && std::all_of(segments[0].chain.begin(), segments[0].chain.end(), [](const auto& c) {
         return c.kind == path_ast::component_kind::key && !c.wild;
       });
  out.impl_->builds = !linear(out.impl_->compiled);
  return out;
}

const std::string& json_path::text() const noexcept {
  return impl_->text;
}

bool json_path::builds() const noexcept {
  return impl_->builds;
}

json_path::json_path() : impl_(std::make_unique<impl>()) {}
json_path::~json_path() = default;
json_path::json_path(const json_path& other) : impl_(std::make_unique<impl>(*other.impl_)) {}
json_path& json_path::operator=(const json_path& other) {
  if (this != &other)
    impl_ = std::make_unique<impl>(*other.impl_);
  return *this;
}
json_path::json_path(json_path&&) noexcept = default;
json_path& json_path::operator=(json_path&&) noexcept = default;

} // namespace ganglion::dsl
