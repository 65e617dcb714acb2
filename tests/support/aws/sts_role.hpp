#pragma once

// What the test AWS endpoint answers to STS's AssumeRole (Query protocol, XML), and the form
// decoding the Query-protocol stand-ins share.

#include <map>
#include <string>

#include "aws/aws_server.hpp"

namespace ganglion::test::aws {

/// A Query-protocol body (`Action=Subscribe&Endpoint=http%3A%2F%2F…`), decoded (`+` a space).
std::map<std::string, std::string> parse_query_form(const std::string& body);

/// One answer of the STS stand-in.
struct sts_answer {
  unsigned status = 200;
  std::string body;       ///< STS's XML
  std::string error_code; ///< empty for a success
};

/// STS's answer to the call `form` (AssumeRole of one of `roles`, with `DurationSeconds`
/// 900–43200 and a RoleSessionName; else STS's XML error).
sts_answer answer_sts(const std::map<std::string, std::string>& form,
                      const std::map<std::string, assumable_role>& roles);

} // namespace ganglion::test::aws
