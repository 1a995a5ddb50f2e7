// Kubernetes name formats (compiler/sema/names.h) and where the binder checks them.
#include "compiler/sema/names.h"

#include <string>

#include "tests/sema/bind_test_support.h"

namespace bindtest {

using mkq::sema::dns1123_label_error;
using mkq::sema::dns1123_subdomain_error;
using mkq::sema::framework_name_error;
using mkq::sema::label_key_error;
using mkq::sema::label_value_error;

TEST_CASE("names: DNS-1123 subdomains", "[sema][bind][names]") {
  for (const char* ok : {"a", "cluster-queue", "a.b.c", "0abc", "x1-2.y3"}) {
    INFO(ok);
    CHECK_FALSE(dns1123_subdomain_error(ok));
  }
  for (const char* bad : {"Cluster_Queue", "-a", "a-", "a..b", "a.-b", ".a", "a.", "a b", "UPPER"}) {
    INFO(bad);
    CHECK(dns1123_subdomain_error(bad) ==
          "a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and "
          "end with an alphanumeric character");
  }
  CHECK(dns1123_subdomain_error("") == "a DNS-1123 subdomain must not be empty");
  CHECK_FALSE(dns1123_subdomain_error(std::string(253, 'a')));
  CHECK(dns1123_subdomain_error(std::string(254, 'a')) == "a DNS-1123 subdomain must be no more than 253 characters");
}

TEST_CASE("names: DNS-1123 labels", "[sema][bind][names]") {
  CHECK_FALSE(dns1123_label_error("team-a"));
  CHECK(dns1123_label_error("team.a") ==
        "a DNS-1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an "
        "alphanumeric character");
  CHECK(dns1123_label_error("") == "a DNS-1123 label must not be empty");
  CHECK_FALSE(dns1123_label_error(std::string(63, 'a')));
  CHECK(dns1123_label_error(std::string(64, 'a')) == "a DNS-1123 label must be no more than 63 characters");
}

TEST_CASE("names: label keys and resource names", "[sema][bind][names]") {
  for (const char* ok : {"cpu", "nvidia.com/gpu", "kubernetes.io/hostname", "Gpu_Type", "a.b-c_d", "cpu_credits"}) {
    INFO(ok);
    CHECK_FALSE(label_key_error(ok));
  }
  CHECK(label_key_error("a/b/c") ==
        "a qualified name has at most one '/': an optional DNS-1123 subdomain prefix, then a name");
  CHECK(label_key_error("/gpu") == "the prefix before '/' must not be empty");
  CHECK(label_key_error("Nvidia.com/gpu") ==
        "the prefix before '/' is not valid: a DNS-1123 subdomain must consist of lower case alphanumeric "
        "characters, '-' or '.', and must start and end with an alphanumeric character");
  CHECK(label_key_error("nvidia.com/") == "the name part must not be empty");
  CHECK(label_key_error("gpu type") ==
        "the name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character");
  CHECK(label_key_error(std::string(64, 'a')) == "the name part must be no more than 63 characters");
  CHECK(label_key_error(std::string(254, 'a') + "/x") == "the prefix before '/' must be no more than 253 characters");
}

TEST_CASE("names: label values", "[sema][bind][names]") {
  CHECK_FALSE(label_value_error(""));
  CHECK_FALSE(label_value_error("nvidia-tesla-t4"));
  CHECK_FALSE(label_value_error("Tesla_T4.1"));
  CHECK(label_value_error("a b") ==
        "a label value must be empty or must consist of alphanumeric characters, '-', '_' or '.', and must start and "
        "end with an alphanumeric character");
  CHECK(label_value_error(std::string(64, 'a')) == "a label value must be no more than 63 characters");
}

TEST_CASE("names: external framework names", "[sema][bind][names]") {
  CHECK_FALSE(framework_name_error("RayJob.v1.ray.io"));
  CHECK_FALSE(framework_name_error("Foo.v1.example.com"));
  for (const char* bad : {"RayJob", "RayJob.v1", ".v1.ray.io", "RayJob..ray.io", "1Job.v1.x", "Ray Job.v1.x"}) {
    INFO(bad);
    CHECK(framework_name_error(bad) ==
          "an external framework must be in 'Kind.version.group' format, e.g. 'RayJob.v1.ray.io'");
  }
}

// ------------------------------------------------------------------ where names are checked

TEST_CASE("binder checks object names at their label", "[sema][bind][names][errors]") {
  const Block cq = Block("clusterqueue", {"Cluster_Queue"});
  const Result r = run(with_base({cq}));
  const auto& d = r.only(codes::kInvalidSubdomain);
  CHECK(d.message ==
        "'Cluster_Queue' is not a valid name: a DNS-1123 subdomain must consist of lower case alphanumeric "
        "characters, '-' or '.', and must start and end with an alphanumeric character");
  CHECK(d.range == cq.label());
}

TEST_CASE("binder checks namespaces as DNS-1123 labels", "[sema][bind][names][errors]") {
  SECTION("a localqueue's namespace") {
    const Block lq = Block("localqueue", {"lq"}).in("team.a").set("clusterqueue", str("cq"));
    const Result r = run(with_base({lq}));
    const auto& d = r.only(codes::kInvalidDnsLabel);
    CHECK(d.message ==
          "'team.a' is not a valid namespace name: a DNS-1123 label must consist of lower case alphanumeric "
          "characters or '-', and must start and end with an alphanumeric character");
    CHECK(d.range == lq.block.in_label->range);
  }
  SECTION("a namespace declaration") {
    const Block ns("namespace", {"a.b"});
    CHECK(run(with_base({ns})).only(codes::kInvalidDnsLabel).range == ns.label());
  }
  SECTION("a clusterqueue's namespace list") {
    const Value bad = str("Team");
    const Block cq = Block("clusterqueue", {"cq2"}).set("namespaces", list({str("ok"), bad}));
    const Result r = run(with_base({cq}));
    CHECK(r.only(codes::kInvalidDnsLabel).range == bad.origin);
  }
}

TEST_CASE("binder checks the dispatch config name as a DNS-1123 label", "[sema][bind][names][errors]") {
  SECTION("written") {
    const Block dispatch = Block("dispatch", {"d2"})
                               .set("config", str("multi.kueue"))
                               .set("queues", strings({"cq2"}))
                               .set("workers", strings({"w2"}));
    const Block cq = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", num("1")}}));
    const Result r = run(with_base({cq, dispatch}));
    const auto& d = r.only(codes::kInvalidDnsLabel);
    CHECK(d.message.rfind("'multi.kueue' is not a valid config name: a DNS-1123 label", 0) == 0);
    CHECK(d.range == dispatch.value_of(0));
  }
  SECTION("defaulted from the dispatch's name") {
    const Block dispatch =
        Block("dispatch", {"mk.check"}).set("queues", strings({"cq2"})).set("workers", strings({"w2"}));
    const Block cq = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", num("1")}}));
    const Result r = run(with_base({cq, dispatch}));
    const auto& d = r.only(codes::kInvalidDnsLabel);
    CHECK(d.message.rfind("'mk.check' is not a valid config name (the default, the dispatch's name; set 'config'): ",
                          0) == 0);
    CHECK(d.range == dispatch.label());
  }
}

TEST_CASE("binder checks label keys and values", "[sema][bind][names][errors]") {
  const Value value = str("a b");
  const Block flavor = Block("flavor", {"g"}).set("node_labels", map({{"gpu type", str("t4")}, {"zone", value}}));
  const Result r = run(with_base({flavor}));
  const auto& key = r.first(codes::kInvalidLabelKey);
  CHECK(key.message.rfind("'gpu type' is not a valid label key: the name part must consist of", 0) == 0);
  const auto& bad_value = r.first(codes::kInvalidLabelValue);
  CHECK(bad_value.message.rfind("'a b' is not a valid label value: ", 0) == 0);
  CHECK(bad_value.range == value.origin);
  CHECK(r.diagnostics.error_count() == 2);
}

TEST_CASE("binder checks quota resource names and topology levels", "[sema][bind][names][errors]") {
  SECTION("resource") {
    const Block cq = Block("clusterqueue", {"cq2"}).add(quota("f", {{"nvidia.com//gpu", num("1")}}));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kInvalidResourceName);
    CHECK(d.message == "'nvidia.com//gpu' is not a valid resource name: a qualified name has at most one '/': an "
                       "optional DNS-1123 subdomain prefix, then a name");
    CHECK(d.range == cq.nested(0).attributes[0].name_range);
  }
  SECTION("level") {
    const Value level = str("Rack/zone");
    const Block topology = Block("topology", {"t"}).set("levels", list({level}));
    const Result r = run(with_base({topology}));
    const auto& d = r.only(codes::kInvalidLabelKey);
    CHECK(d.message.rfind("'Rack/zone' is not a valid level label key: the prefix before '/' is not valid", 0) == 0);
    CHECK(d.range == level.origin);
  }
  SECTION("origin") {
    const Block kueue = Block("kueue").add(Block("multikueue").set("origin", str("-bad")));
    CHECK(run(with_base({kueue})).only(codes::kInvalidLabelValue).message.rfind(
              "'-bad' is not a valid origin (a label value): ", 0) == 0);
  }
}

TEST_CASE("binder checks a worker's default Secret name", "[sema][bind][names][errors]") {
  const std::string long_name(250, 'w');
  const Block worker("worker", {long_name});
  const Result r = run(with_base({worker}));
  const auto& d = r.only(codes::kInvalidSubdomain);
  CHECK(d.message == "'" + long_name +
                         "-kubeconfig' is not a valid Secret name (the default, NAME-kubeconfig; set 'secret'): a "
                         "DNS-1123 subdomain must be no more than 253 characters");
  CHECK(d.range == worker.label());
}

}  // namespace bindtest
