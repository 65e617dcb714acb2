#pragma once

// Which optional transports this build has (GANGLION_WITH_<NAME>, set by ganglion_add_kind), as
// 1 or 0: the corpus counts pinned by corpus_test and corpus_triggers_test add them.

#include <cstddef>

namespace ganglion::test {

#if GANGLION_WITH_GRPC
inline constexpr std::size_t with_grpc = 1;
#else
inline constexpr std::size_t with_grpc = 0;
#endif
#if GANGLION_WITH_AWS
inline constexpr std::size_t with_aws = 1;
#else
inline constexpr std::size_t with_aws = 0;
#endif
#if GANGLION_WITH_EMAIL
inline constexpr std::size_t with_email = 1;
#else
inline constexpr std::size_t with_email = 0;
#endif
#if GANGLION_WITH_AZURE
inline constexpr std::size_t with_azure = 1;
#else
inline constexpr std::size_t with_azure = 0;
#endif
#if GANGLION_WITH_SLACK
inline constexpr std::size_t with_slack = 1;
#else
inline constexpr std::size_t with_slack = 0;
#endif
#if GANGLION_WITH_STRIPE
inline constexpr std::size_t with_stripe = 1;
#else
inline constexpr std::size_t with_stripe = 0;
#endif
#if GANGLION_WITH_STORAGEGRID
inline constexpr std::size_t with_storagegrid = 1;
#else
inline constexpr std::size_t with_storagegrid = 0;
#endif

} // namespace ganglion::test
