// The trigger source (ArtifactLocation) in whole Sensor manifests: each rule at its field's
// line:column (where its key starts), and the Argo corpus's sources — which run, which are refused and why.

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "files.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

std::string k8s_with_source(const std::string& source_lines) {
  return sensor_yaml("    - template:\n        name: a\n        k8s:\n          source:\n"
                     + source_lines);
}

const std::string source = "spec.triggers[0].template.k8s.source";

} // namespace

TEST(kubernetes_spec_source, refusals_are_located_at_their_field) {
  auto yaml = k8s_with_source("            git:\n              url: https://example.com/r.git\n"
                              "              filePath: ../wf.yaml\n"
                              "              githubApp: {appID: 1, installationID: 2}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, source + ".git.filePath", position_of(yaml, "filePath:"),
                             "\"..\" is not allowed in the filePath"));
  EXPECT_TRUE(has_diagnostic(r, source + ".git.githubApp.privateKey",
                             position_of(yaml, "githubApp:"), "privateKey is required"));

  auto s3 = k8s_with_source("            s3:\n              bucket: {name: b, key: k}\n"
                            "              endpoint: 'http://m:9000'\n");
  EXPECT_TRUE(has_diagnostic(load(s3), source + ".s3.endpoint", position_of(s3, "endpoint:"),
                             "without a scheme"));
  EXPECT_TRUE(
    has_diagnostic(load(s3), source + ".s3.accessKey", position_of(s3, "s3:"), "is required"));
}

TEST(kubernetes_spec_source, inline_text_run_could_not_decode_is_refused_by_validate) {
  auto yaml = k8s_with_source("            inline: \"- not\\n- an object\\n\"\n");
  EXPECT_TRUE(
    has_diagnostic(load(yaml), source + ".inline", position_of(yaml, "inline:"), "not an object"));
}

TEST(kubernetes_spec_source, locations_argo_would_not_read_are_warned_about) {
  auto yaml = k8s_with_source("            file: {path: /wf.yaml}\n"
                              "            resource: {apiVersion: v1, kind: Pod}\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), source + ".resource", position_of(yaml, "resource:"),
                             "ignored: file is used", severity::warning));
}

TEST(kubernetes_spec_source, every_corpus_source_is_valid) {
  // (file, path, message start) of every error under a trigger's source.
  std::set<std::tuple<std::string, std::string, std::string>> found;
  for (const auto& file : ganglion::test::yaml_files_under(GANGLION_CORPUS_DIR)) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    auto r = load(text.str());
    auto name = file.substr(file.rfind('/') + 1);
    for (const auto& d : r.diagnostics)
      if (d.level == severity::error && d.path.find(".source") != std::string::npos)
        found.emplace(name, d.path, d.message.substr(0, d.message.find(" (")));
  }
  const std::set<std::tuple<std::string, std::string, std::string>> expected{
  };
  EXPECT_EQ(found, expected);
}
