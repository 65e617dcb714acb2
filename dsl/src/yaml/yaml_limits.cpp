#include "ganglion/dsl/kind/yaml_limits.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

namespace ganglion::dsl::detail {

namespace {

/// Thrown by the counter to stop the parse where a limit is hit.
struct limit_hit {
  YAML::Mark mark;
  std::string message;
};

/// What a node costs once expanded: its nodes and its levels (1 for a scalar).
struct cost {
  std::size_t nodes = 1;
  int depth = 1;
};

class cost_counter final : public YAML::EventHandler {
public:
  explicit cost_counter(const load_options& options) : options_(options) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    // yaml-cpp 0.7 does not consume a ',' after a document's root: it starts empty documents at
    // the same place for ever (YAML::LoadAll then never returns and its memory grows).
    if (mark.pos == last_document_start_)
      throw limit_hit{mark, "',' outside a flow collection ([...] or {...}) after the end of the "
                            "document"};
    last_document_start_ = mark.pos;
    anchors_.clear();
    names_.clear();
  }
  void OnDocumentEnd() override {}

  void OnAnchor(const YAML::Mark&, const std::string& name) override { pending_name_ = name; }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { leaf(mark, anchor); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string&) override {
    leaf(mark, anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end())
      throw limit_hit{mark, "recursive alias " + alias_name(anchor)
                              + " (it refers to a node that contains it)"};
    const auto& expanded = it->second;
    if (static_cast<int>(open_.size()) + expanded.depth > options_.max_depth)
      throw limit_hit{mark, "alias " + alias_name(anchor) + " expands to nesting deeper than "
                              + std::to_string(options_.max_depth) + " levels"};
    add(mark, expanded.nodes,
        "alias expansion exceeds " + std::to_string(options_.max_nodes) + " nodes (alias "
          + alias_name(anchor) + ")");
    finish(expanded, 0);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnMapEnd() override { close(); }

private:
  struct open_node {
    YAML::anchor_t anchor;
    cost so_far;
  };

  std::string alias_name(YAML::anchor_t anchor) const {
    auto it = names_.find(anchor);
    return it == names_.end() ? std::string{"*?"} : "*" + it->second;
  }

  void name(YAML::anchor_t anchor) {
    if (anchor != 0 && !pending_name_.empty())
      names_[anchor] = pending_name_;
    pending_name_.clear();
  }

  void enter(const YAML::Mark& mark) {
    if (static_cast<int>(open_.size()) + 1 > options_.max_depth)
      throw limit_hit{mark, "nesting deeper than " + std::to_string(options_.max_depth)
                              + " levels"};
    add(mark, 1,
        "the file has more than " + std::to_string(options_.max_nodes) + " YAML nodes");
  }

  void leaf(const YAML::Mark& mark, YAML::anchor_t anchor) {
    name(anchor);
    enter(mark);
    finish(cost{}, anchor);
  }

  void open(const YAML::Mark& mark, YAML::anchor_t anchor) {
    name(anchor);
    enter(mark);
    open_.push_back(open_node{anchor, cost{}});
  }

  void close() {
    auto done = open_.back();
    open_.pop_back();
    finish(done.so_far, done.anchor);
  }

  /// Counts `nodes` more; the limit is checked before adding, so the total cannot overflow.
  void add(const YAML::Mark& mark, std::size_t nodes, const std::string& message) {
    if (nodes > options_.max_nodes - std::min(total_, options_.max_nodes))
      throw limit_hit{mark, message};
    total_ += nodes;
  }

  /// A node (or an alias) of cost `c` is complete: it counts in its parent, and as its anchor.
  void finish(const cost& c, YAML::anchor_t anchor) {
    if (anchor != 0)
      anchors_[anchor] = c;
    if (!open_.empty()) {
      auto& parent = open_.back().so_far;
      parent.nodes += c.nodes;
      parent.depth = std::max(parent.depth, c.depth + 1);
    }
  }

  const load_options& options_;
  std::size_t total_ = 0;
  std::vector<open_node> open_;
  std::map<YAML::anchor_t, cost> anchors_;
  std::map<YAML::anchor_t, std::string> names_;
  std::string pending_name_;
  int last_document_start_ = -1;
};

} // namespace

std::optional<diagnostic> check_yaml_limits(const std::string& text, const std::string& file,
                                            const load_options& options) {
  std::istringstream in{text};
  cost_counter counter{options};
  try {
    YAML::Parser parser{in};
    while (parser.HandleNextDocument(counter)) {
    }
  } catch (const limit_hit& hit) {
    diagnostic d;
    d.where = source_location{file, hit.mark.line >= 0 ? hit.mark.line + 1 : 0,
                              hit.mark.column >= 0 ? hit.mark.column + 1 : 0};
    d.message = hit.message;
    return d;
  } catch (const YAML::Exception&) {
    // A syntax error: the parse that follows reports it.
  }
  return std::nullopt;
}

bool may_alias(const std::string& text) {
  return text.find('*') != std::string::npos;
}

bool may_stall(const std::string& text) {
  return text.find(',') != std::string::npos;
}

bool count_nodes(const YAML::Node& node, int depth, std::size_t& nodes,
                 const load_options& options) {
  if (depth > options.max_depth || ++nodes > options.max_nodes)
    return false;
  if (node.IsMap()) {
    for (const auto& pair : node)
      if (!count_nodes(pair.first, depth + 1, nodes, options)
          || !count_nodes(pair.second, depth + 1, nodes, options))
        return false;
  } else if (node.IsSequence()) {
    for (const auto& item : node)
      if (!count_nodes(item, depth + 1, nodes, options))
        return false;
  }
  return true;
}

} // namespace ganglion::dsl::detail
