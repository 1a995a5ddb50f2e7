#include "sandbox/table.h"

#include <cctype>
#include <chrono>
#include <optional>

#include <fmt/format.h>

#include "base/time.h"
#include "sandbox/apps_workloads.h"
#include "sandbox/jobs.h"
#include "sandbox/nodes_pods.h"
#include "sandbox/priority_classes.h"
#include "sandbox/services.h"

namespace mkq::sandbox {
namespace {

struct Column {
  std::string name;
  std::string type;
  std::string format;
  std::string description;
  int priority = 0;
  std::string json_path;  // empty: computed by `compute`
};

constexpr const char* kCreationDescription =
    "CreationTimestamp is a timestamp representing the server time when this object was created.";

// The age of the object ("5m"), where kube-apiserver's printer puts it.
Column age_column() { return {"Age", "string", "", kCreationDescription, 0, "@age"}; }
// Roles and CRDs print when they were created, as an RFC 3339 time.
Column created_at_column() { return {"Created At", "date", "", kCreationDescription, 0, "@created"}; }

// The wide columns of a workload's pod template (kube's layoutContainerCells).
Column containers_column() { return {"Containers", "string", "", "Names of each container in the template.", 1, "%containers"}; }
Column images_column() { return {"Images", "string", "", "Images referenced by each container in the template.", 1, "%images"}; }

// The columns after Name: kube-apiserver's printers for the built-in kinds,
// a CRD's additionalPrinterColumns for its custom resources (only Age when
// it declares none, as apiextensions-apiserver serves them).
std::vector<Column> table_columns(const ResourceInfo& info) {
  const bool core = info.group.empty();
  if (core && info.resource == "namespaces") {
    return {{"Status", "string", "", "The status of the namespace", 0, ".status.phase"}, age_column()};
  }
  if (core && info.resource == "secrets") {
    return {{"Type", "string", "", "The type of the secret", 0, ".type"},
            {"Data", "string", "", "The number of entries in the secret", 0, "#data"}, age_column()};
  }
  if (core && info.resource == "configmaps") {
    return {{"Data", "string", "", "The number of entries in the config map", 0, "#data"}, age_column()};
  }
  if (core && info.resource == "serviceaccounts") {
    return {{"Secrets", "string", "", "The number of secrets", 0, "#secrets"}, age_column()};
  }
  if (info.group == "apps" && info.resource == "deployments") {
    return {{"Ready", "string", "", "Number of the pod with ready state", 0, "=ready"},
            {"Up-to-date", "integer", "", "Total number of non-terminated pods targeted by this deployment that have the desired template spec.", 0, "=.status.updatedReplicas"},
            {"Available", "integer", "", "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.", 0, "=.status.availableReplicas"},
            age_column(), containers_column(), images_column(),
            {"Selector", "string", "", "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.", 1, "%selector"}};
  }
  // The other apps/v1 workloads (apps_workloads.h), as kube-apiserver's printers print them.
  if (info.group == "apps" && info.resource == "replicasets") {
    return {{"Desired", "integer", "", "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.", 0, "=.spec.replicas"},
            {"Current", "integer", "", "Replicas is the most recently observed number of replicas.", 0, "=.status.replicas"},
            {"Ready", "integer", "", "The number of ready replicas for this replica set.", 0, "=.status.readyReplicas"},
            age_column(), containers_column(), images_column(),
            {"Selector", "string", "", "Selector is a label query over pods that should match the replica count. It must match the pod template's labels.", 1, "%selector"}};
  }
  if (info.group == "apps" && info.resource == "statefulsets") {
    return {{"Ready", "string", "", "Number of the pod with ready state", 0, "=ready"}, age_column(), containers_column(),
            images_column()};
  }
  if (info.group == "apps" && info.resource == "daemonsets") {
    return {{"Desired", "integer", "", "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).", 0, "=.status.desiredNumberScheduled"},
            {"Current", "integer", "", "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.", 0, "=.status.currentNumberScheduled"},
            {"Ready", "integer", "", "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.", 0, "=.status.numberReady"},
            {"Up-to-date", "integer", "", "The total number of nodes that are running updated daemon pod", 0, "=.status.updatedNumberScheduled"},
            {"Available", "integer", "", "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least minReadySeconds)", 0, "=.status.numberAvailable"},
            {"Node Selector", "string", "", "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node.", 0, "%nodeSelector"},
            age_column(), containers_column(), images_column(),
            {"Selector", "string", "", "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels.", 1, "%selector"}};
  }
  if (info.group == "rbac.authorization.k8s.io" && (info.resource == "roles" || info.resource == "clusterroles")) {
    return {created_at_column()};
  }
  if (info.group == "rbac.authorization.k8s.io" && (info.resource == "rolebindings" || info.resource == "clusterrolebindings")) {
    return {{"Role", "string", "", "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.", 0, "@role"},
            age_column(),
            {"Users", "string", "", "Users in the roleBinding", 1, "@User"},
            {"Groups", "string", "", "Groups in the roleBinding", 1, "@Group"},
            {"ServiceAccounts", "string", "", "ServiceAccounts in the roleBinding", 1, "@ServiceAccount"}};
  }
  if (info.group == "apiextensions.k8s.io" && info.resource == "customresourcedefinitions") return {created_at_column()};
  if (info.group == "coordination.k8s.io" && info.resource == "leases") {
    return {{"Holder", "string", "", "holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.", 0, ".spec.holderIdentity"},
            age_column()};
  }
  if (!info.custom) return {age_column()};
  if (info.columns.empty()) return {{"Age", "date", "", kCreationDescription, 0, ".metadata.creationTimestamp"}};
  std::vector<Column> out;
  for (const auto& c : info.columns) {
    out.push_back({c.name, c.type, c.format,
                   c.description.empty() ? "Custom resource definition column (in JSONPath format): " + c.json_path : c.description,
                   c.priority, c.json_path});
  }
  return out;
}

// A binding's cells: its role as Kind/name, or its subjects of one kind
// joined by ", " (service accounts as namespace/name).
nlohmann::json binding_cell(const std::string& what, const nlohmann::json& binding) {
  if (what == "role") {
    const auto ref = binding.value("roleRef", nlohmann::json::object());
    return ref.value("kind", std::string()) + "/" + ref.value("name", std::string());
  }
  std::string out;
  for (const auto& subject : binding.value("subjects", nlohmann::json::array())) {
    if (!subject.is_object() || subject.value("kind", std::string()) != what) continue;
    std::string name = subject.value("name", std::string());
    if (what == "ServiceAccount") name = subject.value("namespace", std::string()) + "/" + name;
    out += (out.empty() ? "" : ", ") + name;
  }
  return out;
}

// A count of a Deployment's status (0 when absent, as the Go struct has it),
// or "=ready": ready replicas over desired, "1/1".
nlohmann::json count_cell(const std::string& path, const nlohmann::json& object) {
  const auto count = [&](const std::string& at) {
    const nlohmann::json value = json_path_first(object, at);
    return value.is_number_integer() ? value.get<long long>() : 0LL;
  };
  if (path == "ready") {
    const nlohmann::json wanted = json_path_first(object, ".spec.replicas");
    return fmt::format("{}/{}", count(".status.readyReplicas"),
                       wanted.is_number_integer() ? wanted.get<long long>() : 1LL);
  }
  return count(path);
}

// A workload's cells from its spec: its template's containers' names or
// images joined by ",", its selector (metav1.FormatLabelSelector), its
// template's nodeSelector (labels.FormatLabels: "<none>" when empty).
nlohmann::json template_cell(const std::string& what, const nlohmann::json& object) {
  if (what == "selector") return format_label_selector(json_path_first(object, ".spec.selector"));
  if (what == "nodeSelector") {
    const nlohmann::json selector = json_path_first(object, ".spec.template.spec.nodeSelector");
    std::string out;
    if (selector.is_object()) {
      for (const auto& [key, value] : selector.items()) {
        out += fmt::format("{}{}={}", out.empty() ? "" : ",", key, value.is_string() ? value.get<std::string>() : value.dump());
      }
    }
    return out.empty() ? "<none>" : out;
  }
  std::string out;
  const nlohmann::json containers = json_path_first(object, ".spec.template.spec.containers");
  if (containers.is_array()) {
    for (std::size_t i = 0; i < containers.size(); ++i) {
      const nlohmann::json& container = containers[i];
      const std::string text = container.is_object() ? container.value(what == "images" ? "image" : "name", "") : "";
      out += (i == 0 ? "" : ",") + text;
    }
  }
  return out;
}

nlohmann::json cell(const Column& column, const nlohmann::json& object, std::time_t now) {
  if (column.json_path == "@age" || column.json_path == "@created") {
    const std::string created = object.value("metadata", nlohmann::json::object()).value("creationTimestamp", std::string());
    const long long at = parse_timestamp(created);
    if (column.json_path == "@created") return at < 0 ? std::string("<unknown>") : format_timestamp(static_cast<std::time_t>(at));
    return at < 0 ? std::string("<unknown>") : human_duration(static_cast<long long>(now) - at);
  }
  if (column.json_path.rfind('@', 0) == 0) return binding_cell(column.json_path.substr(1), object);
  if (column.json_path.rfind('=', 0) == 0) return count_cell(column.json_path.substr(1), object);
  if (column.json_path.rfind('%', 0) == 0) return template_cell(column.json_path.substr(1), object);
  if (column.json_path.rfind('#', 0) == 0) {
    const auto field = object.value(column.json_path.substr(1), nlohmann::json());
    if (field.is_object() || field.is_array()) return static_cast<long long>(field.size());
    return 0;
  }
  nlohmann::json value = json_path_first(object, column.json_path);
  if (value.is_null()) return nullptr;
  if (column.type == "date" && value.is_string()) {
    const long long when = parse_timestamp(value.get<std::string>());
    return when < 0 ? nlohmann::json("<invalid>") : nlohmann::json(human_duration(static_cast<long long>(now) - when));
  }
  if (column.type == "string" && !value.is_string()) return value.dump();
  return value;
}

// Events, as kube-apiserver prints them (its event printer, for core/v1 and
// events.k8s.io/v1 alike): no Name first and no Age last, but when it was last
// seen, its type and reason, the object it is about, its message.
bool is_event(const ResourceInfo& info) {
  return info.resource == "events" && (info.group.empty() || info.group == "events.k8s.io");
}

nlohmann::json event_columns() {
  nlohmann::json out = nlohmann::json::array();
  const auto column = [&](const char* name, const char* description, int priority) {
    out.push_back({{"name", name}, {"type", "string"}, {"format", ""}, {"description", description}, {"priority", priority}});
  };
  column("Last Seen", "The time at which the most recent occurrence of this event was recorded.", 0);
  column("Type", "Type of this event (Normal, Warning), new types could be added in the future", 0);
  column("Reason", "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", 0);
  column("Object", "The object that this event is about.", 0);
  column("Subobject", "The part of the object this event is about.", 1);
  column("Source", "The component reporting this event.", 1);
  column("Message", "A human-readable description of the status of this operation.", 0);
  column("First Seen", "The time at which the event was first recorded.", 1);
  column("Count", "The number of times this event has occurred.", 1);
  column("Name", "Name must be unique within a namespace.", 1);
  return out;
}

// One Event's cells, from either API's field names.
nlohmann::json event_cells(const nlohmann::json& event, std::time_t now) {
  const bool v1 = event.contains("regarding") || event.contains("note");  // events.k8s.io/v1's names
  const auto text = [&](std::initializer_list<const char*> paths) {
    for (const char* path : paths) {
      const nlohmann::json value = json_path_first(event, path);
      if (value.is_string() && !value.get<std::string>().empty()) return value.get<std::string>();
    }
    return std::string();
  };
  const auto since = [&](const std::string& when) {
    const long long at = when.empty() ? -1 : parse_timestamp(when);
    return at < 0 ? std::string("<unknown>") : human_duration(static_cast<long long>(now) - at);
  };
  const char* about = v1 ? ".regarding" : ".involvedObject";
  std::string kind = text({(std::string(about) + ".kind").c_str()});
  for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string last = v1 ? text({".series.lastObservedTime", ".deprecatedLastTimestamp", ".eventTime"})
                              : text({".series.lastObservedTime", ".lastTimestamp", ".eventTime"});
  const std::string first = v1 ? text({".deprecatedFirstTimestamp", ".eventTime"}) : text({".firstTimestamp", ".eventTime"});
  const nlohmann::json count = json_path_first(event, v1 ? ".deprecatedCount" : ".count");
  return {since(last),
          text({".type"}),
          text({".reason"}),
          kind + "/" + text({(std::string(about) + ".name").c_str()}),
          text({(std::string(about) + ".fieldPath").c_str()}),
          v1 ? text({".reportingController"}) : text({".source.component", ".reportingComponent"}),
          text({v1 ? ".note" : ".message"}),
          since(first),
          std::to_string(count.is_number_integer() ? count.get<long long>() : 1LL),
          text({".metadata.name"})};
}

// Services, Jobs, CronJobs and PriorityClasses: printers of their own, all
// columns theirs (services.h, jobs.h, priority_classes.h).
struct KindPrinter {
  nlohmann::json (*columns)();
  nlohmann::json (*cells)(const nlohmann::json&, std::time_t);
};

std::optional<KindPrinter> kind_printer(const ResourceInfo& info) {
  if (info.custom) return std::nullopt;
  if (info.group.empty() && info.resource == "services") return KindPrinter{service_columns, service_cells};
  if (info.group == kBatchGroup && info.resource == "jobs") return KindPrinter{job_columns, job_cells};
  if (info.group == kBatchGroup && info.resource == "cronjobs") return KindPrinter{cron_job_columns, cron_job_cells};
  if (info.group == "scheduling.k8s.io" && info.resource == "priorityclasses") {
    return KindPrinter{priority_class_columns, priority_class_cells};
  }
  return std::nullopt;
}

}  // namespace

bool wants_table(const std::string& accept) {
  return accept.find("as=Table") != std::string::npos && accept.find("g=meta.k8s.io") != std::string::npos &&
         accept.find("v=v1") != std::string::npos;
}

std::string human_duration(long long seconds) {
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return fmt::format("{}s", seconds);
  const long long minutes = seconds / 60;
  if (minutes < 10) {
    const long long s = seconds % 60;
    return s == 0 ? fmt::format("{}m", minutes) : fmt::format("{}m{}s", minutes, s);
  }
  if (minutes < 60 * 3) return fmt::format("{}m", minutes);
  const long long hours = seconds / 3600;
  if (hours < 8) {
    const long long m = minutes % 60;
    return m == 0 ? fmt::format("{}h", hours) : fmt::format("{}h{}m", hours, m);
  }
  if (hours < 48) return fmt::format("{}h", hours);
  if (hours < 24 * 8) {
    const long long h = hours % 24;
    return h == 0 ? fmt::format("{}d", hours / 24) : fmt::format("{}d{}h", hours / 24, h);
  }
  if (hours < 24 * 365 * 2) return fmt::format("{}d", hours / 24);
  if (hours < 24 * 365 * 8) {
    const long long days = hours / 24;
    const long long dy = days % 365;
    return dy == 0 ? fmt::format("{}y", days / 365) : fmt::format("{}y{}d", days / 365, dy);
  }
  return fmt::format("{}y", hours / 24 / 365);
}

long long parse_timestamp(const std::string& text) {
  const std::optional<base::TimePoint> at = base::parse_rfc3339(text);
  return at ? static_cast<long long>(std::chrono::system_clock::to_time_t(*at)) : -1;
}

std::string format_timestamp(std::time_t when) {
  return base::format_rfc3339(std::chrono::system_clock::from_time_t(when));
}

std::string text_at_path(const nlohmann::json& object, const std::string& path) {
  const nlohmann::json value = json_path_first(object, path);
  return value.is_string() ? value.get<std::string>() : std::string();
}

nlohmann::json json_path_first(const nlohmann::json& object, const std::string& path) {
  std::vector<const nlohmann::json*> current = {&object};
  std::size_t i = 0;
  std::string text = path;
  if (text.size() >= 2 && text.front() == '{' && text.back() == '}') text = text.substr(1, text.size() - 2);
  while (i < text.size()) {
    std::vector<const nlohmann::json*> next;
    if (text[i] == '.') {
      std::size_t end = i + 1;
      while (end < text.size() && text[end] != '.' && text[end] != '[') ++end;
      const std::string key = text.substr(i + 1, end - i - 1);
      for (const auto* node : current) {
        if (node->is_object() && node->contains(key)) next.push_back(&(*node)[key]);
      }
      i = end;
    } else if (text[i] == '[') {
      const auto close = text.find(']', i);
      if (close == std::string::npos) return nullptr;
      const std::string inner = text.substr(i + 1, close - i - 1);
      i = close + 1;
      if (inner == "*") {
        for (const auto* node : current) {
          if (node->is_array() || node->is_object()) {
            for (const auto& item : *node) next.push_back(&item);
          }
        }
      } else if (inner.rfind("?(@.", 0) == 0 && inner.back() == ')') {
        // [?(@.field=="value")]
        const std::string cond = inner.substr(4, inner.size() - 5);
        const auto eq = cond.find("==");
        if (eq == std::string::npos) return nullptr;
        const std::string field = cond.substr(0, eq);
        std::string value = cond.substr(eq + 2);
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')) value = value.substr(1, value.size() - 2);
        for (const auto* node : current) {
          if (!node->is_array()) continue;
          for (const auto& item : *node) {
            if (!item.is_object() || !item.contains(field)) continue;
            const auto& v = item[field];
            if ((v.is_string() && v.get<std::string>() == value) || (!v.is_string() && v.dump() == value)) {
              next.push_back(&item);
            }
          }
        }
      } else {
        long long index = 0;
        try {
          index = std::stoll(inner);
        } catch (const std::exception&) {
          return nullptr;
        }
        for (const auto* node : current) {
          if (!node->is_array()) continue;
          const long long size = static_cast<long long>(node->size());
          const long long at = index < 0 ? size + index : index;
          if (at >= 0 && at < size) next.push_back(&(*node)[static_cast<std::size_t>(at)]);
        }
      }
    } else {
      return nullptr;
    }
    current = std::move(next);
    if (current.empty()) return nullptr;
  }
  return current.empty() ? nlohmann::json() : *current.front();
}

nlohmann::json to_table(const ResourceInfo& info, const std::vector<nlohmann::json>& objects,
                        const nlohmann::json& list_metadata, const std::string& include_object, std::time_t now) {
  const bool events = is_event(info);
  const auto printer = kind_printer(info);
  const bool workloads = has_workload_printer(info) || printer;  // nodes, pods (and kind_printer's): all columns their own
  const auto columns = (events || workloads) ? std::vector<Column>{} : table_columns(info);
  nlohmann::json definitions = events     ? event_columns()
                               : printer  ? printer->columns()
                               : workloads ? workload_columns(info)
                                           : nlohmann::json::array();
  if (!events && !workloads) definitions.push_back({{"name", "Name"},
                         {"type", "string"},
                         {"format", "name"},
                         {"description", "Name must be unique within a namespace."},
                         {"priority", 0}});
  for (const auto& c : columns) {
    definitions.push_back(
        {{"name", c.name}, {"type", c.type}, {"format", c.format}, {"description", c.description}, {"priority", c.priority}});
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& object : objects) {
    const auto meta = object.value("metadata", nlohmann::json::object());
    nlohmann::json cells = nlohmann::json::array();
    if (events) {
      cells = event_cells(object, now);
    } else if (printer) {
      cells = printer->cells(object, now);
    } else if (workloads) {
      cells = workload_cells(info, object, now);
    } else {
      cells.push_back(meta.value("name", std::string()));
      for (const auto& c : columns) cells.push_back(cell(c, object, now));
    }
    nlohmann::json row = {{"cells", cells}};
    if (include_object == "Object") {
      row["object"] = object;
    } else if (include_object != "None") {
      row["object"] = {{"kind", "PartialObjectMetadata"}, {"apiVersion", "meta.k8s.io/v1"}, {"metadata", meta}};
    }
    rows.push_back(std::move(row));
  }
  return {{"kind", "Table"},
          {"apiVersion", "meta.k8s.io/v1"},
          {"metadata", list_metadata},
          {"columnDefinitions", definitions},
          {"rows", rows}};
}

}  // namespace mkq::sandbox
