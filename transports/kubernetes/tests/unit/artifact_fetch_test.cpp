// Fetching the locations that need no server (inline, resource, file) and decoding what a
// location holds into the object, as Argo decodes it (ghodss/yaml).

#include <string>
#include <sys/stat.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "artifact/artifact.hpp"
#include "files.hpp"

namespace ganglion::kubernetes::detail {
namespace {

using nlohmann::json;

const std::string at = "spec.triggers[0].template.k8s.source";

std::string error_of(const artifact_location& location, const fetch_options& options) {
  try {
    fetch_artifact(location, options);
  } catch (const artifact_error& e) {
    return e.what();
  }
  return "(no error)";
}

fetch_options options_at() {
  fetch_options options;
  options.path = at;
  return options;
}

TEST(artifact_decode, yaml_and_json_give_the_same_object) {
  auto from_yaml = object_json("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n", "x");
  auto from_json = object_json(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}})", "x");
  EXPECT_EQ(json::parse(from_yaml), json::parse(from_json));
}

TEST(artifact_decode, scalars_take_yaml_types_and_quoted_ones_stay_strings) {
  auto object = json::parse(object_json(
    "replicas: 3\nratio: 0.5\non: yes\nenabled: false\nnothing: ~\nport: \"8080\"\n", "x"));
  EXPECT_EQ(object["replicas"], 3);
  EXPECT_EQ(object["ratio"], 0.5);
  EXPECT_EQ(object["on"], true); // YAML 1.1, as yaml.v2 under ghodss/yaml
  EXPECT_EQ(object["enabled"], false);
  EXPECT_TRUE(object["nothing"].is_null());
  EXPECT_EQ(object["port"], "8080");
}

TEST(artifact_decode, of_several_documents_the_first_is_the_object) {
  auto object = json::parse(object_json("kind: First\n---\nkind: Second\n", "x"));
  EXPECT_EQ(object, json::parse(R"({"kind":"First"})"));
}

TEST(artifact_decode, what_is_not_an_object_is_an_error_naming_where) {
  auto error = [](const std::string& text) {
    try {
      object_json(text, at + ".file");
    } catch (const artifact_error& e) {
      return std::string{e.what()};
    }
    return std::string{"(no error)"};
  };
  EXPECT_EQ(error("- a\n- b\n").rfind(at + ".file: holds a list", 0), 0u) << error("- a\n");
  EXPECT_NE(error("").find(at + ".file: holds no object"), std::string::npos) << error("");
  auto bad = error("kind: Pod\nmetadata: {name: [\n");
  EXPECT_EQ(bad.rfind(at + ".file: not valid YAML or JSON", 0), 0u) << bad;
  EXPECT_NE(bad.find("line "), std::string::npos) << bad;
}

TEST(artifact_decode, a_comma_after_the_object_is_an_error_not_a_hang) {
  // yaml-cpp 0.7 loops for ever, allocating, on a ',' after a document's root.
  try {
    object_json("{\"kind\": \"Pod\"},", at + ".file");
    FAIL() << "no error";
  } catch (const artifact_error& e) {
    EXPECT_NE(std::string{e.what()}.find("',' outside a flow collection"), std::string::npos)
      << e.what();
    EXPECT_NE(std::string{e.what()}.find("column 16"), std::string::npos) << e.what();
  }
}

TEST(artifact_decode, an_alias_bomb_is_refused_before_it_is_expanded) {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  char prev = 'a';
  for (char c = 'b'; c <= 'k'; ++c, ++prev) {
    bomb += std::string{c} + ": &" + c + " [";
    for (int i = 0; i < 10; ++i)
      bomb += std::string{i ? ", " : ""} + "*" + prev;
    bomb += "]\n";
  }
  try {
    object_json(bomb, "x");
    FAIL() << "an alias bomb was expanded";
  } catch (const artifact_error& e) {
    EXPECT_NE(std::string{e.what()}.find("refused"), std::string::npos) << e.what();
  }
}

TEST(artifact_fetch, inline_and_resource_need_nothing_but_the_path) {
  artifact_location inline_loc;
  inline_loc.inline_text = "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\n";
  EXPECT_EQ(json::parse(fetch_artifact(inline_loc, options_at())),
            json::parse(R"({"apiVersion":"argoproj.io/v1alpha1","kind":"Workflow"})"));
  artifact_location resource;
  resource.resource = R"({"apiVersion":"v1","kind":"Pod"})";
  EXPECT_EQ(fetch_artifact(resource, options_at()), *resource.resource);
}

TEST(artifact_fetch, a_file_is_read_and_decoded) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/wf.yaml", "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\n"
                                     "metadata: {generateName: hello-}\n");
  artifact_location loc;
  loc.file = file_artifact{dir + "/wf.yaml"};
  auto object = json::parse(fetch_artifact(loc, options_at()));
  EXPECT_EQ(object["metadata"]["generateName"], "hello-");
}

TEST(artifact_fetch, a_missing_file_is_an_error_at_file_path) {
  artifact_location loc;
  loc.file = file_artifact{test::temp_dir() + "/absent.yaml"};
  auto message = error_of(loc, options_at());
  EXPECT_EQ(message.rfind(at + ".file.path: cannot read ", 0), 0u) << message;
  EXPECT_NE(message.find("No such file"), std::string::npos) << message;
  loc.file = file_artifact{test::temp_dir()};
  message = error_of(loc, options_at());
  EXPECT_NE(message.find("is not a regular file"), std::string::npos) << message;
}

TEST(artifact_fetch, a_file_over_the_limit_is_refused) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/big.yaml", "kind: Pod\ndata: \"" + std::string(4096, 'x') + "\"\n");
  artifact_location loc;
  loc.file = file_artifact{dir + "/big.yaml"};
  auto options = options_at();
  options.max_bytes = 1024;
  auto message = error_of(loc, options);
  EXPECT_EQ(message, at + ".file: the artifact is larger than the limit of 1024 bytes");
}

TEST(artifact_fetch, invalid_yaml_in_a_file_names_the_location) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/bad.yaml", "kind: Pod\n  metadata: [\n");
  artifact_location loc;
  loc.file = file_artifact{dir + "/bad.yaml"};
  auto message = error_of(loc, options_at());
  EXPECT_EQ(message.rfind(at + ".file: not valid YAML or JSON", 0), 0u) << message;
}

TEST(artifact_fetch, s3_without_secrets_or_a_valid_endpoint_is_an_error_at_its_field) {
  artifact_location loc;
  loc.s3 = s3_artifact{"127.0.0.1:9",
                       s3_bucket{"workflows", "wf.yaml"},
                       "",
                       true,
                       dsl::secret_key_selector{"minio", "accesskey"},
                       dsl::secret_key_selector{"minio", "secretkey"},
                       {}};
  EXPECT_EQ(error_of(loc, options_at()),
            at + ".s3.accessKey: no secrets are available (--secrets-dir)");
  loc.s3->endpoint = "http://127.0.0.1:9";
  EXPECT_EQ(error_of(loc, options_at()).rfind(at + ".s3.endpoint: endpoint is host[:port]", 0), 0u);
}

TEST(artifact_fetch, an_empty_location_is_an_error) {
  EXPECT_NE(error_of(artifact_location{}, options_at()).find("no location is set"),
            std::string::npos);
}

TEST(artifact_fetch, a_configmap_without_the_api_is_an_error) {
  artifact_location loc;
  loc.configmap = configmap_key_selector{"workflow-cm", "wf"};
  auto message = error_of(loc, options_at());
  EXPECT_EQ(message.rfind(at + ".configmap: reading a config map needs the Kubernetes API", 0), 0u)
    << message;
}

TEST(artifact_fetch, git_refuses_local_repositories_and_plain_http_before_any_transfer) {
  auto data_dir = test::temp_dir();
  auto error = [&](const std::string& url, bool allow_http = false) {
    artifact_location loc;
    loc.git = git_artifact{};
    loc.git->url = url;
    loc.git->file_path = "wf.yaml";
    auto options = options_at();
    options.data_dir = data_dir;
    options.allow_plain_http_git = allow_http;
    return error_of(loc, options);
  };
  EXPECT_EQ(error("file://" + data_dir + "/git/victim"),
            at + ".git.url: file:// URLs are refused: the repository must be cloned over https "
                 "or ssh");
  EXPECT_EQ(error(data_dir + "/git/victim").rfind(at + ".git.url: a local path is refused", 0), 0u);
  EXPECT_EQ(error("git://127.0.0.1:9/r.git").rfind(at + ".git.url: git:// URLs are refused", 0),
            0u);
  EXPECT_EQ(error("http://127.0.0.1:9/r.git").rfind(at + ".git.url: plain http:// is refused", 0),
            0u);
  // With the opt-in the clone is tried (and fails: nothing listens on port 9).
  EXPECT_EQ(error("http://127.0.0.1:9/r.git", true).rfind(at + ".git.url: cannot clone", 0), 0u)
    << error("http://127.0.0.1:9/r.git", true);
}

TEST(artifact_fetch, credentials_never_go_over_plain_http_even_when_it_is_allowed) {
  artifact_location loc;
  loc.git = git_artifact{};
  loc.git->url = "http://127.0.0.1:9/r.git";
  loc.git->file_path = "wf.yaml";
  loc.git->github_app =
    github_app_creds{dsl::secret_key_selector{"app", "key"}, 1, 2};
  auto options = options_at();
  options.data_dir = test::temp_dir();
  options.allow_plain_http_git = true;
  EXPECT_EQ(error_of(loc, options).rfind(at + ".git.url: creds and githubApp are refused over "
                                              "plain http://",
                                         0),
            0u);
  loc.git->github_app.reset();
  loc.git->creds = git_creds{dsl::secret_key_selector{"s", "u"}, dsl::secret_key_selector{"s", "p"}};
  EXPECT_EQ(error_of(loc, options).rfind(at + ".git.url: creds and githubApp are refused", 0), 0u);
}

TEST(artifact_fetch, git_refuses_an_absolute_or_escaping_file_path) {
  artifact_location loc;
  loc.git = git_artifact{};
  loc.git->url = "https://127.0.0.1:9/r.git";
  loc.git->file_path = "/etc/passwd";
  auto options = options_at();
  options.data_dir = test::temp_dir();
  EXPECT_EQ(error_of(loc, options).rfind(at + ".git.filePath: an absolute path is refused", 0), 0u);
  loc.git->file_path = "cfg/../../x.yaml";
  EXPECT_EQ(error_of(loc, options), at + ".git.filePath: \"..\" is not allowed in the filePath");
}

TEST(artifact_fetch, errors_never_quote_the_artifacts_text) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/scalar.yaml", "top-secret-token-value\n");
  test::write_file(dir + "/list.yaml", "- top-secret-a\n- top-secret-b\n");
  artifact_location loc;
  loc.file = file_artifact{dir + "/scalar.yaml"};
  auto message = error_of(loc, options_at());
  EXPECT_EQ(message, at + ".file: holds a string of 22 bytes, not an object (a Kubernetes "
                          "manifest is a map)");
  loc.file = file_artifact{dir + "/list.yaml"};
  message = error_of(loc, options_at());
  EXPECT_EQ(message.find("top-secret"), std::string::npos) << message;
  EXPECT_NE(message.find("holds a list of 2 items"), std::string::npos) << message;
  artifact_location inline_loc;
  inline_loc.inline_text = "just-a-secret-string";
  EXPECT_EQ(error_of(inline_loc, options_at()).find("just-a-secret"), std::string::npos);
}

TEST(artifact_fetch, a_fifo_is_refused_without_blocking) {
  auto fifo = test::temp_dir() + "/fifo.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  artifact_location loc;
  loc.file = file_artifact{fifo};
  auto message = error_of(loc, options_at());
  EXPECT_EQ(message, at + ".file.path: " + fifo + " is not a regular file");
}

} // namespace
} // namespace ganglion::kubernetes::detail
