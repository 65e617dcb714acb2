// Stripe-Signature as stripe-go v70's webhook.ValidatePayloadWithTolerance checks it. The
// signature below was computed with `openssl dgst -sha256 -hmac` over "<t>.<body>".

#include <gtest/gtest.h>

#include "client/endpoints_api.hpp"
#include "source/signature.hpp"

namespace ganglion::stripe::detail {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view body = R"({"id":"evt_test_webhook","object":"event"})";
constexpr std::string_view secret = "whsec_plhjq5hTLeAGXLjUmYk4RkzY7ViSbsbv";
constexpr std::string_view v1 = "ee08bcdda9a6dc79ccf158336b50b7d69b436cca01e3540f45bf59e85a212e59";
const auto signed_at = std::chrono::system_clock::time_point{1492774577s};

std::optional<std::string> check(const std::string& header,
                                 std::chrono::system_clock::time_point now = signed_at + 10s) {
  return signature_problem(header, body, secret, 300s, now);
}

TEST(stripe_signature, a_v1_signature_of_the_timestamp_and_body_passes) {
  auto header = "t=1492774577,v1=" + std::string{v1};
  EXPECT_EQ(check(header), std::nullopt);
  // Among others, with v0 and unknown parts ignored, in upper-case hex.
  std::string upper{v1};
  for (auto& c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(check("t=1492774577,v1=00ff,v0=abc,v1=" + upper + ",x=1"), std::nullopt);
}

TEST(stripe_signature, tampered_expired_and_malformed_headers_are_refused) {
  auto good = "t=1492774577,v1=" + std::string{v1};
  EXPECT_EQ(signature_problem(good, R"({"id":"evt_test_webhook","object":"evil"})", secret, 300s,
                              signed_at),
            "webhook had no valid signature");
  EXPECT_EQ(signature_problem(good, body, "whsec_other", 300s, signed_at),
            "webhook had no valid signature");
  EXPECT_EQ(check(good, signed_at + 301s), "timestamp wasn't within tolerance");
  EXPECT_EQ(check(good, signed_at + 300s), std::nullopt);
  EXPECT_EQ(check(good, signed_at - 3600s), std::nullopt); // stripe-go lets a future one pass
  EXPECT_EQ(check("t=1492774578,v1=" + std::string{v1}), "webhook had no valid signature");
  EXPECT_EQ(check(""), "webhook has no Stripe-Signature header");
  EXPECT_EQ(check("t=1492774577;v1=" + std::string{v1}),
            "webhook has invalid Stripe-Signature header");
  EXPECT_EQ(check("t=soon,v1=" + std::string{v1}), "webhook has invalid Stripe-Signature header");
  EXPECT_EQ(check("t=1492774577,v1=zz"), "webhook had no valid signature");
  EXPECT_EQ(check("v1=" + std::string{v1}), "timestamp wasn't within tolerance"); // no t: year 1
}

TEST(stripe_endpoints_api, the_form_is_stripe_gos) {
  EXPECT_EQ(endpoint_form({"charge.succeeded", "*"}, "https://hooks.example/stripe?a=1&b=2"),
            "enabled_events[0]=charge.succeeded&enabled_events[1]=%2A&"
            "url=https%3A%2F%2Fhooks.example%2Fstripe%3Fa%3D1%26b%3D2");
  EXPECT_EQ(endpoint_form({"invoice.paid"}, ""), "enabled_events[0]=invoice.paid");
}

} // namespace
} // namespace ganglion::stripe::detail
