#pragma once

#include "ganglion/core/source.hpp"

namespace ganglion::minio {

/// The `minio` source: one ListenBucketNotification stream per event (minio-go's request:
/// `GET /<bucket>?events=…&ping=10&prefix=…&suffix=…`, signed with AWS SigV4), each line of
/// records published as one event with Argo's data (`{"notification":[records],"metadata":…}`).
/// `Pending` until the stream is open; reconnects with backoff when it drops; an endpoint that
/// cannot be reached or refuses the request fails the source with the reason (phase Error, the
/// engine restarts it with backoff).
core::source_factory make_source_factory();

/// Registers the `minio` source.
void register_transport(core::source_registry& sources);

} // namespace ganglion::minio
