#include "client/hook_options.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::gitlab::detail {

namespace {

/// A boolean field: its Go name and its JSON key.
struct flag {
  std::string_view field;
  std::string_view key;
};

/// AddProjectHookOptions' boolean fields, in its order.
constexpr std::array project_flags{
  flag{"ConfidentialIssuesEvents", "confidential_issues_events"},
  flag{"ConfidentialNoteEvents", "confidential_note_events"},
  flag{"DeploymentEvents", "deployment_events"},
  flag{"EnableSSLVerification", "enable_ssl_verification"},
  flag{"IssuesEvents", "issues_events"},
  flag{"JobEvents", "job_events"},
  flag{"MergeRequestsEvents", "merge_requests_events"},
  flag{"NoteEvents", "note_events"},
  flag{"PipelineEvents", "pipeline_events"},
  flag{"PushEvents", "push_events"},
  flag{"ReleasesEvents", "releases_events"},
  flag{"EmojiEvents", "emoji_events"},
  flag{"TagPushEvents", "tag_push_events"},
  flag{"Token", ""}, // a string: the token, between the flags
  flag{"URL", ""},
  flag{"WikiPageEvents", "wiki_page_events"},
  flag{"ResourceAccessTokenEvents", "resource_access_token_events"},
  flag{"VulnerabilityEvents", "vulnerability_events"},
};

/// The flags Argo always sends (false unless listed).
constexpr std::array defaults{
  "ConfidentialNoteEvents", "PushEvents",     "IssuesEvents", "ConfidentialIssuesEvents",
  "MergeRequestsEvents",    "TagPushEvents",  "NoteEvents",   "JobEvents",
  "PipelineEvents",         "WikiPageEvents", "EmojiEvents"};

/// AddGroupHookOptions' fields Argo fills, in its order.
constexpr std::array group_fields{
  flag{"URL", ""},
  flag{"PushEvents", "push_events"},
  flag{"IssuesEvents", "issues_events"},
  flag{"ConfidentialIssuesEvents", "confidential_issues_events"},
  flag{"MergeRequestsEvents", "merge_requests_events"},
  flag{"TagPushEvents", "tag_push_events"},
  flag{"NoteEvents", "note_events"},
  flag{"ConfidentialNoteEvents", "confidential_note_events"},
  flag{"JobEvents", "job_events"},
  flag{"PipelineEvents", "pipeline_events"},
  flag{"WikiPageEvents", "wiki_page_events"},
  flag{"EmojiEvents", "emoji_events"},
  flag{"EnableSSLVerification", "enable_ssl_verification"},
  flag{"Token", ""},
};

bool listed(const std::vector<std::string>& events, std::string_view name) {
  return std::find(events.begin(), events.end(), name) != events.end();
}

template <class Fields>
std::string body(const Fields& fields, const hook_request& r) {
  std::string out = "{";
  auto field = [&](std::string_view key) {
    if (out.size() > 1)
      out += ',';
    out += '"';
    out += key;
    out += "\":";
  };
  for (const auto& f : fields) {
    if (f.field == "URL") {
      field("url");
      dsl::append_go_json_string(out, r.url);
    } else if (f.field == "Token") {
      if (!r.token.empty()) {
        field("token");
        dsl::append_go_json_string(out, r.token);
      }
    } else if (f.field == "EnableSSLVerification") {
      field(f.key);
      out += r.enable_ssl_verification || listed(r.events, f.field) ? "true" : "false";
    } else if (listed(r.events, f.field)) {
      field(f.key);
      out += "true";
    } else if (std::find(defaults.begin(), defaults.end(), f.field) != defaults.end()) {
      field(f.key);
      out += "false";
    }
  }
  return out + '}';
}

} // namespace

bool is_hook_flag(std::string_view name) {
  return std::any_of(project_flags.begin(), project_flags.end(),
                     [&](const flag& f) { return f.field == name && !f.key.empty(); });
}

std::string hook_flag_names() {
  std::string out;
  for (const auto& f : project_flags)
    if (!f.key.empty())
      out += (out.empty() ? "" : ", ") + std::string{f.field};
  return out;
}

std::string project_hook_body(const hook_request& request) {
  return body(project_flags, request);
}

std::string group_hook_body(const hook_request& request) {
  return body(group_fields, request);
}

} // namespace ganglion::gitlab::detail
