#include "selectors.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "errors.hpp"

namespace ganglion::test::kube {

namespace {

std::string trim(const std::string& text) {
  auto begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos)
    return {};
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

/// The comma-separated parts of `text`, commas inside parentheses kept.
std::vector<std::string> split_requirements(const std::string& text) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty() || !parts.empty())
    parts.push_back(trim(current));
  return parts;
}

bool valid_key(const std::string& key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'
           || c == '/';
  });
}

api_error parse_failure(const std::string& part, const std::string& why) {
  return bad_request("unable to parse requirement: " + part + ": " + why);
}

requirement parse_set(const std::string& part, std::size_t at, std::size_t op_size,
                      requirement::op operation) {
  requirement r{trim(part.substr(0, at)), operation, {}};
  std::string rest = trim(part.substr(at + op_size));
  if (rest.size() < 2 || rest.front() != '(' || rest.back() != ')')
    throw parse_failure(part, "expected a parenthesized set of values");
  std::string values = rest.substr(1, rest.size() - 2);
  std::size_t start = 0;
  while (start <= values.size()) {
    auto comma = values.find(',', start);
    auto value = trim(values.substr(start, comma == std::string::npos ? std::string::npos
                                                                      : comma - start));
    if (!value.empty())
      r.values.push_back(value);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (r.values.empty())
    throw parse_failure(part, "for 'in', 'notin' operators, values set can't be empty");
  return r;
}

requirement parse_label(const std::string& part) {
  if (part.empty())
    throw parse_failure(part, "found '', expected: identifier");
  if (part.front() == '!') {
    requirement r{trim(part.substr(1)), requirement::op::not_exists, {}};
    if (!valid_key(r.key))
      throw parse_failure(part, "invalid label key");
    return r;
  }
  requirement r;
  if (auto at = part.find(" notin "); at != std::string::npos)
    r = parse_set(part, at, 7, requirement::op::not_in);
  else if (auto in = part.find(" in "); in != std::string::npos)
    r = parse_set(part, in, 4, requirement::op::in);
  else if (auto ne = part.find("!="); ne != std::string::npos)
    r = {trim(part.substr(0, ne)), requirement::op::not_equals, {trim(part.substr(ne + 2))}};
  else if (auto eq2 = part.find("=="); eq2 != std::string::npos)
    r = {trim(part.substr(0, eq2)), requirement::op::equals, {trim(part.substr(eq2 + 2))}};
  else if (auto eq = part.find('='); eq != std::string::npos)
    r = {trim(part.substr(0, eq)), requirement::op::equals, {trim(part.substr(eq + 1))}};
  else if (part.find_first_of("<> ") != std::string::npos)
    throw parse_failure(part, "unsupported operator");
  else
    r = {part, requirement::op::exists, {}};
  if (!valid_key(r.key))
    throw parse_failure(part, "invalid label key \"" + r.key + "\"");
  return r;
}

bool holds(const requirement& r, const std::string* value) {
  auto listed = [&] {
    return std::find(r.values.begin(), r.values.end(), *value) != r.values.end();
  };
  switch (r.operation) {
  case requirement::op::equals: return value && *value == r.values.front();
  case requirement::op::not_equals: return !value || *value != r.values.front();
  case requirement::op::in: return value && listed();
  case requirement::op::not_in: return !value || !listed();
  case requirement::op::exists: return value != nullptr;
  case requirement::op::not_exists: return value == nullptr;
  }
  return false;
}

/// The value of a dotted field path of `object` as a selector compares it; nullopt when absent.
std::optional<std::string> field_value(const json& object, const std::string& path) {
  const json* at = &object;
  std::size_t start = 0;
  while (start <= path.size()) {
    auto dot = path.find('.', start);
    auto key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!at->is_object() || !at->contains(key))
      return std::nullopt;
    at = &(*at)[key];
    if (dot == std::string::npos)
      break;
    start = dot + 1;
  }
  if (at->is_string())
    return at->get<std::string>();
  return at->dump();
}

bool supported_field(const std::string& field, const resource_type& type) {
  if (field == "metadata.name" || field == "metadata.namespace")
    return true;
  if (!type.group.empty())
    return false;
  if (type.plural == "pods")
    return field == "status.phase" || field == "spec.nodeName" || field == "spec.restartPolicy"
           || field == "spec.serviceAccountName" || field == "status.podIP";
  if (type.plural == "secrets")
    return field == "type";
  if (type.plural == "events")
    return field.rfind("involvedObject.", 0) == 0 || field == "reason" || field == "type"
           || field == "source" || field == "reportingComponent";
  if (type.plural == "namespaces")
    return field == "status.phase";
  return false;
}

} // namespace

selector parse_label_selector(const std::string& text) {
  selector result;
  for (const auto& part : split_requirements(text))
    result.requirements.push_back(parse_label(part));
  return result;
}

selector parse_field_selector(const std::string& text, const resource_type& type) {
  selector result;
  for (const auto& part : split_requirements(text)) {
    requirement r;
    if (auto ne = part.find("!="); ne != std::string::npos)
      r = {trim(part.substr(0, ne)), requirement::op::not_equals, {trim(part.substr(ne + 2))}};
    else if (auto eq2 = part.find("=="); eq2 != std::string::npos)
      r = {trim(part.substr(0, eq2)), requirement::op::equals, {trim(part.substr(eq2 + 2))}};
    else if (auto eq = part.find('='); eq != std::string::npos)
      r = {trim(part.substr(0, eq)), requirement::op::equals, {trim(part.substr(eq + 1))}};
    else
      throw bad_request("invalid selector: '" + text + "'; can't understand '" + part + "'");
    if (!supported_field(r.key, type))
      throw bad_request("field label not supported: " + r.key);
    result.requirements.push_back(std::move(r));
  }
  return result;
}

bool matches(const json& object, const selector& labels, const selector& fields) {
  static const json no_labels = json::object();
  const json& metadata = object.contains("metadata") ? object["metadata"] : no_labels;
  const json& object_labels = metadata.contains("labels") && metadata["labels"].is_object()
                                ? metadata["labels"]
                                : no_labels;
  for (const auto& r : labels.requirements) {
    std::string value;
    bool present = object_labels.contains(r.key) && object_labels[r.key].is_string();
    if (present)
      value = object_labels[r.key].get<std::string>();
    if (!holds(r, present ? &value : nullptr))
      return false;
  }
  for (const auto& r : fields.requirements) {
    auto value = field_value(object, r.key).value_or("");
    if (!holds(r, &value))
      return false;
  }
  return true;
}

} // namespace ganglion::test::kube
