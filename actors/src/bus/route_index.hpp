#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ganglion::core {

/// Maps an event's (source, subject) — Argo's (eventSourceName, eventName) — to the values
/// routed to it. Lookups take string views and allocate nothing.
template <class T>
class route_index {
public:
  /// The values routed to (source, subject), created empty on first use.
  std::vector<T>& at_or_add(std::string_view source, std::string_view subject) {
    auto it = map_.find(route_ref{source, subject});
    if (it == map_.end())
      it = map_.emplace(route_key{std::string(source), std::string(subject)}, std::vector<T>{})
             .first;
    return it->second;
  }

  /// The values routed to (source, subject); nullptr when none.
  const std::vector<T>* find(std::string_view source, std::string_view subject) const {
    auto it = map_.find(route_ref{source, subject});
    return it == map_.end() ? nullptr : &it->second;
  }

  /// Removes every value for which `drop(value)` holds, and routes left empty.
  template <class Predicate>
  void erase_if(Predicate drop) {
    for (auto it = map_.begin(); it != map_.end();) {
      std::erase_if(it->second, drop);
      it = it->second.empty() ? map_.erase(it) : std::next(it);
    }
  }

  /// Number of distinct routes.
  std::size_t size() const noexcept { return map_.size(); }

private:
  using route_key = std::pair<std::string, std::string>;
  using route_ref = std::pair<std::string_view, std::string_view>;

  struct route_hash {
    using is_transparent = void;
    std::size_t operator()(route_ref r) const noexcept {
      auto h = std::hash<std::string_view>{}(r.first);
      return h ^ (std::hash<std::string_view>{}(r.second) + 0x9e3779b97f4a7c15ULL + (h << 6)
                  + (h >> 2));
    }
    std::size_t operator()(const route_key& k) const noexcept {
      return (*this)(route_ref{k.first, k.second});
    }
  };

  struct route_equal {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const noexcept {
      return std::string_view(a.first) == std::string_view(b.first)
             && std::string_view(a.second) == std::string_view(b.second);
    }
  };

  std::unordered_map<route_key, std::vector<T>, route_hash, route_equal> map_;
};

} // namespace ganglion::core
