#pragma once

// `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews`: may the caller (after
// impersonation) do what the review describes.

#include "api_handler.hpp"
#include "rbac.hpp"

namespace ganglion::test::kube {

/// Whether `target` is the SelfSubjectAccessReview collection.
bool is_access_review(const parsed_target& target);

/// The reviewed SelfSubjectAccessReview (201) with `status.allowed` and `status.reason`, for
/// `call`'s user. Throws api_error (400, 405, 422) for a bad request.
api_reply self_subject_access_review(const api_call& call, const authorizer& authorize);

} // namespace ganglion::test::kube
