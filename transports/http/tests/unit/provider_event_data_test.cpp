// The bytes of a Git provider's event data (Argo's GerritEventData, BitbucketEventData,
// BitbucketServerEventData) as Go's encoding/json writes it.

#include <gtest/gtest.h>

#include "ganglion/http/internal/provider_event_data.hpp"

using ganglion::http::detail::provider_event_data;

namespace {

ganglion::http::request post(std::string body, ganglion::http::header_list headers = {}) {
  ganglion::http::request req;
  req.method = "POST";
  req.target = req.path = "/gerrit";
  req.headers = std::move(headers);
  req.body = std::move(body);
  return req;
}

} // namespace

TEST(provider_event_data,
     headers_canonical_and_sorted_body_compacted_metadata_left_out_when_empty) {
  std::string error;
  auto data =
    provider_event_data(post("{ \"type\": \"patchset-created\",\n \"change\": {\"n\": 1} }",
                             {{"content-type", "application/json"},
                              {"host", "ganglion"},
                              {"x-origin-url", "https://review"},
                              {"accept", "a"},
                              {"accept", "b"}}),
                        {}, error);
  ASSERT_TRUE(data) << error;
  EXPECT_EQ(*data, R"({"headers":{"Accept":["a","b"],"Content-Type":["application/json"],)"
                   R"("X-Origin-Url":["https://review"]},)"
                   R"("body":{"type":"patchset-created","change":{"n":1}}})");
}

TEST(provider_event_data, metadata_sorted_and_go_escapes_applied) {
  std::string error;
  auto data = provider_event_data(post(R"({"subject":"<b>&"})"), {{"z", "1"}, {"a", "<"}}, error);
  ASSERT_TRUE(data) << error;
  EXPECT_EQ(*data, R"({"headers":{},"body":{"subject":"\u003cb\u003e\u0026"},)"
                   R"("metadata":{"a":"\u003c","z":"1"}})");
}

TEST(provider_event_data, a_body_that_is_not_json_or_is_empty_is_refused) {
  std::string error;
  EXPECT_FALSE(provider_event_data(post("{\"type\":"), {}, error));
  EXPECT_FALSE(error.empty());
  error.clear();
  EXPECT_FALSE(provider_event_data(post(""), {}, error));
  EXPECT_FALSE(error.empty());
}
