#include "trigger/custom_spec_yaml.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace ganglion::grpc::detail {

namespace {

/// UTF-8 text as code points (an invalid byte stands for itself).
std::u32string code_points(const std::string& text) {
  std::u32string out;
  for (std::size_t i = 0; i < text.size();) {
    auto byte = static_cast<unsigned char>(text[i]);
    int extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0;
    if (extra > 0 && i + extra >= text.size())
      extra = 0;
    char32_t point = extra == 0 ? byte : byte & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k)
      point = (point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    out.push_back(point);
    i += 1 + extra;
  }
  return out;
}

bool is_digit(char32_t c) {
  return c >= '0' && c <= '9';
}

/// Go's unicode.IsLetter for ASCII; any other code point above U+00BF counts as a letter.
bool is_letter(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == 0xAA || c == 0xB5 || c == 0xBA
         || (c >= 0xC0 && c != 0xD7 && c != 0xF7);
}

/// go-yaml v2's resolveTable hint of the first byte.
char hint_of(const std::string& text) {
  if (text.empty())
    return 'N';
  char c = text.front();
  if (c == '+' || c == '-')
    return 'S';
  if (c >= '0' && c <= '9')
    return 'D';
  if (std::string_view{"yYnNtTfFoO~"}.find(c) != std::string_view::npos)
    return 'M';
  return c == '.' ? '.' : 0;
}

const std::regex timestamp{
  "[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
  "([Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\\.[0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2})"
  "| [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\\.[0-9]+)?)?"};
/// Go's strconv.ParseInt with base 0.
const std::regex go_int{"[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)"};
/// go-yaml v2's yamlStyleFloat.
const std::regex yaml_float{"[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?"};
const std::regex dot_float{"\\.[0-9]+([eE][-+]?[0-9]+)?"};
const std::regex base_60{"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?"};

/// What go-yaml v2 tries for a scalar starting with a sign or a digit: timestamp, int (Go's
/// base prefixes), YAML float.
bool reads_as_number_or_time(const std::string& text) {
  if (std::regex_match(text, timestamp))
    return true;
  std::string plain;
  std::copy_if(text.begin(), text.end(), std::back_inserter(plain),
               [](char c) { return c != '_'; });
  return std::regex_match(plain, go_int) || std::regex_match(plain, yaml_float);
}

/// Writes `text` as go-yaml v2 would choose: double quotes for what would read as another type
/// (and for several lines, where Argo writes a literal block), single quotes where a plain
/// scalar cannot hold it, plain otherwise.
void put(YAML::Emitter& out, const std::string& text) {
  if (go_yaml_needs_quotes(text) || text.find('\n') != std::string::npos) {
    out << YAML::DoubleQuoted << text;
    return;
  }
  YAML::Emitter probe;
  probe << text;
  if (probe.size() > 0 && probe.c_str()[0] == '"')
    out << YAML::SingleQuoted;
  out << text;
}

} // namespace

bool go_yaml_key_less(const std::string& a, const std::string& b) {
  auto ar = code_points(a);
  auto br = code_points(b);
  for (std::size_t i = 0; i < ar.size() && i < br.size(); ++i) {
    if (ar[i] == br[i])
      continue;
    bool al = is_letter(ar[i]);
    bool bl = is_letter(br[i]);
    if (al && bl)
      return ar[i] < br[i];
    if (al || bl)
      return bl;
    std::int64_t an = 0, bn = 0;
    if (ar[i] == '0' || br[i] == '0')
      for (auto j = static_cast<std::ptrdiff_t>(i) - 1; j >= 0 && is_digit(ar[j]); --j)
        if (ar[j] != '0') {
          an = bn = 1;
          break;
        }
    std::size_t ai = i, bi = i;
    for (; ai < ar.size() && is_digit(ar[ai]); ++ai)
      an = an * 10 + static_cast<std::int64_t>(ar[ai] - '0');
    for (; bi < br.size() && is_digit(br[bi]); ++bi)
      bn = bn * 10 + static_cast<std::int64_t>(br[bi] - '0');
    if (an != bn)
      return an < bn;
    if (ai != bi)
      return ai < bi;
    return ar[i] < br[i];
  }
  return ar.size() < br.size();
}

bool go_yaml_needs_quotes(const std::string& text) {
  static const std::set<std::string, std::less<>> words = {
    "y",    "Y",    "yes",  "Yes",   "YES",   "true",  "True",  "TRUE",  "on",    "On",
    "ON",   "n",    "N",    "no",    "No",    "NO",    "false", "False", "FALSE", "off",
    "Off",  "OFF",  "",     "~",     "null",  "Null",  "NULL",  ".nan",  ".NaN",  ".NAN",
    ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"};
  if (std::regex_match(text, base_60))
    return true;
  switch (hint_of(text)) {
    case 0: return false;
    case 'M': return words.count(text) > 0;
    case '.': return words.count(text) > 0 || std::regex_match(text, dot_float);
    default: return words.count(text) > 0 || reads_as_number_or_time(text);
  }
}

std::string spec_yaml(const std::map<std::string, std::string>& spec) {
  if (spec.empty())
    return "{}\n";
  std::vector<const std::pair<const std::string, std::string>*> entries;
  for (const auto& entry : spec)
    entries.push_back(&entry);
  std::stable_sort(entries.begin(), entries.end(),
                   [](auto* x, auto* y) { return go_yaml_key_less(x->first, y->first); });
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (const auto* entry : entries) {
    out << YAML::Key;
    put(out, entry->first);
    out << YAML::Value;
    put(out, entry->second);
  }
  out << YAML::EndMap;
  return std::string{out.c_str(), out.size()} + "\n";
}

std::map<std::string, std::string> spec_of_custom_json(const std::string& custom_json) {
  auto custom = nlohmann::json::parse(custom_json, nullptr, false);
  if (!custom.is_object())
    throw std::runtime_error("the custom object after the parameters is not a JSON object");
  std::map<std::string, std::string> out;
  auto spec = custom.find("spec");
  if (spec == custom.end() || spec->is_null())
    return out;
  if (!spec->is_object())
    throw std::runtime_error("custom.spec is a " + std::string{spec->type_name()}
                             + " after the parameters, not a map of strings");
  for (const auto& [key, value] : spec->items()) {
    if (!value.is_string())
      throw std::runtime_error("custom.spec." + key + " is a " + std::string{value.type_name()}
                               + " after the parameters; the spec holds strings only");
    out.emplace(key, value.get<std::string>());
  }
  return out;
}

} // namespace ganglion::grpc::detail
