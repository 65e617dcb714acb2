#include "body_template.hpp"

#include <fmt/format.h>

namespace ganglion::loadgen {

namespace {

constexpr std::string_view seq_placeholder = "{{seq}}";
constexpr std::string_view send_ns_placeholder = "{{send_ns}}";

} // namespace

body_template::body_template(std::string_view text) {
  while (!text.empty()) {
    auto seq_at = text.find(seq_placeholder);
    auto ns_at = text.find(send_ns_placeholder);
    auto at = std::min(seq_at, ns_at);
    auto literal = text.substr(0, at);
    if (!literal.empty()) {
      parts_.push_back({part_kind::text, std::string(literal)});
      text_size_ += literal.size();
    }
    if (at == std::string_view::npos)
      break;
    if (at == seq_at) {
      parts_.push_back({part_kind::seq, {}});
      ++seq_count_;
      text.remove_prefix(at + seq_placeholder.size());
    } else {
      parts_.push_back({part_kind::send_ns, {}});
      ++send_ns_count_;
      text.remove_prefix(at + send_ns_placeholder.size());
    }
  }
}

std::size_t body_template::rendered_size(std::uint64_t seq, std::int64_t send_ns) const noexcept {
  return text_size_ + seq_count_ * fmt::format_int(seq).size() +
         send_ns_count_ * fmt::format_int(send_ns).size();
}

void body_template::render(std::string& out, std::uint64_t seq, std::int64_t send_ns) const {
  fmt::format_int seq_text(seq);
  fmt::format_int ns_text(send_ns);
  for (const auto& p : parts_) {
    switch (p.kind) {
    case part_kind::text:
      out.append(p.text);
      break;
    case part_kind::seq:
      out.append(seq_text.data(), seq_text.size());
      break;
    case part_kind::send_ns:
      out.append(ns_text.data(), ns_text.size());
      break;
    }
  }
}

std::string_view default_body() {
  return R"({"seq":{{seq}},"action":"opened","number":42,"repository":{"full_name":"argoproj/argo-events","private":false},"sender":{"login":"ganglion-loadgen","type":"User"},"pull_request":{"title":"Load test","state":"open","draft":false}})";
}

} // namespace ganglion::loadgen
