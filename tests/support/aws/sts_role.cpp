#include "aws/sts_role.hpp"

#include <ctime>

#include "s3/sigv4.hpp"

namespace ganglion::test::aws {

namespace {

const std::string xmlns = R"( xmlns="https://sts.amazonaws.com/doc/2011-06-15/")";

sts_answer error(unsigned status, const std::string& code, const std::string& message) {
  return {status,
          "<ErrorResponse" + xmlns + "><Error><Type>Sender</Type><Code>" + code + "</Code><Message>"
            + message + "</Message></Error><RequestId>req</RequestId></ErrorResponse>",
          code};
}

std::string utc(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

} // namespace

std::map<std::string, std::string> parse_query_form(const std::string& body) {
  std::map<std::string, std::string> out;
  auto decode = [](std::string s) {
    for (auto& c : s)
      if (c == '+')
        c = ' ';
    return s3::percent_decode(s);
  };
  std::size_t start = 0;
  while (start < body.size()) {
    auto end = body.find('&', start);
    if (end == std::string::npos)
      end = body.size();
    auto pair = body.substr(start, end - start);
    auto eq = pair.find('=');
    if (!pair.empty())
      out[decode(pair.substr(0, eq))] = eq == std::string::npos ? "" : decode(pair.substr(eq + 1));
    start = end + 1;
  }
  return out;
}

sts_answer answer_sts(const std::map<std::string, std::string>& form,
                      const std::map<std::string, assumable_role>& roles) {
  auto field = [&](const char* key) {
    auto found = form.find(key);
    return found == form.end() ? std::string{} : found->second;
  };
  if (field("Action") != "AssumeRole" || field("Version") != "2011-06-15")
    return error(400, "InvalidAction", "Not emulated: " + field("Action"));
  if (field("RoleSessionName").empty())
    return error(400, "ValidationError", "RoleSessionName is required");
  auto duration = field("DurationSeconds").empty() ? 3600 : std::stoi(field("DurationSeconds"));
  if (duration < 900 || duration > 43200)
    return error(400, "ValidationError", "DurationSeconds must be between 900 and 43200");
  auto role = roles.find(field("RoleArn"));
  if (role == roles.end())
    return error(403, "AccessDenied", "not authorized to perform: sts:AssumeRole on resource: "
                                        + field("RoleArn"));
  const auto& keys = role->second;
  auto expires = utc(std::time(nullptr) + keys.lifetime.count());
  return {200,
          "<AssumeRoleResponse" + xmlns + "><AssumeRoleResult><Credentials><AccessKeyId>"
            + keys.access_key + "</AccessKeyId><SecretAccessKey>" + keys.secret_key
            + "</SecretAccessKey><SessionToken>" + keys.session_token
            + "</SessionToken><Expiration>" + expires
            + "</Expiration></Credentials><AssumedRoleUser><Arn>" + role->first + "/"
            + field("RoleSessionName")
            + "</Arn></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>req"
              "</RequestId></ResponseMetadata></AssumeRoleResponse>",
          {}};
}

} // namespace ganglion::test::aws
