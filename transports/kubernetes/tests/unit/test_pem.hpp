#pragma once

// A throwaway self-signed certificate and its key (EC P-256), for tests that only parse PEM.

namespace ganglion::kubernetes::testing {

inline constexpr const char* certificate_pem = R"(-----BEGIN CERTIFICATE-----
MIIBczCCARmgAwIBAgIUcgcktDziCc8Z5UtC4wCi8YR87vgwCgYIKoZIzj0EAwIw
DzENMAsGA1UEAwwEdGVzdDAeFw0yNjEyMDIwNDU4MzNaFw0zNjExMjkwNDU4MzNa
MA8xDTALBgNVBAMMBHRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATnAt0F
tzZ6TLAaPbsrzgYJMJ/KP+vC6WEBMASvZtcbkN5gbnPIlN8KSHmk9hY8aq4UGcga
Gvgbe7kqo+n05GCFo1MwUTAdBgNVHQ4EFgQUtEtv+JKQ+94+V/W5mbu5F088JB0w
HwYDVR0jBBgwFoAUtEtv+JKQ+94+V/W5mbu5F088JB0wDwYDVR0TAQH/BAUwAwEB
/zAKBggqhkjOPQQDAgNIADBFAiEA1zlKuKOnuX9vYfvfgnSsrFtS9OA/hmNiWZLj
5g9VWwUCIDsOUnnPaqfpjLILwD/byvzKEk9xGcJyzb92KKZ0HNcY
-----END CERTIFICATE-----
)";

inline constexpr const char* key_pem = R"(-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg1ptYMcqgIJMxww3Z
/+Dy6HXduMxyYfIAA/9sVrb8famhRANCAATnAt0FtzZ6TLAaPbsrzgYJMJ/KP+vC
6WEBMASvZtcbkN5gbnPIlN8KSHmk9hY8aq4UGcgaGvgbe7kqo+n05GCF
-----END PRIVATE KEY-----
)";

} // namespace ganglion::kubernetes::testing
