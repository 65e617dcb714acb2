#include "source/listing_diff.hpp"

#include <map>
#include <string>

namespace ganglion::file {

listing_diff diff_listings(const std::vector<remote_file>& before,
                           const std::vector<remote_file>& now) {
  std::map<std::string, const remote_file*> current;
  for (const auto& f : now)
    current.emplace(f.name, &f);
  listing_diff out;
  for (const auto& old : before) {
    auto it = current.find(old.name);
    if (it == current.end()) {
      out.removed.push_back(old);
      continue;
    }
    if (it->second->size != old.size || it->second->mtime != old.mtime)
      out.created.push_back(*it->second);
    current.erase(it);
  }
  for (const auto& f : now)
    if (current.count(f.name))
      out.created.push_back(f);
  return out;
}

} // namespace ganglion::file
