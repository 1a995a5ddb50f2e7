// The policy writer: a Snapshot's objects as declarations of the language.
//
// Names are kept as they are. A LocalQueue is nested in its cluster queue; a
// multikueue AdmissionCheck with its MultiKueueConfig is a dispatch; a
// MultiKueueCluster is a worker, whose own version of a mirrored queue (read
// from the worker) is an override, or the queue's worker_name when every
// worker renames it alike. Workers whose blocks differ only in their name are
// written once, in a loop. The text is run through the formatter. Whatever is
// left out here is found by the check against the objects read (check.cpp),
// so the writer never has to report it.
#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "compiler/diag/diagnostic.h"
#include "compiler/syntax/format.h"
#include "compiler/syntax/parse.h"
#include "runtime/importer/importer_internal.h"

namespace mkq::importer {
namespace {

using syntax::quote_literal;

const std::set<std::string> kHardKeywords = {"import", "as",   "let",    "template", "use",   "for",  "in",
                                             "if",     "else", "assert", "true",     "false", "null", "all"};

// A map key or a resource name: bare when it is an identifier, else quoted.
std::string key_text(const std::string& name) {
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  if (std::regex_match(name, identifier) && !kHardKeywords.contains(name)) return name;
  return quote_literal(name);
}

// A quantity as the language writes it (9, 36Gi, 500m, 1.5); anything else quoted.
std::string quantity_text(const Json& value) {
  if (value.is_number_integer() || value.is_number_unsigned()) return value.dump();
  if (value.is_number_float()) return value.dump();
  if (value.is_string()) {
    static const std::regex quantity("[0-9]+(\\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?");
    std::string text = value.get<std::string>();
    if (std::regex_match(text, quantity)) return text;
    return quote_literal(text);
  }
  return value.dump();
}

std::string scalar_text(const Json& value) {
  if (value.is_string()) return quote_literal(value.get<std::string>());
  return value.dump();
}

std::string string_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : ", ") + quote_literal(items[i]);
  return out + "]";
}

// A map of labels (string -> string) as a literal.
std::string string_map(const Json& map) {
  std::string out = "{ ";
  bool first = true;
  for (const auto& [key, value] : map.items()) {
    out += (first ? "" : ", ") + key_text(key) + ": " + scalar_text(value);
    first = false;
  }
  return out + " }";
}

// A list of maps whose keys are renamed (camelCase -> the language's keys).
std::string map_list(const Json& list, const std::vector<std::pair<std::string, std::string>>& keys) {
  std::string out = "[";
  bool first_item = true;
  for (const Json& item : list) {
    if (!item.is_object()) continue;
    out += first_item ? "{ " : ", { ";
    first_item = false;
    bool first = true;
    for (const auto& [from, to] : keys) {
      if (!item.contains(from)) continue;
      out += (first ? "" : ", ") + to + ": " + scalar_text(item[from]);
      first = false;
    }
    out += " }";
  }
  return out + "]";
}

const Json* at(const Json& object, std::initializer_list<const char*> path) {
  const Json* node = &object;
  for (const char* key : path) {
    if (!node->is_object()) return nullptr;
    const auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

std::string string_at(const Json& object, std::initializer_list<const char*> path) {
  const Json* value = at(object, path);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

// `field = "value"` when the object sets it.
void enum_field(std::string& out, const Json& object, std::initializer_list<const char*> path,
                const char* field) {
  if (const Json* value = at(object, path); value != nullptr && value->is_string()) {
    out += std::string(field) + " = " + quote_literal(value->get<std::string>()) + "\n";
  }
}

void weight_block(std::string& out, const Json& spec) {
  if (const Json* weight = at(spec, {"fairSharing", "weight"})) {
    out += "fair_sharing { weight = " + quantity_text(*weight) + " }\n";
  }
}

// One resource of a quota: `cpu = 9` or `cpu = { nominal: 9, borrowing_limit: 2 }`.
std::string resource_text(const Json& resource) {
  const std::string name = key_text(resource.value("name", std::string()));
  const Json nominal = resource.value("nominalQuota", Json(0));
  if (!resource.contains("borrowingLimit") && !resource.contains("lendingLimit")) {
    return name + " = " + quantity_text(nominal);
  }
  std::string out = name + " = { nominal: " + quantity_text(nominal);
  if (resource.contains("borrowingLimit"))
    out += ", borrowing_limit: " + quantity_text(resource["borrowingLimit"]);
  if (resource.contains("lendingLimit")) out += ", lending_limit: " + quantity_text(resource["lendingLimit"]);
  return out + " }";
}

// The names a JSON list of strings holds.
std::vector<std::string> strings_of(const Json* list) {
  std::vector<std::string> out;
  if (list == nullptr || !list->is_array()) return out;
  for (const Json& item : *list) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

// One flavor of a resource group as a quota block, its resources in the
// group's order (coveredResources), as the language groups them.
std::string quota_block(const Json& flavor, const std::vector<std::string>& covered) {
  std::vector<const Json*> resources;
  if (const Json* list = at(flavor, {"resources"}); list != nullptr && list->is_array()) {
    for (const Json& r : *list) resources.push_back(&r);
  }
  const auto rank = [&](const Json* r) {
    return std::find(covered.begin(), covered.end(), r->value("name", std::string())) - covered.begin();
  };
  std::stable_sort(resources.begin(), resources.end(),
                   [&](const Json* a, const Json* b) { return rank(a) < rank(b); });
  std::string out = "quota " + quote_literal(flavor.value("name", std::string())) + " { ";
  for (std::size_t i = 0; i < resources.size(); ++i) {
    if (i > 0) out += ", ";
    out += resource_text(*resources[i]);
  }
  return out + " }\n";
}

}  // namespace

std::string quota_blocks(const Json& spec) {
  std::string out;
  const Json* groups = at(spec, {"resourceGroups"});
  if (groups == nullptr || !groups->is_array()) return out;
  for (const Json& group : *groups) {
    const std::vector<std::string> covered = strings_of(at(group, {"coveredResources"}));
    const Json* flavors = at(group, {"flavors"});
    if (flavors == nullptr || !flavors->is_array()) continue;
    for (const Json& flavor : *flavors) out += quota_block(flavor, covered);
  }
  return out;
}

namespace {

std::string namespaces_field(const Json& spec) {
  const Json* selector = at(spec, {"namespaceSelector"});
  if (selector == nullptr || !selector->is_object()) return "";
  if (selector->empty()) return "namespaces = all\n";
  const Json* labels = at(*selector, {"matchLabels"});
  const Json* expressions = at(*selector, {"matchExpressions"});
  if (labels != nullptr && expressions == nullptr && selector->size() == 1) {
    return "namespaces = " + string_map(*labels) + "\n";
  }
  if (expressions != nullptr && labels == nullptr && selector->size() == 1 && expressions->size() == 1) {
    const Json& e = (*expressions)[0];
    if (e.value("key", std::string()) == "kubernetes.io/metadata.name" &&
        e.value("operator", std::string()) == "In" && e.contains("values") && e["values"].is_array()) {
      std::vector<std::string> names;
      for (const Json& v : e["values"]) {
        if (v.is_string()) names.push_back(v.get<std::string>());
      }
      return "namespaces = " + string_list(names) + "\n";
    }
  }
  return "";  // not expressible: the check reports spec.namespaceSelector
}

std::string preemption_block(const Json& spec) {
  const Json* p = at(spec, {"preemption"});
  if (p == nullptr || !p->is_object() || p->empty()) return "";
  std::string out = "preemption {\n";
  enum_field(out, *p, {"withinClusterQueue"}, "within_cluster_queue");
  enum_field(out, *p, {"reclaimWithinCohort"}, "reclaim_within_cohort");
  enum_field(out, *p, {"borrowWithinCohort", "policy"}, "borrow_within_cohort");
  if (const Json* t = at(*p, {"borrowWithinCohort", "maxPriorityThreshold"})) {
    out += "borrow_max_priority_threshold = " + t->dump() + "\n";
  }
  return out + "}\n";
}

std::string fungibility_block(const Json& spec) {
  const Json* f = at(spec, {"flavorFungibility"});
  if (f == nullptr || !f->is_object() || f->empty()) return "";
  std::string out = "flavor_fungibility {\n";
  enum_field(out, *f, {"whenCanBorrow"}, "when_can_borrow");
  enum_field(out, *f, {"whenCanPreempt"}, "when_can_preempt");
  enum_field(out, *f, {"preference"}, "preference");
  return out + "}\n";
}

std::string localqueue_block(const Json& queue) {
  const Json spec = queue.value("spec", Json::object());
  std::string body;
  enum_field(body, spec, {"stopPolicy"}, "stop_policy");
  weight_block(body, spec);
  return "localqueue " + quote_literal(name_of(queue)) + " in " + quote_literal(namespace_of(queue)) +
         " {\n" + body + "}\n";
}

std::string flavor_block(const Json& flavor) {
  const Json spec = flavor.value("spec", Json::object());
  std::string body;
  if (const Json* labels = at(spec, {"nodeLabels"});
      labels != nullptr && labels->is_object() && !labels->empty()) {
    body += "node_labels = " + string_map(*labels) + "\n";
  }
  if (const Json* taints = at(spec, {"nodeTaints"});
      taints != nullptr && taints->is_array() && !taints->empty()) {
    body +=
        "taints = " + map_list(*taints, {{"key", "key"}, {"value", "value"}, {"effect", "effect"}}) + "\n";
  }
  if (const Json* t = at(spec, {"tolerations"}); t != nullptr && t->is_array() && !t->empty()) {
    body += "tolerations = " +
            map_list(*t, {{"key", "key"},
                          {"operator", "operator"},
                          {"value", "value"},
                          {"effect", "effect"},
                          {"tolerationSeconds", "toleration_seconds"}}) +
            "\n";
  }
  if (const std::string topology = string_at(spec, {"topologyName"}); !topology.empty()) {
    body += "topology = " + quote_literal(topology) + "\n";
  }
  return "flavor " + quote_literal(name_of(flavor)) + " {\n" + body + "}\n";
}

std::string topology_block(const Json& topology) {
  std::vector<std::string> levels;
  if (const Json* list = at(topology, {"spec", "levels"}); list != nullptr && list->is_array()) {
    for (const Json& level : *list) levels.push_back(level.value("nodeLabel", std::string()));
  }
  return "topology " + quote_literal(name_of(topology)) + " { levels = " + string_list(levels) + " }\n";
}

std::string cohort_block(const Json& cohort) {
  const Json spec = cohort.value("spec", Json::object());
  std::string body;
  if (const std::string parent = string_at(spec, {"parentName"}); !parent.empty()) {
    body += "parent = " + quote_literal(parent) + "\n";
  }
  body += quota_blocks(spec);
  weight_block(body, spec);
  return "cohort " + quote_literal(name_of(cohort)) + " {\n" + body + "}\n";
}

std::string priorityclass_block(const Json& priority) {
  std::string body = "value = " + priority.value("value", Json(0)).dump();
  if (priority.contains("description") && priority["description"].is_string()) {
    body += ", description = " + quote_literal(priority["description"].get<std::string>());
  }
  return "priorityclass " + quote_literal(name_of(priority)) + " { " + body + " }\n";
}

std::string clusterqueue_block(const Json& queue, const Layout& layout) {
  const Json spec = queue.value("spec", Json::object());
  const std::string name = name_of(queue);
  std::string body = namespaces_field(spec);
  if (const std::string cohort = string_at(spec, {"cohortName"}); !cohort.empty()) {
    body += "cohort = " + quote_literal(cohort) + "\n";
  }
  enum_field(body, spec, {"queueingStrategy"}, "queueing_strategy");
  enum_field(body, spec, {"stopPolicy"}, "stop_policy");
  if (const auto renamed = layout.worker_name.find(name); renamed != layout.worker_name.end()) {
    body += "worker_name = " + quote_literal(renamed->second) + "\n";
  }
  body += quota_blocks(spec);
  body += preemption_block(spec);
  weight_block(body, spec);
  body += fungibility_block(spec);
  for (const Json* local : layout.localqueues_of(name)) body += localqueue_block(*local);
  return "clusterqueue " + quote_literal(name) + " {\n" + body + "}\n";
}

std::string dispatch_block(const Dispatch& dispatch) {
  std::string body;
  if (dispatch.config != dispatch.name) body += "config = " + quote_literal(dispatch.config) + "\n";
  body += "queues = " + string_list(dispatch.queues) + "\n";
  body += "workers = " + string_list(dispatch.workers) + "\n";
  return "dispatch " + quote_literal(dispatch.name) + " {\n" + body + "}\n";
}

// A string literal whose text holds the worker's name: the name as `${name}`,
// so that the blocks of workers alike read the same.
constexpr const char* kNameMark = "\x01";

std::string templated(const std::string& text, const std::string& worker) {
  std::string marked = text;
  for (std::size_t at = marked.find(worker); !worker.empty() && at != std::string::npos;
       at = marked.find(worker, at + 1)) {
    marked.replace(at, worker.size(), kNameMark);
  }
  std::string out = quote_literal(marked);
  for (std::size_t at = out.find(kNameMark); at != std::string::npos; at = out.find(kNameMark, at)) {
    out.replace(at, 1, "${name}");
  }
  return out;
}

// The body of a worker's block, its name written as `${name}`; the kubeconfig
// secret as kKubeconfigMark, filled in once the block's form is known.
constexpr const char* kKubeconfigMark = "\x02";

std::string worker_body(const WorkerPlan& worker, const WriteOptions& options) {
  std::string body;
  if (!worker.context.empty() && worker.context != worker.name) {
    body += "context = " + templated(worker.context, worker.name) + "\n";
  }
  if (!worker.secret.empty() && worker.secret != worker.name + "-kubeconfig") {
    body += "secret = " + templated(worker.secret, worker.name) + "\n";
  }
  if (options.credentials == Credentials::Kubeconfig) {
    body += "credentials {\nmode = \"kubeconfig\"\nkubeconfig = " + std::string(kKubeconfigMark) + "\n}\n";
  }
  for (const auto& [queue, override_of] : worker.overrides) {
    body += "override " + quote_literal(queue) + " {\n";
    if (!override_of.name.empty()) body += "name = " + templated(override_of.name, worker.name) + "\n";
    body += override_of.quotas;
    body += "}\n";
  }
  return body;
}

std::string fill(std::string body, const std::string& kubeconfig) {
  if (const std::size_t at = body.find(kKubeconfigMark); at != std::string::npos)
    body.replace(at, 1, kubeconfig);
  return body;
}

std::string named(std::string body, const std::string& worker) {
  const std::string mark = "${name}";
  for (std::size_t at = body.find(mark); at != std::string::npos; at = body.find(mark, at)) {
    body.replace(at, mark.size(), worker);
  }
  return body;
}

// Workers as blocks: those whose bodies read the same, two or more, as one loop.
std::string worker_blocks(const std::vector<WorkerPlan>& workers, const WriteOptions& options) {
  std::map<std::string, std::vector<std::string>> by_body;  // body -> worker names
  std::vector<std::string> order;
  for (const WorkerPlan& worker : workers) {
    const std::string body = worker_body(worker, options);
    if (!by_body.contains(body)) order.push_back(body);
    by_body[body].push_back(worker.name);
  }
  std::string out;
  const bool kubeconfigs = options.credentials == Credentials::Kubeconfig;
  if (kubeconfigs && !workers.empty()) {
    // Where each worker's kubeconfig comes from (never its value).
    out +=
        "// Each worker's kubeconfig, as the manager's Secret holds it now: set these variables for plan and "
        "apply.\n";
    out += "let kubeconfigs = {\n";
    for (const WorkerPlan& worker : workers) {
      out += quote_literal(worker.name) + ": secret(" +
             quote_literal("env:" + kubeconfig_variable(worker.name)) + "),\n";
    }
    out += "}\n\n";
  }
  for (const std::string& body : order) {
    const std::vector<std::string>& names = by_body[body];
    if (names.size() >= 2) {
      out += "for name in " + string_list(names) + " {\nworker \"${name}\" {\n" +
             fill(body, "kubeconfigs[name]") + "}\n}\n\n";
      continue;
    }
    const std::string& worker = names.front();
    out += "worker " + quote_literal(worker) + " {\n" +
           fill(named(body, worker), "kubeconfigs[" + quote_literal(worker) + "]") + "}\n\n";
  }
  return out;
}

}  // namespace

base::Result<std::string> write_policy(const Layout& layout, const WriteOptions& options) {
  std::string text;
  if (!options.header.empty()) text += "// " + options.header + "\n\n";
  text += "manager " + quote_literal(layout.manager) + " {";
  if (!layout.manager_context.empty() && layout.manager_context != layout.manager) {
    text += " context = " + quote_literal(layout.manager_context) + " ";
  }
  text += "}\n\n";
  text += worker_blocks(layout.workers, options);
  for (const Json* o : layout.of_kind("Topology")) text += topology_block(*o) + "\n";
  for (const Json* o : layout.of_kind("ResourceFlavor")) text += flavor_block(*o) + "\n";
  for (const Json* o : layout.of_kind("Cohort")) text += cohort_block(*o) + "\n";
  for (const Json* o : layout.of_kind("WorkloadPriorityClass")) text += priorityclass_block(*o) + "\n";
  for (const Json* o : layout.of_kind("ClusterQueue")) text += clusterqueue_block(*o, layout) + "\n";
  for (const Dispatch& d : layout.dispatches) text += dispatch_block(d) + "\n";

  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  const diag::FileId file = sources.add("import.mkq", text);
  const std::unique_ptr<syntax::File> parsed = syntax::parse_file(sources, file, diagnostics);
  if (parsed == nullptr || diagnostics.has_errors()) {
    return base::Error::config("the policy written does not parse (a bug of mkq import):\n" +
                               diag::render_text(diagnostics.sorted(sources), sources));
  }
  return syntax::format_file(*parsed, sources.file(file));
}

}  // namespace mkq::importer
