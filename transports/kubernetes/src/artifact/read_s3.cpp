// The s3 source as Argo's S3Reader reads it (minio-go's GetObject): one GET of the object, path
// style for a custom endpoint and virtual-host style for Amazon's, Google's and Aliyun's,
// signed with AWS Signature V4 by libcurl, http when `insecure`.

#include <cctype>
#include <cstdio>

#include <fmt/format.h>

#include "artifact/fetchers.hpp"
#include "artifact/http_get.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::kubernetes::detail {

namespace {

using dsl::detail::child_path;

/// SHA-256 of the empty payload: S3 wants `x-amz-content-sha256` signed, and libcurl 7.88 signs
/// it only when the request carries it.
constexpr const char* empty_payload_sha256 =
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

std::string trim_space(std::string text) {
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && space(text.back()))
    text.pop_back();
  std::size_t start = 0;
  while (start < text.size() && space(text[start]))
    ++start;
  return text.substr(start);
}

/// minio-go's CheckValidBucketName (its lenient form); empty when `name` passes.
std::string bucket_name_problem(const std::string& name) {
  auto edge_ok = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  bool chars_ok = name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789.-_:")
                  == std::string::npos;
  if (name.size() < 3 || name.size() > 63 || !chars_ok || !edge_ok(name.front())
      || !edge_ok(name.back()) || name.find("..") != std::string::npos
      || name.find(".-") != std::string::npos || name.find("-.") != std::string::npos)
    return "\"" + name + "\" is not a valid bucket name (3 to 63 letters, digits, '.', '-', "
           + "'_' or ':', starting and ending with a letter or digit)";
  return {};
}

/// S3's URI encoding of an object key: unreserved characters and `/` kept, the rest `%XX`;
/// the dots of a `.` or `..` segment too, so that no server or proxy resolves them out of the
/// bucket (S3 decodes them back into the key; the signature covers the path as sent).
std::string encode_key(const std::string& key) {
  std::string out;
  std::size_t segment = 0; // where the current segment starts in `key`
  for (std::size_t i = 0; i < key.size(); ++i) {
    unsigned char c = key[i];
    if (c == '.') {
      auto end = key.find('/', segment);
      auto part = std::string_view{key}.substr(segment, end == std::string::npos ? end : end - segment);
      if (part == "." || part == "..") {
        out += "%2E";
        continue;
      }
    }
    if (c == '/')
      segment = i + 1;
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

/// minio-go's default (auto) bucket lookup: virtual-host style for Amazon's, Google's and
/// Aliyun's endpoints (not for a dotted bucket over https), path style for every other one.
bool virtual_host_style(const s3_artifact& s3) {
  auto host = std::string_view{s3.endpoint}.substr(0, s3.endpoint.find(':'));
  if (!s3.insecure && s3.bucket->name.find('.') != std::string::npos)
    return false;
  return host == "s3.amazonaws.com" || ends_with(host, ".amazonaws.com")
         || ends_with(host, ".amazonaws.com.cn") || host == "storage.googleapis.com"
         || ends_with(host, ".aliyuncs.com");
}

std::string url_of(const s3_artifact& s3) {
  std::string scheme = s3.insecure ? "http://" : "https://";
  auto key = encode_key(s3.bucket->key);
  if (virtual_host_style(s3))
    return scheme + s3.bucket->name + "." + s3.endpoint + "/" + key;
  return scheme + s3.endpoint + "/" + s3.bucket->name + "/" + key;
}

/// The text of `<tag>…</tag>` in an S3 error body; empty when absent.
std::string xml_text(const std::string& body, const std::string& tag) {
  auto open = "<" + tag + ">";
  auto start = body.find(open);
  if (start == std::string::npos)
    return {};
  start += open.size();
  auto end = body.find("</" + tag + ">", start);
  return end == std::string::npos ? std::string{} : body.substr(start, end - start);
}

/// The field an S3 error code points at.
std::string field_of(const std::string& code, const std::string& path) {
  if (code == "NoSuchKey")
    return child_path(child_path(path, "bucket"), "key");
  if (code == "NoSuchBucket" || code == "InvalidBucketName")
    return child_path(child_path(path, "bucket"), "name");
  if (code == "InvalidAccessKeyId")
    return child_path(path, "accessKey");
  if (code == "SignatureDoesNotMatch")
    return child_path(path, "secretKey");
  if (code == "AuthorizationHeaderMalformed")
    return child_path(path, "region");
  return path;
}

} // namespace

std::string read_s3_artifact(const s3_artifact& s3, const fetch_options& options,
                             const std::string& path) {
  auto bucket_path = child_path(path, "bucket");
  if (s3.endpoint.empty())
    throw artifact_error(child_path(path, "endpoint") + ": endpoint is required");
  if (auto problem = s3_endpoint_problem(s3.endpoint); !problem.empty())
    throw artifact_error(child_path(path, "endpoint") + ": " + problem);
  if (!s3.bucket)
    throw artifact_error(bucket_path + ": bucket is required");
  if (auto problem = bucket_name_problem(s3.bucket->name); !problem.empty())
    throw artifact_error(child_path(bucket_path, "name") + ": " + problem);
  if (s3.bucket->key.empty())
    throw artifact_error(child_path(bucket_path, "key") + ": key is required");
  if (!s3.access_key || !s3.secret_key)
    throw artifact_error(child_path(path, s3.access_key ? "secretKey" : "accessKey")
                         + ": the secret key selector is missing");
  http_get get;
  get.url = url_of(s3);
  get.verify_tls = true;
  get.username = trim_space(read_secret(options, *s3.access_key, child_path(path, "accessKey")));
  get.password = trim_space(read_secret(options, *s3.secret_key, child_path(path, "secretKey")));
  // minio-go sends an anonymous (unsigned) request when both keys are empty.
  if (!get.username.empty() || !get.password.empty())
    get.aws_sigv4 = "aws:amz:" + (s3.region.empty() ? std::string{"us-east-1"} : s3.region) + ":s3";
  get.headers.push_back(fmt::format("x-amz-content-sha256: {}", empty_payload_sha256));
  auto object = s3.bucket->name + "/" + s3.bucket->key;
  auto got = perform_get(get, options, path, path);
  if (got.status == 200)
    return std::move(got.body);
  auto code = xml_text(got.body, "Code");
  auto message = xml_text(got.body, "Message");
  auto what =
    "GetObject " + object + " at " + s3.endpoint + " answered HTTP " + std::to_string(got.status);
  if (!code.empty())
    what += " " + code;
  if (!message.empty())
    what += ": " + message;
  throw artifact_error(field_of(code, path) + ": " + what);
}

} // namespace ganglion::kubernetes::detail
