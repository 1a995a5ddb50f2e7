// core/v1 Services, as kube-apiserver v1.33 serves them on a single-stack
// IPv4 cluster whose service CIDR is 10.96.0.0/12 (kubeadm's and kind's
// default) and whose node-port range is 30000-32767: v1 defaults, the
// clusterIP and nodePorts allocated from those pools (an explicit one checked
// and refused when taken or out of range), the IP family fields, validation,
// the `kubernetes` Service in `default` (10.96.0.1) every cluster has, and
// the table printer. Nothing routes traffic: there are no Endpoints or
// EndpointSlices, and a LoadBalancer Service stays <pending>.
#pragma once

#include <ctime>
#include <nlohmann/json.hpp>
#include <vector>

#include "sandbox/cluster_state.h"
#include "sandbox/schema.h"
#include "sandbox/store.h"

namespace mkq::sandbox {

// SetDefaults_Service: type ClusterIP, sessionAffinity None, each port's
// protocol TCP and targetPort its port, internalTrafficPolicy Cluster,
// externalTrafficPolicy Cluster where externally reachable,
// allocateLoadBalancerNodePorts for a LoadBalancer. No state.
void default_service(nlohmann::json& service);

// What the service registry's BeginCreate/BeginUpdate do before validation:
// the values an update left out taken from `existing` (null on a create),
// clusterIP and clusterIPs kept in step, ipFamilyPolicy and ipFamilies, a
// clusterIP and nodePorts allocated from the pools (the other Services in
// `store` hold what is taken). Returns kube-apiserver's errors (a 422), empty
// when the service may go on to validation. Reads the store, writes nothing:
// a dry run allocates without keeping.
std::vector<FieldError> allocate_service(const Store& store, nlohmann::json& service, const nlohmann::json* existing);

// ValidateService (and ValidateServiceUpdate with `existing`): ports, types,
// session affinity, the clusterIP fields, in kube-apiserver's order and words.
std::vector<FieldError> validate_service(const nlohmann::json& service, const nlohmann::json* existing);

// Creates default/kubernetes (10.96.0.1, port 443 -> 6443) when missing, as
// kube-apiserver's bootstrap controller does. Under the cluster's lock.
void install_kubernetes_service(ClusterState& state);

// The printer: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, SELECTOR (wide).
nlohmann::json service_columns();
nlohmann::json service_cells(const nlohmann::json& service, std::time_t now);

}  // namespace mkq::sandbox
