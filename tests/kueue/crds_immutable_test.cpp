// The immutability rules mkq's generated CRDs carry (from schema.h's
// kImmutableFields): the same CEL rule text Kueue's released CRDs use, so the
// sandbox rejects changes to them as kube-apiserver does.
#include <catch2/catch.hpp>

#include "compiler/kueue/crds.h"
#include "compiler/kueue/schema.h"

namespace schema = mkq::kueue::schema;
using mkq::kueue::Json;

namespace {

const Json& spec_schema(const Json& crd) {
  return crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
}

}  // namespace

TEST_CASE("crds: immutable fields carry Kueue's transition rules") {
  const Json lq = mkq::kueue::kueue_crd(schema::Kind::LocalQueue);
  CHECK(spec_schema(lq)["properties"]["clusterQueue"]["x-kubernetes-validations"] ==
        Json::array({{{"message", "field is immutable"}, {"rule", "self == oldSelf"}}}));
  const Json ac = mkq::kueue::kueue_crd(schema::Kind::AdmissionCheck);
  CHECK(spec_schema(ac)["properties"]["controllerName"]["x-kubernetes-validations"] ==
        Json::array({{{"message", "field is immutable"}, {"rule", "self == oldSelf"}}}));
  const Json rf = mkq::kueue::kueue_crd(schema::Kind::ResourceFlavor);
  CHECK(spec_schema(rf)["x-kubernetes-validations"] ==
        Json::array({{{"message", "topologyName is immutable when topologyName is set"},
                      {"rule", "!has(oldSelf.topologyName) || (has(self.topologyName) && self.topologyName == "
                               "oldSelf.topologyName)"}}}));
  // A conditional rule needs real CEL: not generated.
  const Json topology = mkq::kueue::kueue_crd(schema::Kind::Topology);
  CHECK_FALSE(spec_schema(topology)["properties"]["levels"].contains("x-kubernetes-validations"));
}
