#pragma once

// SNS deliveries for the sns source's tests, signed as SNS signs them (SignatureVersion 1:
// SHA1withRSA, 2: SHA256withRSA, over AWS's documented string to sign), with a test key.
// Written from AWS's documentation, independent of the code under test.

#include <map>
#include <string>

namespace ganglion::test::aws {

/// The JSON body of an SNS delivery whose fields are `fields` (`Type`, `MessageId`, `Message`
/// …), with `SignatureVersion` `version`, `SigningCertURL` `cert_url` and `Signature` made
/// with the PEM private key `key_pem`.
std::string signed_sns_message(std::map<std::string, std::string> fields,
                               const std::string& key_pem, const std::string& cert_url,
                               int version = 1);

} // namespace ganglion::test::aws
