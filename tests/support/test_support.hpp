#pragma once

// Helpers shared by the integration and e2e tests (namespace ganglion::test).

#include "http_sink.hpp"
#include "http_request.hpp"
#include "child_process.hpp"
#include "files.hpp"
#include "nats_server.hpp"
