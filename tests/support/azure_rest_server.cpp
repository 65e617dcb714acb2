#include "azure_rest_server.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <map>
#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace ganglion::test {

namespace {

/// Go's url.QueryEscape.
std::string escape(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else if (c == ' ')
      out += '+';
    else
      out += {'%', hex[c >> 4], hex[c & 15]};
  }
  return out;
}

std::string lower(std::string text) {
  for (auto& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string base64(const unsigned char* bytes, int size) {
  std::string out(4 * ((size + 2) / 3), '\0');
  EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes, size);
  return out;
}

/// `a=1&b=2` → {a: 1, b: 2} (values kept escaped).
std::map<std::string, std::string> fields_of(const std::string& text) {
  std::map<std::string, std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    auto end = text.find('&', at);
    auto part = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    auto eq = part.find('=');
    if (eq != std::string::npos)
      out[part.substr(0, eq)] = part.substr(eq + 1);
    if (end == std::string::npos)
      break;
    at = end + 1;
  }
  return out;
}

} // namespace

azure_rest_server::azure_rest_server(std::string key_name, std::string key)
  : key_name_(std::move(key_name)), key_(std::move(key)), sink_(std::make_unique<http_sink>()) {
  sink_->set_handler(
    [this](const recorded_request& r) { return sink_answer{answer(r), "ok"}; });
}

void azure_rest_server::add_entity(const std::string& host, const std::string& entity) {
  std::lock_guard guard{mutex_};
  entities_[entity].insert(host);
}

void azure_rest_server::fail_next(int status, std::size_t count) {
  std::lock_guard guard{mutex_};
  fail_status_ = status;
  fail_count_ = count;
}

std::string azure_rest_server::endpoint() const {
  return "http://127.0.0.1:" + std::to_string(sink_->port());
}

std::vector<azure_message> azure_rest_server::accepted() const {
  std::lock_guard guard{mutex_};
  return accepted_;
}

std::vector<std::string> azure_rest_server::refusals() const {
  std::lock_guard guard{mutex_};
  return refusals_;
}

std::vector<recorded_request> azure_rest_server::requests() const {
  return sink_->requests();
}

bool azure_rest_server::wait_for_requests(std::size_t count,
                                          std::chrono::milliseconds timeout) const {
  return sink_->wait_for(count, timeout);
}

std::string azure_rest_server::sas_problem(const std::string& authorization,
                                           const std::string& entity) const {
  const std::string scheme = "SharedAccessSignature ";
  if (authorization.rfind(scheme, 0) != 0)
    return "no SharedAccessSignature";
  auto f = fields_of(authorization.substr(scheme.size()));
  for (const char* name : {"sr", "sig", "se", "skn"})
    if (!f.count(name))
      return std::string{"no "} + name;
  if (f["skn"] != key_name_)
    return "unknown key name " + f["skn"];
  auto covered = [&](const std::string& host) {
    auto namespace_uri = lower(escape("https://" + host));
    return f["sr"] == lower(escape("https://" + host + "/" + entity)) || f["sr"] == namespace_uri
           || f["sr"] == namespace_uri + "%2f";
  };
  auto hosts = entities_.find(entity);
  if (hosts == entities_.end())
    return "no entity " + entity;
  if (std::none_of(hosts->second.begin(), hosts->second.end(), covered))
    return "sr " + f["sr"] + " does not cover " + entity;
  long long expiry = 0;
  try {
    expiry = std::stoll(f["se"]);
  } catch (const std::exception&) {
    return "se is not a number";
  }
  if (expiry < static_cast<long long>(std::time(nullptr)))
    return "expired token";
  auto signed_text = f["sr"] + "\n" + f["se"];
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
       reinterpret_cast<const unsigned char*>(signed_text.data()), signed_text.size(), digest,
       &size);
  if (f["sig"] != escape(base64(digest, static_cast<int>(size))))
    return "signature mismatch";
  return {};
}

int azure_rest_server::answer(const recorded_request& r) {
  std::lock_guard guard{mutex_};
  auto refuse = [&](int status, std::string why) {
    refusals_.push_back(std::to_string(status) + ": " + why);
    return status;
  };
  if (fail_count_ > 0) {
    --fail_count_;
    return refuse(fail_status_, "failed on purpose");
  }
  auto path = r.target.substr(0, r.target.find('?'));
  const std::string suffix = "/messages";
  if (r.method != "POST" || path.size() <= suffix.size() + 1
      || path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0)
    return refuse(405, r.method + " " + r.target);
  auto entity = path.substr(1, path.size() - suffix.size() - 1);
  if (!entities_.count(entity))
    return refuse(404, "no entity " + entity);
  if (auto why = sas_problem(r.header("Authorization"), entity); !why.empty())
    return refuse(401, why);
  accepted_.push_back({entity, r.target, r.body, r.header("Content-Type")});
  return 201;
}

} // namespace ganglion::test
