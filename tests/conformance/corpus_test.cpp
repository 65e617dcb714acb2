// The Argo Events example corpus: `ganglion validate` never crashes and reports in the
// `file:line:col: path: message` form, and the library accepts or rejects every EventSource and
// Sensor with located diagnostics. The counts are pinned so that a change in behaviour shows.

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "built_kinds.hpp"
#include "child_process.hpp"
#include "files.hpp"
#include "ganglion/core/runnability.hpp"
#include "ganglion/dsl/load.hpp"
#include "kinds.hpp"

using namespace ganglion;

namespace {

std::vector<std::string> corpus_files() { return test::yaml_files_under(GANGLION_CORPUS_DIR); }

std::string relative(const std::string& file) {
  return std::filesystem::relative(file, GANGLION_CORPUS_DIR).string();
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  auto name = relative(info.param);
  for (auto& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

class corpus_file : public ::testing::TestWithParam<std::string> {};

// Per document: its Argo kind, and the error diagnostics located inside it.
struct document_verdict {
  std::string file;
  std::string kind;
  std::string name;
  std::vector<dsl::diagnostic> errors;
};

std::vector<document_verdict> verdicts(const std::string& file, bool strict) {
  static const auto kinds = app::register_kinds(std::make_shared<http::runtime>());
  auto result = dsl::load_manifests({file}, app::load_options_for(kinds, strict));
  std::vector<document_verdict> out;
  const auto& docs = result.documents;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    if (docs[i].kind != "EventSource" && docs[i].kind != "Sensor")
      continue;
    document_verdict v{file, docs[i].kind, docs[i].name, {}};
    int first = docs[i].where.line;
    int last = i + 1 < docs.size() ? docs[i + 1].where.line : INT32_MAX;
    for (const auto& d : result.diagnostics)
      if (d.level == dsl::severity::error && d.where.line >= first && d.where.line < last)
        v.errors.push_back(d);
    out.push_back(std::move(v));
  }
  return out;
}

} // namespace

TEST_P(corpus_file, validate_command_exits_cleanly_with_well_formed_diagnostics) {
  const auto& file = GetParam();
  test::child_process validate{{GANGLION_BINARY, "validate", "-f", file}};
  auto code = validate.wait(std::chrono::seconds{30});
  ASSERT_TRUE(code) << "ganglion validate did not finish for " << file;
  auto output = validate.output();
  EXPECT_TRUE(*code == 0 || *code == 1) << "exit code " << *code << " (128+n is signal n)\n"
                                        << output;
  const std::regex summary{R"(^\d+ document\(s\), \d+ Argo object\(s\): \d+ error\(s\), \d+ warning\(s\)$)"};
  const std::regex will_not_run{
    R"(^\d+ triggers? and \d+ sources? will not run \(see docs/compatibility\.md\)$)"};
  const std::regex diagnostic{R"(^(.+):([1-9]\d*):([1-9]\d*): (warning: )?([^ ]+): (.+)$)"};
  std::istringstream lines{output};
  std::string line;
  std::size_t errors = 0;
  while (std::getline(lines, line)) {
    if (std::regex_match(line, summary) || std::regex_match(line, will_not_run))
      continue;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m, diagnostic)) << "malformed line: " << line;
    EXPECT_EQ(m[1].str(), file) << line;
    if (!m[4].matched)
      ++errors;
  }
  EXPECT_EQ(*code == 1, errors > 0) << output;
}

INSTANTIATE_TEST_SUITE_P(argo_examples, corpus_file, ::testing::ValuesIn(corpus_files()),
                         test_name);

TEST(corpus, every_event_source_and_sensor_is_valid_or_rejected_with_located_errors) {
  auto files = corpus_files();
  ASSERT_FALSE(files.empty()) << "no manifest under " << GANGLION_CORPUS_DIR;
  std::size_t total = 0;
  std::size_t valid = 0;
  std::size_t valid_strict = 0;
  std::ostringstream rejected;
  for (const auto& file : files) {
    for (const auto& v : verdicts(file, false)) {
      ++total;
      if (v.errors.empty()) {
        ++valid;
        continue;
      }
      for (const auto& e : v.errors) {
        EXPECT_GT(e.where.line, 0) << e.to_string();
        EXPECT_GT(e.where.column, 0) << e.to_string();
        EXPECT_FALSE(e.path.empty()) << e.to_string();
      }
      rejected << "  " << v.kind << " " << v.name << ": " << v.errors.front().to_string() << "\n";
    }
    for (const auto& v : verdicts(file, true))
      valid_strict += v.errors.empty();
  }
  std::cout << "rejected documents:\n" << rejected.str();
  EXPECT_EQ(total, 128u) << rejected.str();
  // Rejected besides the three malformed examples (openwhisk, the two minio http sensors): the
  // Rejected: the three malformed examples (openwhisk, the two minio http sensors).
  EXPECT_EQ(valid, 125u) << rejected.str();
  EXPECT_EQ(valid_strict, 116u) << rejected.str();
}

// The EventSources of the corpus whose every event is of a kind ganglion runs (secrets and
// addresses aside: corpus_triggers_test runs what it can); each other one is listed with the
// reason `validate` gives. 15: the 13 of the push-source base, plus github.yaml and gitlab.yaml
// (the github and gitlab kinds).
TEST(corpus, event_sources_whose_every_event_runs) {
  static const auto kinds = app::register_kinds(std::make_shared<http::runtime>());
  core::runnability_context context;
  context.sources = &kinds.sources;
  context.triggers = &kinds.triggers;
  std::size_t total = 0;
  std::size_t running = 0;
  std::ostringstream not_running;
  for (const auto& file : corpus_files()) {
    auto result = dsl::load_manifests({file}, app::load_options_for(kinds));
    // Every secret the examples name exists, so that a kind's own refusal is the one found.
    context.secrets_dir = test::temp_dir();
    for (const auto& doc : result.documents)
      for (const auto& [path, ref] : doc.secret_refs)
        test::write_file(context.secrets_dir + "/" + ref.name + "/" + ref.key, "secret");
    auto refusals = core::check_runnability(result.documents, context);
    for (const auto& doc : result.documents) {
      if (doc.kind != "EventSource")
        continue;
      ++total;
      const core::refusal* kind_refusal = nullptr;
      for (const auto& r : refusals)
        if (r.kind == "source" && r.name.rfind(doc.name + "/", 0) == 0
            && r.why.message.find("not run by ganglion") != std::string::npos) {
          kind_refusal = &r;
          break;
        }
      if (kind_refusal == nullptr) {
        ++running;
        continue;
      }
      not_running << "  " << relative(file) << " " << doc.name << ": " << kind_refusal->why.path
                  << ": " << kind_refusal->why.message << "\n";
    }
  }
  std::cout << "EventSources of the corpus that run: " << running << " of " << total << "\n"
            << "EventSources that do not run, and why:\n"
            << not_running.str();
  EXPECT_EQ(total, 34u) << not_running.str();
  // aws-sqs.yaml, aws-sns.yaml, slack.yaml, stripe.yaml, storage-grid.yaml and
  // azure-queue-storage.yaml run with their kinds, not without them.
  EXPECT_EQ(running, 22u + 2 * test::with_aws + test::with_slack + test::with_stripe
                       + test::with_storagegrid + test::with_azure)
    << not_running.str();
  EXPECT_NE(not_running.str().find("azureEventsHub"), std::string::npos) << not_running.str();
}
