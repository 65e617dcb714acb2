#include "smtp_server.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "eventually.hpp"
#include "files.hpp"
#include "http_sink.hpp"
#include "server_process.hpp"

namespace ganglion::test {

namespace {

// Each accepted message becomes <dir>/mail/<n>.json, written whole then renamed into place.
constexpr const char* script = R"PY(
import json, os, signal, ssl, sys
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

port, cert, key, user, password, out, require_starttls = sys.argv[1:8]
context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
context.load_cert_chain(cert, key)
count = 0

def authenticator(server, session, envelope, mechanism, auth_data):
    ok = auth_data.login == user.encode() and auth_data.password == password.encode()
    return AuthResult(success=ok, handled=False, auth_data=auth_data.login if ok else None)

class Recorder:
    async def handle_DATA(self, server, session, envelope):
        global count
        count += 1
        login = session.auth_data if session.authenticated and session.auth_data else b""
        record = {"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                  "data": envelope.original_content.decode("utf-8", "replace"),
                  "tls": session.ssl is not None, "login": login.decode()}
        path = os.path.join(out, "%06d.json" % count)
        with open(path + ".tmp", "w") as f:
            json.dump(record, f)
        os.rename(path + ".tmp", path)
        return "250 OK"

controller = Controller(Recorder(), hostname="127.0.0.1", port=int(port),
                        tls_context=context, require_starttls=require_starttls == "1",
                        authenticator=authenticator, auth_require_tls=True)
controller.start()
print("listening", flush=True)
signal.sigwait({signal.SIGTERM, signal.SIGINT})
controller.stop()
)PY";

} // namespace

smtp_server::smtp_server(smtp_server_options options) : port_(free_port()), dir_(temp_dir()) {
  write_self_signed_certificate(dir_);
  write_file(dir_ + "/mail/.keep", "");
  write_file(dir_ + "/smtp_server.py", script);
  process_ = std::make_unique<child_process>(
    std::vector<std::string>{"/usr/bin/python3", dir_ + "/smtp_server.py", std::to_string(port_),
                             dir_ + "/cert.pem", dir_ + "/key.pem", options.user, options.password,
                             dir_ + "/mail", options.require_starttls ? "1" : "0"});
  wait_until_accepting(*process_, port_, "aiosmtpd (python3-aiosmtpd)");
}

smtp_server::~smtp_server() {
  stop_server_process(process_);
}

std::string smtp_server::ca_file() const {
  return dir_ + "/cert.pem";
}

std::vector<smtp_message> smtp_server::messages() const {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir_ + "/mail"))
    if (entry.path().extension() == ".json")
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  std::vector<smtp_message> out;
  for (const auto& file : files) {
    std::ifstream in(file);
    auto record = nlohmann::json::parse(in);
    smtp_message m;
    m.mail_from = record.at("mail_from").get<std::string>();
    m.rcpt_tos = record.at("rcpt_tos").get<std::vector<std::string>>();
    m.data = record.at("data").get<std::string>();
    m.tls = record.at("tls").get<bool>();
    m.login = record.at("login").get<std::string>();
    out.push_back(std::move(m));
  }
  return out;
}

bool smtp_server::wait_for(std::size_t count, std::chrono::milliseconds timeout) const {
  return eventually([&] { return messages().size() >= count; }, timeout);
}

std::string smtp_server::output() const {
  return process_ ? process_->output() : std::string{};
}

} // namespace ganglion::test
