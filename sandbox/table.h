// meta.k8s.io/v1 Table answers (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`):
// NAME, the kind's extra columns (a CRD's additionalPrinterColumns, or the
// built-in columns kube-apiserver prints), AGE; rows carry the object as
// PartialObjectMetadata (includeObject=Metadata, the default), the whole
// object (Object) or nothing (None).
#pragma once

#include <ctime>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/resources.h"

namespace mkq::sandbox {

// True when the Accept header asks for a meta.k8s.io/v1 Table.
bool wants_table(const std::string& accept);

nlohmann::json to_table(const ResourceInfo& info, const std::vector<nlohmann::json>& objects,
                        const nlohmann::json& list_metadata, const std::string& include_object, std::time_t now);

// Kubernetes' HumanDuration: "45s", "5m30s", "3h", "2d4h", ...
std::string human_duration(long long seconds);

// A simple JSONPath (".spec.cohortName", ".spec.x[0].y",
// `.status.conditions[?(@.type=="Active")].status`): the first match, or null.
nlohmann::json json_path_first(const nlohmann::json& object, const std::string& path);
// Its first match when it is a string, else "".
std::string text_at_path(const nlohmann::json& object, const std::string& path);

// "2026-11-21T07:08:17Z" -> seconds since the epoch; -1 when malformed.
long long parse_timestamp(const std::string& text);
std::string format_timestamp(std::time_t when);

}  // namespace mkq::sandbox
