#pragma once

#include <string>

#include "ganglion/core/command_options.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::email {

/// Settings of the email transport from the command line.
struct options {
  /// PEM file of the CAs that verify SMTP servers' certificates (`--smtp-ca-file`); empty: the
  /// system's CAs.
  std::string ca_file;
};

/// The `email` trigger: per execution sends one text/plain message (From, To, Subject, body as
/// quoted-printable UTF-8) to each `to` address over SMTP at `host:port`, with STARTTLS when
/// the server offers it (implicit TLS on port 465) and AUTH with `username` and the
/// `smtpPassword` secret. An address that is not an email address, or a failed send, fails the
/// execution (the other recipients still get theirs), as Argo's email trigger does.
core::trigger_factory make_trigger_factory(options opts);

/// Registers the `email` trigger.
void register_transport(core::trigger_registry& triggers, options opts);

/// The options the email transport declares: `--smtp-ca-file`.
core::command_options command_options();

/// The transport's options from the command line's values.
options options_from(const core::option_values& values);

} // namespace ganglion::email
