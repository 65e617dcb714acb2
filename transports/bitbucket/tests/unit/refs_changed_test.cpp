// A repo:refs_changed delivery through Argo's refsChangedWebhookEvent: the bytes json.Marshal
// writes for one change (struct order, zero values, unknown fields dropped, keys matched
// case-insensitively, HTML escaping), and json.Unmarshal's errors. The expected texts follow
// encoding/json's rules for that struct.

#include <gtest/gtest.h>

#include "source/refs_changed.hpp"

using ganglion::bitbucket::detail::refs_changed;

namespace {

const std::string two_changes =
  R"({"eventKey":"repo:refs_changed","date":"2017-09-19T09:58:11+1000",)"
  R"("actor":{"name":"admin","emailAddress":"admin@example.com","id":1,)"
  R"("displayName":"Ada <admin> & co","active":true,"slug":"admin","type":"NORMAL",)"
  R"("links":{"self":[{"href":"http://bb/users/admin"}]}},)"
  R"("repository":{"slug":"repo","id":84,"name":"Repo","scmId":"git","state":"AVAILABLE",)"
  R"("statusMessage":"Available","forkable":true,"unknown":{"deep":[1,2]},)"
  R"("project":{"key":"PROJ","id":7,"name":"Project","public":false,"type":"NORMAL"},)"
  R"("public":false,"links":{"clone":[]}},)"
  R"("changes":[{"ref":{"id":"refs/heads/main","displayId":"main","type":"BRANCH"},)"
  R"("refId":"refs/heads/main","fromHash":"aaa","toHash":"bbb","type":"UPDATE"},)"
  R"({"REF":{"ID":"refs/tags/v1","type":"TAG"},"toHash":"ccc","Type":"ADD","extra":1}]})";

const std::string head =
  R"({"eventKey":"repo:refs_changed","date":"2017-09-19T09:58:11+1000",)"
  R"("actor":{"name":"admin","emailAddress":"admin@example.com","id":1,)"
  R"("displayName":"Ada \u003cadmin\u003e \u0026 co","active":true,"slug":"admin",)"
  R"("type":"NORMAL","links":{"self":[{"href":"http://bb/users/admin"}]}},)"
  R"("repository":{"slug":"repo","id":84,"name":"Repo","hierarchyId":"","scmId":"git",)"
  R"("state":"AVAILABLE","statusMessage":"Available","forkable":true,)"
  R"("project":{"key":"PROJ","id":7,"name":"Project","public":false,"type":"NORMAL",)"
  R"("links":{"self":null}},"public":false,"links":{"clone":[],"self":null}},)";

std::string decode_error(const std::string& body) {
  std::string error;
  auto event = refs_changed::decode(body, error);
  EXPECT_FALSE(event) << body;
  return error;
}

} // namespace

TEST(bitbucketserver_refs_changed, each_change_is_marshalled_alone_as_go_writes_the_struct) {
  std::string error;
  auto event = refs_changed::decode(two_changes, error);
  ASSERT_TRUE(event) << error;
  EXPECT_EQ(event->project_key(), "PROJ");
  EXPECT_EQ(event->repository_slug(), "repo");
  auto changes = event->changes();
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[1].ref_type, "TAG");
  EXPECT_EQ(changes[1].type, "ADD");
  EXPECT_EQ(changes[1].to_hash, "ccc");
  EXPECT_EQ(event->marshal_with_change(0),
            head
              + R"("changes":[{"ref":{"id":"refs/heads/main","displayId":"main","type":"BRANCH"},)"
                R"("refId":"refs/heads/main","fromHash":"aaa","toHash":"bbb","type":"UPDATE"}]})");
  EXPECT_EQ(event->marshal_with_change(1),
            head
              + R"("changes":[{"ref":{"id":"refs/tags/v1","displayId":"","type":"TAG"},)"
                R"("refId":"","fromHash":"","toHash":"ccc","type":"ADD"}]})");
}

TEST(bitbucketserver_refs_changed, null_leaves_a_field_and_the_last_duplicate_wins) {
  std::string error;
  auto event = refs_changed::decode(
    R"({"eventKey":null,"date":"d","DATE":"e","changes":[{"toHash":"x","type":null}]})", error);
  ASSERT_TRUE(event) << error;
  auto out = event->marshal_with_change(0);
  EXPECT_EQ(out.substr(0, 34), R"({"eventKey":"","date":"e","actor":)");
  EXPECT_NE(out.find(R"("toHash":"x","type":""}]})"), std::string::npos) << out;
  EXPECT_TRUE(refs_changed::decode("null", error)) << error;
}

TEST(bitbucketserver_refs_changed, type_mismatches_are_gos_errors) {
  EXPECT_EQ(decode_error(R"({"eventKey":5})"), "json: cannot unmarshal number into Go struct field "
                                               "refsChangedWebhookEvent.eventKey of type string");
  EXPECT_EQ(decode_error(R"({"actor":{"id":"1"}})"),
            "json: cannot unmarshal string into Go struct field .actor.id of type int");
  EXPECT_EQ(decode_error(R"({"actor":{"id":1.5}})"),
            "json: cannot unmarshal number 1.5 into Go struct field .actor.id of type int");
  EXPECT_EQ(decode_error(R"({"changes":[{"toHash":"a"},{"toHash":7}]})"),
            "json: cannot unmarshal number into Go struct field "
            "refsChangedWebHookEventChange.changes.toHash of type string");
  EXPECT_EQ(decode_error(R"({"changes":[{"ref":"main"}]})"),
            "json: cannot unmarshal string into Go struct field "
            "refsChangedWebHookEventChange.changes.ref of type struct { ID string "
            R"("json:\"id\""; DisplayID string "json:\"displayId\""; Type string )"
            R"("json:\"type\"" })");
  EXPECT_EQ(decode_error(R"({"changes":{}})"),
            "json: cannot unmarshal object into Go struct field refsChangedWebhookEvent.changes "
            "of type []bitbucketserver.refsChangedWebHookEventChange");
  EXPECT_EQ(decode_error(R"({"repository":{"public":"no"}})"),
            "json: cannot unmarshal string into Go struct field .repository.public of type bool");
  EXPECT_EQ(decode_error("[1]"), "json: cannot unmarshal array into Go value of type "
                                 "bitbucketserver.refsChangedWebhookEvent");
  EXPECT_EQ(decode_error(""), "unexpected end of JSON input");
  EXPECT_EQ(decode_error(R"({"eventKey":)"), "unexpected end of JSON input");
}
