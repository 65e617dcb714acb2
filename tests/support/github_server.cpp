#include "github_server.hpp"

#include <atomic>
#include <ctime>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "git_http_backend.hpp"
#include "loopback_acceptor.hpp"

namespace ganglion::test {

namespace {

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;
using json = nlohmann::json;
using bio_ptr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using key_ptr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

/// base64 (`+/`) or base64url (`-_`), padding optional; nullopt on another byte.
std::optional<std::string> base64_decode(std::string_view text) {
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (char c : text) {
    int v = c >= 'A' && c <= 'Z'   ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '+' || c == '-' ? 62
            : c == '/' || c == '_' ? 63
            : c == '='             ? -2
                                   : -1;
    if (v == -2)
      break;
    if (v < 0)
      return std::nullopt;
    bits = (bits << 6) | static_cast<unsigned>(v);
    if ((count += 6) >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xff));
    }
  }
  return out;
}

std::string pem_of(EVP_PKEY* key, bool private_half) {
  bio_ptr bio{BIO_new(BIO_s_mem()), &BIO_free};
  int ok = private_half
             ? PEM_write_bio_PKCS8PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr)
             : PEM_write_bio_PUBKEY(bio.get(), key);
  if (ok != 1)
    throw std::runtime_error("cannot write a PEM key");
  char* data = nullptr;
  auto size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string random_token() {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device random;
  std::string out = "ghs_";
  for (int i = 0; i < 36; ++i)
    out.push_back(alphabet[random() % (sizeof alphabet - 1)]);
  return out;
}

std::string rfc3339(std::chrono::system_clock::time_point at) {
  auto t = std::chrono::system_clock::to_time_t(at);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

} // namespace

rsa_key_pair make_rsa_key_pair() {
  key_ptr key{EVP_RSA_gen(2048), &EVP_PKEY_free};
  if (!key)
    throw std::runtime_error("cannot make an RSA key");
  return {pem_of(key.get(), true), pem_of(key.get(), false)};
}

std::string to_pkcs1_pem(const std::string& private_pem) {
  bio_ptr in{BIO_new_mem_buf(private_pem.data(), static_cast<int>(private_pem.size())), &BIO_free};
  key_ptr key{PEM_read_bio_PrivateKey(in.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free};
  bio_ptr out{BIO_new(BIO_s_mem()), &BIO_free};
  if (!key
      || PEM_write_bio_PrivateKey_traditional(out.get(), key.get(), nullptr, nullptr, 0, nullptr,
                                              nullptr)
           != 1)
    throw std::runtime_error("cannot write the key in PKCS #1 form");
  char* data = nullptr;
  auto size = BIO_get_mem_data(out.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string verify_rs256_jwt(const std::string& jwt, const std::string& public_pem,
                             std::string* claims) {
  auto first = jwt.find('.');
  auto second = first == std::string::npos ? first : jwt.find('.', first + 1);
  if (second == std::string::npos)
    return "not three dot-separated parts";
  auto header = base64_decode(std::string_view{jwt}.substr(0, first));
  auto body = base64_decode(std::string_view{jwt}.substr(first + 1, second - first - 1));
  auto signature = base64_decode(std::string_view{jwt}.substr(second + 1));
  if (!header || !body || !signature)
    return "a part is not base64url";
  auto head = json::parse(*header, nullptr, false);
  if (!head.is_object() || head.value("alg", "") != "RS256" || head.value("typ", "") != "JWT")
    return "the header is not {alg: RS256, typ: JWT}: " + *header;
  bio_ptr bio{BIO_new_mem_buf(public_pem.data(), static_cast<int>(public_pem.size())), &BIO_free};
  key_ptr key{PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free};
  if (!key)
    return "the public key does not load";
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
  auto input = jwt.substr(0, second);
  bool valid =
    EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) == 1
    && EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature->data()),
                        signature->size(), reinterpret_cast<const unsigned char*>(input.data()),
                        input.size())
         == 1;
  ERR_clear_error();
  if (!valid)
    return "the signature does not verify";
  if (claims)
    *claims = *body;
  return {};
}

struct github_server::impl {
  std::int64_t app_id;
  std::int64_t installation_id;
  std::string public_pem;
  std::string root;

  mutable std::mutex mutex;
  std::map<std::string, std::chrono::system_clock::time_point> tokens;
  std::map<std::string, std::string> files;
  std::pair<std::string, std::string> basic;
  std::chrono::seconds lifetime{3600};
  std::size_t git_served = 0;

  using request_t = bhttp::request<bhttp::string_body>;
  using response_t = bhttp::response<bhttp::string_body>;

  static response_t answer(unsigned status, const std::string& body,
                           const std::string& type = "application/json; charset=utf-8") {
    response_t r{static_cast<bhttp::status>(status), 11};
    r.set(bhttp::field::content_type, type);
    r.body() = body;
    return r;
  }

  /// Why GitHub would refuse `authorization` for this App; empty when it accepts it.
  std::string refusal(const std::string& authorization) const {
    if (!authorization.starts_with("Bearer "))
      return "A JSON web token could not be decoded";
    std::string text;
    if (!verify_rs256_jwt(authorization.substr(7), public_pem, &text).empty())
      return "A JSON web token could not be decoded";
    auto claims = json::parse(text, nullptr, false);
    auto now = std::chrono::duration_cast<std::chrono::seconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
    if (!claims.is_object() || !claims["iss"].is_string() || !claims["iat"].is_number_integer()
        || !claims["exp"].is_number_integer())
      return "'Issued at' claim ('iat') must be an Integer representing the time that the "
             "assertion was issued";
    std::int64_t app = 0;
    {
      std::lock_guard lock{mutex};
      app = app_id;
    }
    if (claims["iss"] != std::to_string(app))
      return "Integration not found";
    auto iat = claims["iat"].get<std::int64_t>();
    auto exp = claims["exp"].get<std::int64_t>();
    if (iat > now + 60 || exp <= now || exp - iat > 600)
      return "'Expiration time' claim ('exp') is too far in the future or has passed";
    return {};
  }

  response_t exchange(const request_t& request, const std::string& target) {
    auto prefix = std::string{"/api/v3/app/installations/"};
    auto id = target.substr(prefix.size(), target.size() - prefix.size() - 14);
    if (request.method() != bhttp::verb::post)
      return answer(404, R"({"message":"Not Found"})");
    if (auto why = refusal(std::string{request[bhttp::field::authorization]}); !why.empty())
      return answer(401, json{{"message", why}}.dump());
    auto token = random_token();
    std::lock_guard lock{mutex};
    if (id != std::to_string(installation_id))
      return answer(404,
                    R"({"message":"Not Found","documentation_url":"https://docs.github.com"})");
    auto expires = std::chrono::system_clock::now() + lifetime;
    tokens[token] = expires;
    return answer(201, json{{"token", token}, {"expires_at", rfc3339(expires)}}.dump());
  }

  bool authorized(const std::string& authorization) {
    if (!authorization.starts_with("Basic "))
      return false;
    auto pair = base64_decode(authorization.substr(6));
    auto colon = pair ? pair->find(':') : std::string::npos;
    if (colon == std::string::npos)
      return false;
    auto user = pair->substr(0, colon);
    auto password = pair->substr(colon + 1);
    std::lock_guard lock{mutex};
    if (!basic.first.empty() && user == basic.first && password == basic.second)
      return true;
    auto found = tokens.find(password);
    return user == "x-access-token" && found != tokens.end()
           && found->second > std::chrono::system_clock::now();
  }

  response_t git(const request_t& request, const std::string& target) {
    if (!authorized(std::string{request[bhttp::field::authorization]})) {
      auto r = answer(401, "Authentication required\n", "text/plain");
      r.set(bhttp::field::www_authenticate, "Basic realm=\"GitHub\"");
      return r;
    }
    auto cgi = cgi_request_of(request);
    cgi.remote_user = "x-access-token";
    auto out = run_git_http_backend(root, cgi);
    response_t r{static_cast<bhttp::status>(out.status), 11};
    for (const auto& [name, value] : out.headers)
      r.set(name, value);
    r.body() = std::move(out.body);
    std::lock_guard lock{mutex};
    ++git_served;
    return r;
  }

  /// Whether `token` is an installation token issued and not expired.
  bool issued(const std::string& token) {
    std::lock_guard lock{mutex};
    auto found = tokens.find(token);
    return found != tokens.end() && found->second > std::chrono::system_clock::now();
  }

  github_hooks hooks{[this](const std::string& token) { return issued(token); }};

  response_t respond(const request_t& request) {
    auto target = std::string{request.target()};
    hooks_request hooked{std::string{request.method_string()}, target,
                         std::string{request[bhttp::field::authorization]},
                         std::string{request[bhttp::field::accept]},
                         std::string{request[bhttp::field::content_type]}, request.body()};
    if (auto reply = hooks.answer(hooked))
      return answer(reply->first, reply->second);
    if (target.starts_with("/api/v3/app/installations/") && target.ends_with("/access_tokens"))
      return exchange(request, target);
    {
      std::lock_guard lock{mutex};
      if (auto f = files.find(target); f != files.end() && request.method() == bhttp::verb::get)
        return answer(200, f->second, "text/plain; charset=utf-8");
    }
    return git(request, target);
  }

  void serve(tcp::socket& socket) {
    boost::system::error_code ec;
    boost::beast::flat_buffer buffer;
    bhttp::request_parser<bhttp::string_body> parser;
    parser.body_limit(64u << 20);
    bhttp::read(socket, buffer, parser, ec);
    if (ec)
      return;
    response_t response;
    try {
      response = respond(parser.get());
    } catch (const std::exception& e) {
      response = answer(500, e.what(), "text/plain");
    }
    response.keep_alive(false);
    response.prepare_payload();
    bhttp::write(socket, response, ec);
    socket.shutdown(tcp::socket::shutdown_both, ec);
  }

  // Last: it starts serving, so everything above exists by then.
  std::unique_ptr<loopback_acceptor> acceptor;
};

github_server::github_server(std::int64_t app_id, std::int64_t installation_id,
                             std::string public_pem, std::string repos_root)
  : impl_(std::make_unique<impl>()) {
  impl_->app_id = app_id;
  impl_->installation_id = installation_id;
  impl_->public_pem = std::move(public_pem);
  impl_->root = std::move(repos_root);
  impl_->acceptor =
    std::make_unique<loopback_acceptor>([impl = impl_.get()](tcp::socket& s) { impl->serve(s); });
}

github_server::~github_server() { impl_->acceptor.reset(); }

std::string github_server::base_url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->acceptor->port());
}

std::string github_server::repo_url(const std::string& name) const {
  return base_url() + "/" + name;
}

void github_server::set_app(std::int64_t app_id, std::int64_t installation_id) {
  std::lock_guard lock{impl_->mutex};
  impl_->app_id = app_id;
  impl_->installation_id = installation_id;
}

void github_server::allow_basic(const std::string& user, const std::string& password) {
  std::lock_guard lock{impl_->mutex};
  impl_->basic = {user, password};
}

void github_server::put_file(const std::string& path, const std::string& body) {
  std::lock_guard lock{impl_->mutex};
  impl_->files[path] = body;
}

void github_server::set_token_lifetime(std::chrono::seconds lifetime) {
  std::lock_guard lock{impl_->mutex};
  impl_->lifetime = lifetime;
}

std::size_t github_server::tokens_issued() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->tokens.size();
}

github_hooks& github_server::hooks() { return impl_->hooks; }

std::size_t github_server::git_requests_served() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->git_served;
}

} // namespace ganglion::test
