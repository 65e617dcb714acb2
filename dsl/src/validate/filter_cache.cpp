#include "validate/filter_cache.hpp"

namespace ganglion::dsl::detail {

namespace {

/// Appends `text` length-prefixed, so that no two different filters give the same key.
void put(std::string& key, const std::string& text) {
  key += std::to_string(text.size());
  key += ':';
  key += text;
}

/// Everything the compiled data and expr filters are built from.
std::string key_of(const dependency_filter& f) {
  std::string key;
  put(key, f.data_logical_operator);
  key += std::to_string(f.data.size()) + 'd';
  for (const auto& d : f.data) {
    put(key, d.path);
    put(key, d.type);
    put(key, d.comparator);
    put(key, d.template_);
    key += std::to_string(d.value.size()) + 'v';
    for (const auto& v : d.value)
      put(key, v);
  }
  put(key, f.expr_logical_operator);
  key += std::to_string(f.exprs.size()) + 'e';
  for (const auto& e : f.exprs) {
    put(key, e.expr);
    key += std::to_string(e.fields.size()) + 'f';
    for (const auto& field : e.fields) {
      put(key, field.name);
      put(key, field.path);
    }
  }
  return key;
}

} // namespace

std::shared_ptr<const precompiled_filters> filter_cache::get(const dependency_filter& f) {
  auto key = key_of(f);
  if (auto it = by_text_.find(key); it != by_text_.end())
    return it->second;
  auto compiled = precompile_filters(f);
  by_text_.emplace(std::move(key), compiled);
  return compiled;
}

} // namespace ganglion::dsl::detail
