#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::minio::detail {

/// Argo's event data of one line of a ListenBucketNotification stream: the line decoded into
/// minio-go's `notification.Info` (Go's rules: field names matched case-insensitively, unknown
/// fields dropped, a missing string empty, a missing map `null`) and marshaled back as
/// `MinioEventData` — `{"notification":[records],"metadata":{…}}` (metadata omitted when
/// empty) — byte for byte as Go's encoding/json writes it. Nullopt for a line without records
/// (blank, a ping); throws std::runtime_error naming what minio-go's decoder would refuse.
std::optional<std::string> minio_event_data(std::string_view line,
                                            const std::map<std::string, std::string>& metadata);

} // namespace ganglion::minio::detail
