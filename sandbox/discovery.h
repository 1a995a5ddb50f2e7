// Discovery, as kube-apiserver serves it to clients finding out what a server
// serves: /version, /api, /apis, /apis/G, the resource lists of a group
// version (with their subresources and verbs), and the OpenAPI documents
// (/openapi/v3, openapi.h; an empty /openapi/v2). Answers to GET only; the
// router checks the method. Called under the cluster's lock (cluster_state.h).
#pragma once

#include <string>
#include <vector>

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"

namespace mkq::sandbox {

ApiResponse version_answer();
// /api
ApiResponse api_versions();
// /apis, /apis/G
ApiResponse group_list(const ClusterState& state);
ApiResponse group_info(const ClusterState& state, const std::string& name);
// /api/v1, /apis/G/V
ApiResponse resource_list(const ClusterState& state, const std::string& group, const std::string& version);
// /openapi/v3[/api/v1 | /apis/G/V] (`parts`: the path's segments) and /openapi/v2.
ApiResponse openapi_v3(const ClusterState& state, const std::vector<std::string>& parts);
ApiResponse openapi_v2(const ApiRequest& r);

}  // namespace mkq::sandbox
