#include "source/refs_changed.hpp"

#include <memory>

namespace ganglion::bitbucket::detail {

namespace {

using dsl::go_field;
using dsl::go_type;
using kind = go_type::kind;

go_field field(std::string go_name, std::string json_name, go_type t) {
  return {std::move(go_name), std::move(json_name), std::move(t)};
}

go_type text() {
  return {kind::string, {}, {}, {}};
}
go_type integer() {
  return {kind::integer, {}, {}, {}};
}
go_type boolean() {
  return {kind::boolean, {}, {}, {}};
}

go_type object(std::vector<go_field> fields, std::string name = {}) {
  return {kind::structure, std::move(name), std::move(fields), {}};
}

go_type slice_of(go_type element) {
  return {kind::slice, {}, {}, std::make_shared<const go_type>(std::move(element))};
}

/// `Links struct { Self []struct { Href string } }`.
go_type self_links() {
  return object({field("Self", "self", slice_of(object({field("Href", "href", text())})))});
}

go_type change_type() {
  return object({field("Ref", "ref",
                       object({field("ID", "id", text()), field("DisplayID", "displayId", text()),
                               field("Type", "type", text())})),
                 field("RefID", "refId", text()), field("FromHash", "fromHash", text()),
                 field("ToHash", "toHash", text()), field("Type", "type", text())},
                "bitbucketserver.refsChangedWebHookEventChange");
}

/// Argo's refsChangedWebhookEvent (bitbucketserverclients.go), field for field.
go_type event_type() {
  auto actor = object({field("Name", "name", text()), field("EmailAddress", "emailAddress", text()),
                       field("ID", "id", integer()), field("DisplayName", "displayName", text()),
                       field("Active", "active", boolean()), field("Slug", "slug", text()),
                       field("Type", "type", text()), field("Links", "links", self_links())});
  auto project = object({field("Key", "key", text()), field("ID", "id", integer()),
                         field("Name", "name", text()), field("Public", "public", boolean()),
                         field("Type", "type", text()), field("Links", "links", self_links())});
  auto clone = slice_of(object({field("Href", "href", text()), field("Name", "name", text())}));
  auto repository = object(
    {field("Slug", "slug", text()), field("ID", "id", integer()), field("Name", "name", text()),
     field("HierarchyID", "hierarchyId", text()), field("ScmID", "scmId", text()),
     field("State", "state", text()), field("StatusMessage", "statusMessage", text()),
     field("Forkable", "forkable", boolean()), field("Project", "project", std::move(project)),
     field("Public", "public", boolean()),
     field("Links", "links",
           object({field("Clone", "clone", std::move(clone)),
                   field("Self", "self", slice_of(object({field("Href", "href", text())})))}))});
  return object({field("EventKey", "eventKey", text()), field("Date", "date", text()),
                 field("Actor", "actor", std::move(actor)),
                 field("Repository", "repository", std::move(repository)),
                 field("Changes", "changes", slice_of(change_type()))},
                "bitbucketserver.refsChangedWebhookEvent");
}

const go_type& event() {
  static const go_type t = event_type();
  return t;
}

const go_type& sub(const go_type& t, std::string_view name) {
  for (const auto& f : t.fields)
    if (f.json_name == name)
      return f.type;
  return t;
}

const dsl::go_data& at(const dsl::go_data& v, const go_type& t, std::string_view name) {
  return *dsl::go_field_of(v, t, name);
}

} // namespace

std::optional<refs_changed> refs_changed::decode(std::string_view body, std::string& error) {
  auto data = dsl::go_unmarshal(body, event(), error);
  if (!data)
    return std::nullopt;
  return refs_changed(std::move(*data));
}

const std::string& refs_changed::project_key() const {
  const auto& repo_t = sub(event(), "repository");
  const auto& repo = at(data_, event(), "repository");
  return at(at(repo, repo_t, "project"), sub(repo_t, "project"), "key").text;
}

const std::string& refs_changed::repository_slug() const {
  return at(at(data_, event(), "repository"), sub(event(), "repository"), "slug").text;
}

std::vector<refs_change> refs_changed::changes() const {
  std::vector<refs_change> out;
  const auto& items = at(data_, event(), "changes").items;
  if (!items)
    return out;
  const auto& change_t = *sub(event(), "changes").element;
  for (const auto& c : *items)
    out.push_back({at(at(c, change_t, "ref"), sub(change_t, "ref"), "type").text,
                   at(c, change_t, "type").text, at(c, change_t, "toHash").text});
  return out;
}

std::string refs_changed::marshal_with_change(std::size_t index) const {
  constexpr std::size_t changes = 4; // refsChangedWebhookEvent's fifth field
  auto one = data_;
  one.fields[changes].items = std::vector<dsl::go_data>{data_.fields[changes].items->at(index)};
  std::string out;
  dsl::append_go_marshal(out, one, event());
  return out;
}

} // namespace ganglion::bitbucket::detail
