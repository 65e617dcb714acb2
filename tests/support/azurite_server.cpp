#include "azurite_server.hpp"

#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <regex>
#include <stdexcept>

#include "files.hpp"
#include "http_sink.hpp"
#include "kube/text.hpp"
#include "server_process.hpp"

#ifndef GANGLION_AZURITE_DIR
#define GANGLION_AZURITE_DIR ""
#endif

namespace ganglion::test {

namespace {

constexpr const char* version = "2018-03-28";

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    auto end = dirs.find(':', start);
    auto dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::error_code ec;
    if (!dir.empty() && std::filesystem::exists(std::filesystem::path{dir} / program, ec))
      return true;
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return false;
}

std::string hmac_sha256_base64(const std::string& key_base64, const std::string& text) {
  bool ok = true;
  auto key = kube::base64_decode(key_base64, ok);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest, &length);
  return kube::base64_encode(std::string(reinterpret_cast<char*>(digest), length));
}

std::string gmt(std::time_t t, const char* format) {
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char text[64];
  std::strftime(text, sizeof text, format, &tm);
  return text;
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

std::string first_match(const std::string& text, const std::string& pattern) {
  std::smatch m;
  return std::regex_search(text, m, std::regex(pattern)) ? m[1].str() : std::string{};
}

std::string xml_unescape(std::string text) {
  for (auto [from, to] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""},
                          {"&apos;", "'"}, {"&amp;", "&"}}) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + 1))
      text.replace(at, std::string(from).size(), to);
  }
  return text;
}

std::size_t keep(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

} // namespace

std::string azurite_queue_script(std::string& why) {
  if (!on_path("node")) {
    why = "node is not installed: azurite (the Azure Storage emulator, from npm) cannot run";
    return {};
  }
  std::string script;
  if (const char* env = std::getenv("GANGLION_AZURITE_QUEUE"); env && *env)
    script = env;
  else
    script = std::string{GANGLION_AZURITE_DIR} + "/node_modules/.bin/azurite-queue";
  std::error_code ec;
  if (!std::filesystem::exists(script, ec)) {
    why = "azurite is not installed at " + script
          + " (make test installs it from npm with tests/azurite/package-lock.json)";
    return {};
  }
  return script;
}

azurite_server::azurite_server() : port_(free_port()), data_dir_(temp_dir()) {
  start();
}

azurite_server::~azurite_server() {
  stop();
}

void azurite_server::start() {
  std::string why;
  auto script = azurite_queue_script(why);
  if (script.empty())
    throw std::runtime_error(why);
  process_ = std::make_unique<child_process>(std::vector<std::string>{
    script, "--queueHost", "127.0.0.1", "--queuePort", std::to_string(port_), "--location",
    data_dir_, "--silent", "--disableTelemetry"});
  wait_until_accepting(*process_, std::vector<std::uint16_t>{port_}, "azurite-queue",
                       std::chrono::seconds(60));
}

void azurite_server::stop() {
  stop_server_process(process_);
}

std::string azurite_server::queue_endpoint() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/" + account;
}

std::string azurite_server::connection_string() const {
  return std::string{"DefaultEndpointsProtocol=http;AccountName="} + account + ";AccountKey="
         + key + ";QueueEndpoint=" + queue_endpoint() + ";";
}

std::string azurite_server::account_sas() const {
  auto expiry = gmt(std::time(nullptr) + 3600, "%Y-%m-%dT%H:%M:%SZ");
  // Account SAS, version 2018-03-28: account, permissions, services, resource types, start,
  // expiry, IP, protocol, version, each followed by a line break.
  std::string to_sign = std::string{account} + "\nrwdlaup\nq\nsco\n\n" + expiry + "\n\n\n"
                        + version + "\n";
  auto sig = hmac_sha256_base64(key, to_sign);
  std::string escaped;
  for (unsigned char c : sig)
    escaped += std::isalnum(c) ? std::string(1, static_cast<char>(c))
                               : "%" + std::string{"0123456789ABCDEF"[c >> 4]}
                                   + "0123456789ABCDEF"[c & 15];
  return std::string{"sv="} + version + "&ss=q&srt=sco&sp=rwdlaup&se=" + expiry
         + "&sig=" + escaped;
}

azurite_server::reply azurite_server::call(const std::string& method, const std::string& path,
                                           const std::string& query, const std::string& body,
                                           const std::string& content_type) {
  auto date = gmt(std::time(nullptr), "%a, %d %b %Y %H:%M:%S GMT");
  // Shared Key: verb, content encoding, language, length (empty for 0), MD5, type, date,
  // If-* and Range (none), the x-ms- headers, the resource with its query parameters.
  // The test's queries are `a=b&c=d`, sorted, with nothing to escape.
  std::string canonical_query;
  for (std::size_t start = 0; start < query.size();) {
    auto end = query.find('&', start);
    auto pair = query.substr(start, end == std::string::npos ? std::string::npos : end - start);
    auto eq = pair.find('=');
    canonical_query += "\n" + pair.substr(0, eq) + ":" + pair.substr(eq + 1);
    start = end == std::string::npos ? query.size() : end + 1;
  }
  std::string to_sign = method + "\n\n\n" + (body.empty() ? "" : std::to_string(body.size()))
                        + "\n\n" + content_type + "\n\n\n\n\n\n\nx-ms-date:" + date
                        + "\nx-ms-version:" + version + "\n/" + account + "/" + account + path
                        + canonical_query;
  auto authorization = std::string{"Authorization: SharedKey "} + account + ":"
                       + hmac_sha256_base64(key, to_sign);
  auto url = queue_endpoint() + path + (query.empty() ? "" : "?" + query);

  CURL* h = curl_easy_init();
  curl_slist* headers = nullptr;
  for (const auto& line : {"x-ms-date: " + date, std::string{"x-ms-version: "} + version,
                           authorization, "Content-Type: " + content_type,
                           std::string{"Expect:"}})
    headers = curl_slist_append(headers, line.c_str());
  reply out;
  std::string header_text;
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 10000L);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, keep);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &out.body);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, keep);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &header_text);
  if (method == "GET") {
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
  } else {
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.data());
    if (method != "POST")
      curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
  }
  auto code = curl_easy_perform(h);
  if (code == CURLE_OK)
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out.status);
  curl_easy_cleanup(h);
  curl_slist_free_all(headers);
  if (code != CURLE_OK)
    throw std::runtime_error(method + " " + url + ": " + curl_easy_strerror(code));
  std::regex line("([A-Za-z0-9-]+): ([^\r\n]*)");
  for (std::sregex_iterator i(header_text.begin(), header_text.end(), line), end; i != end; ++i)
    out.headers.emplace_back((*i)[1].str(), (*i)[2].str());
  return out;
}

void azurite_server::create_queue(const std::string& name) {
  auto r = call("PUT", "/" + name, "", "", "");
  if (r.status != 201 && r.status != 204)
    throw std::runtime_error("create queue " + name + ": " + std::to_string(r.status) + " "
                             + r.body);
}

std::string azurite_server::put_message(const std::string& queue, const std::string& text) {
  auto r = call("POST", "/" + queue + "/messages", "",
                "<QueueMessage><MessageText>" + xml_escape(text)
                  + "</MessageText></QueueMessage>",
                "application/xml");
  if (r.status != 201)
    throw std::runtime_error("put message: " + std::to_string(r.status) + " " + r.body);
  return first_match(r.body, "<MessageId>([^<]*)</MessageId>");
}

std::vector<peeked_message> azurite_server::peek(const std::string& queue) {
  auto r = call("GET", "/" + queue + "/messages", "numofmessages=32&peekonly=true", "", "");
  if (r.status != 200)
    throw std::runtime_error("peek: " + std::to_string(r.status) + " " + r.body);
  std::vector<peeked_message> out;
  std::regex message("<QueueMessage>(.*?)</QueueMessage>");
  for (std::sregex_iterator i(r.body.begin(), r.body.end(), message), end; i != end; ++i) {
    auto m = (*i)[1].str();
    auto count = first_match(m, "<DequeueCount>([0-9]+)</DequeueCount>");
    out.push_back({first_match(m, "<MessageId>([^<]*)</MessageId>"),
                   xml_unescape(first_match(m, "<MessageText>([^<]*)</MessageText>")),
                   count.empty() ? 0 : std::stoll(count)});
  }
  return out;
}

std::int64_t azurite_server::message_count(const std::string& queue) {
  auto r = call("GET", "/" + queue, "comp=metadata", "", "");
  if (r.status != 200)
    throw std::runtime_error("queue metadata: " + std::to_string(r.status) + " " + r.body);
  for (const auto& [name, value] : r.headers)
    if (name == "x-ms-approximate-messages-count")
      return std::stoll(value);
  throw std::runtime_error("queue metadata: no x-ms-approximate-messages-count");
}

} // namespace ganglion::test
