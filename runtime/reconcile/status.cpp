// `mkq status`: reads the Active condition of every managed Kueue object with
// refresh (one LIST per kind per cluster), and renders it as a table or JSON.
#include "runtime/reconcile/status.h"

#include <algorithm>
#include <exception>
#include <map>
#include <iterator>
#include <thread>

#include <fmt/format.h>

#include "base/style.h"
#include "runtime/reconcile/active_condition.h"
#include "runtime/reconcile/refresh.h"

namespace mkq::reconcile {
namespace {

using Clock = std::chrono::steady_clock;

const char* role_name(kueue::ClusterRole role) {
  return role == kueue::ClusterRole::Manager ? "manager" : "worker";
}

ActiveState state_of(const std::string& status) {
  if (status == "True") return ActiveState::True;
  if (status == "False") return ActiveState::False;
  return ActiveState::Unknown;
}

// The desired objects status looks at: those of kinds with an Active condition.
kueue::DesiredState watched_objects(const kueue::DesiredState& desired) {
  kueue::DesiredState out;
  for (const kueue::ClusterObjects& cluster : desired.clusters) {
    kueue::ClusterObjects kept;
    kept.cluster = cluster.cluster;
    kept.role = cluster.role;
    for (const kueue::Object& object : cluster.objects) {
      if (reports_active_condition(object.api_version, object.kind)) kept.objects.push_back(object);
    }
    out.clusters.push_back(std::move(kept));
  }
  return out;
}

ObjectStatus object_status(const std::string& cluster, const kueue::Object& object) {
  ObjectStatus status;
  status.address = kueue::address(cluster, object);
  status.api_version = object.api_version;
  status.kind = object.kind;
  status.namespace_name = object.namespace_name;
  status.name = object.name;
  return status;
}

ClusterStatus unreadable(const kueue::ClusterObjects& cluster, const std::string& error) {
  ClusterStatus out;
  out.cluster = cluster.cluster;
  out.role = cluster.role;
  out.reachable = false;
  out.error = error.empty() ? "no connection to the cluster" : error;
  for (const kueue::Object& object : cluster.objects) {
    ObjectStatus status = object_status(cluster.cluster, object);
    status.state = ActiveState::Unreadable;
    out.objects.push_back(std::move(status));
  }
  return out;
}

StatusReport read_unguarded(const kueue::DesiredState& desired, const std::vector<Target>& targets,
                            const ReadStatusOptions& options) {
  const kueue::DesiredState watched = watched_objects(desired);
  // Only the targets of the desired clusters, in the desired order.
  std::vector<Target> used;
  for (const kueue::ClusterObjects& cluster : watched.clusters) {
    const auto found = std::find_if(targets.begin(), targets.end(),
                                    [&](const Target& target) { return target.cluster == cluster.cluster; });
    if (found != targets.end()) used.push_back(*found);
  }
  RefreshOptions refresh_options;
  refresh_options.parallelism = options.parallelism;
  const LiveState live = refresh(watched, {}, used, refresh_options);

  StatusReport report;
  for (const kueue::ClusterObjects& cluster : watched.clusters) {
    const ClusterLive* read = live.find(cluster.cluster);
    if (read == nullptr) {
      report.clusters.push_back(unreadable(cluster, "no connection to the cluster"));
      continue;
    }
    if (!read->reachable) {
      report.clusters.push_back(unreadable(cluster, read->error));
      continue;
    }
    ClusterStatus out;
    out.cluster = cluster.cluster;
    out.role = cluster.role;
    for (const kueue::Object& object : cluster.objects) {
      ObjectStatus status = object_status(cluster.cluster, object);
      const auto found = read->objects.find(status.address);
      if (found == read->objects.end()) {
        status.state = ActiveState::NotFound;
        const std::string kind = object.api_version + "/" + object.kind;
        if (std::find(read->unserved_kinds.begin(), read->unserved_kinds.end(), kind) !=
            read->unserved_kinds.end()) {
          status.message = fmt::format("the cluster does not serve {}", kind);
        }
      } else {
        const ActiveCondition condition = active_condition_of(found->second.decode());
        status.state = condition.present ? state_of(condition.status) : ActiveState::Missing;
        status.reason = condition.reason;
        status.message = condition.message;
      }
      out.objects.push_back(std::move(status));
    }
    report.clusters.push_back(std::move(out));
  }
  return report;
}

// Control characters (a message with a newline) would break the table.
std::string one_line(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return out;
}

std::string object_name(const ObjectStatus& object) {
  return object.namespace_name.empty() ? object.name : fmt::format("{}/{}", object.namespace_name, object.name);
}

// Why an object is not Active, for the summary line.
std::string why_not(const ObjectStatus& object) {
  switch (object.state) {
    case ActiveState::True:
    case ActiveState::False:
    case ActiveState::Unknown:
      if (!object.reason.empty() && !object.message.empty())
        return fmt::format("{}: {}", object.reason, one_line(object.message));
      if (!object.reason.empty()) return object.reason;
      if (!object.message.empty()) return fmt::format("Active={}: {}", to_string(object.state), one_line(object.message));
      return fmt::format("Active={}", to_string(object.state));
    case ActiveState::Missing:
      return "no Active condition yet";
    case ActiveState::NotFound:
      return object.message.empty() ? "not found" : fmt::format("not found: {}", one_line(object.message));
    case ActiveState::Unreadable:
      break;
  }
  return "unreadable";
}

}  // namespace

const char* to_string(ActiveState state) {
  switch (state) {
    case ActiveState::True:
      return "True";
    case ActiveState::False:
      return "False";
    case ActiveState::Unknown:
      return "Unknown";
    case ActiveState::Missing:
      return "missing";
    case ActiveState::NotFound:
      return "not found";
    case ActiveState::Unreadable:
      return "unreadable";
  }
  return "unknown";
}

std::size_t StatusReport::total() const {
  std::size_t count = 0;
  for (const ClusterStatus& cluster : clusters) count += cluster.objects.size();
  return count;
}

std::size_t StatusReport::active() const {
  std::size_t count = 0;
  for (const ClusterStatus& cluster : clusters) {
    count += static_cast<std::size_t>(std::count_if(cluster.objects.begin(), cluster.objects.end(),
                                                    [](const ObjectStatus& o) { return o.active(); }));
  }
  return count;
}

bool StatusReport::all_reachable() const {
  return std::all_of(clusters.begin(), clusters.end(), [](const ClusterStatus& c) { return c.reachable; });
}

StatusReport read_status(const kueue::DesiredState& desired, const std::vector<Target>& targets,
                         const ReadStatusOptions& options) {
  try {
    return read_unguarded(desired, targets, options);
  } catch (const std::exception& error) {
    // Out of memory or a thread that could not start: every cluster unread.
    StatusReport report;
    for (const kueue::ClusterObjects& cluster : watched_objects(desired).clusters) {
      report.clusters.push_back(
          unreadable(cluster, fmt::format("reading the cluster failed: {}", error.what())));
    }
    return report;
  }
}

StatusReport wait_for_status(const kueue::DesiredState& desired, const std::vector<Target>& targets,
                             const ReadStatusOptions& options, std::chrono::milliseconds timeout,
                             std::chrono::milliseconds poll_interval,
                             const std::function<void(const StatusReport&)>& on_poll) {
  const Clock::time_point deadline = Clock::now() + timeout;
  if (poll_interval <= std::chrono::milliseconds::zero()) poll_interval = std::chrono::milliseconds(1);
  while (true) {
    StatusReport report = read_status(desired, targets, options);
    if (on_poll) on_poll(report);
    if (report.all_active() && report.all_reachable()) return report;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return report;
    std::this_thread::sleep_for(std::min<Clock::duration>(poll_interval, deadline - now));
  }
}

std::string status_summary(const StatusReport& report) {
  const std::size_t active = report.active(), total = report.total();
  std::string line = fmt::format("{} of {} objects Active", active, total);
  std::string not_active, not_read;
  for (const ClusterStatus& cluster : report.clusters) {
    if (!cluster.reachable) {
      fmt::format_to(std::back_inserter(not_read), "{}{} ({})", not_read.empty() ? "" : ", ", cluster.cluster,
                     one_line(cluster.error));
      continue;
    }
    for (const ObjectStatus& object : cluster.objects) {
      if (object.active()) continue;
      fmt::format_to(std::back_inserter(not_active), "{}{} ({})", not_active.empty() ? "" : ", ", object.address,
                     why_not(object));
    }
  }
  if (not_active.empty() && not_read.empty()) return line + ".";
  if (!not_active.empty()) fmt::format_to(std::back_inserter(line), "; not Active: {}", not_active);
  if (!not_read.empty()) fmt::format_to(std::back_inserter(line), "; cannot read: {}", not_read);
  return line;
}

std::vector<std::string> credential_warnings(const StatusReport& report) {
  std::vector<std::string> out;
  for (const LiveCredentials& worker : report.credentials) {
    if (!worker.error.empty() || worker.live <= 1) continue;
    out.push_back(fmt::format("{} has {} live tokens of serviceaccount {}: a previous token still works; `mkq apply` "
                              "revokes it",
                              worker.worker, worker.live, worker.account));
  }
  return out;
}

namespace {

std::string live_cell(const LiveCredentials& worker) {
  if (!worker.error.empty()) return fmt::format("unknown ({})", one_line(worker.error));
  if (worker.live > 1) return fmt::format("{} (a previous token still works)", worker.live);
  return fmt::format("{}", worker.live);
}

// The rows of a table, indented, columns padded to their widest cell, two
// spaces apart, appended to `out`. `style` (optional) gives a cell its style
// when `color` is on; the padding stays outside the escapes, so colour never
// shifts a column.
void append_table(std::string& out, const std::vector<std::vector<std::string>>& rows, bool color = false,
                  const std::function<base::TextStyle(std::size_t row, std::size_t column)>& style = {}) {
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t column = 0; column < row.size(); ++column)
      widths[column] = std::max(widths[column], row[column].size());
  }
  const auto to = std::back_inserter(out);
  for (std::size_t index = 0; index < rows.size(); ++index) {
    const auto& row = rows[index];
    const std::size_t line_start = out.size();
    out += "  ";
    for (std::size_t column = 0; column < row.size(); ++column) {
      const base::TextStyle cell_style = style ? style(index, column) : base::TextStyle{};
      fmt::format_to(to, "{}", base::styled(row[column], cell_style, color));
      if (column + 1 < row.size()) out.append(widths[column] - row[column].size() + 2, ' ');
    }
    while (out.size() > line_start && out.back() == ' ') out.pop_back();
    out += '\n';
  }
}

}  // namespace

std::string render_status_text(const StatusReport& report, bool color) {
  std::string out;
  const auto to = std::back_inserter(out);
  for (const ClusterStatus& cluster : report.clusters) {
    fmt::format_to(to, "{} ({})\n", cluster.cluster, role_name(cluster.role));
    if (!cluster.reachable) {
      fmt::format_to(to, "  cannot be read: {}\n\n", one_line(cluster.error));
      continue;
    }
    if (cluster.objects.empty()) {
      out += "  no objects with an Active condition\n\n";
      continue;
    }
    std::vector<std::vector<std::string>> rows{{"KIND", "NAME", "ACTIVE", "REASON", "MESSAGE"}};
    for (const ObjectStatus& object : cluster.objects) {
      rows.push_back({object.kind, one_line(object_name(object)), to_string(object.state),
                      one_line(object.reason), one_line(object.message)});
    }
    append_table(out, rows, color, [&](std::size_t index, std::size_t column) {
      if (index == 0 || column != 2) return base::TextStyle{};
      return cluster.objects[index - 1].active() ? base::kGreen : base::kRed;
    });
    out += "\n";
  }
  if (!report.credentials.empty()) {
    std::vector<std::vector<std::string>> rows{{"WORKER", "SERVICEACCOUNT", "LIVE"}};
    for (const LiveCredentials& worker : report.credentials) {
      rows.push_back({worker.worker, worker.account, live_cell(worker)});
    }
    out += "Credentials (tokens of mkq's live on each worker)\n";
    append_table(out, rows);
    out += '\n';
  }
  fmt::format_to(to, "{}\n", status_summary(report));
  return out;
}

kube::Json render_status_json(const StatusReport& report) {
  kube::Json clusters = kube::Json::array();
  for (const ClusterStatus& cluster : report.clusters) {
    kube::Json c = kube::Json::object();
    c["name"] = cluster.cluster;
    c["role"] = role_name(cluster.role);
    c["reachable"] = cluster.reachable;
    c["error"] = cluster.error;
    kube::Json objects = kube::Json::array();
    for (const ObjectStatus& object : cluster.objects) {
      kube::Json o = kube::Json::object();
      o["address"] = object.address;
      o["kind"] = object.kind;
      o["namespace"] = object.namespace_name;
      o["name"] = object.name;
      o["active"] = object.state == ActiveState::True;
      o["condition"] = to_string(object.state);
      o["reason"] = object.reason;
      o["message"] = object.message;
      objects.push_back(std::move(o));
    }
    c["objects"] = std::move(objects);
    clusters.push_back(std::move(c));
  }
  kube::Json out = kube::Json::object();
  out["format_version"] = kStatusFormatVersion;
  out["clusters"] = std::move(clusters);
  out["summary"] = kube::Json{{"active", report.active()}, {"total", report.total()}};
  if (!report.credentials.empty()) {
    kube::Json credentials = kube::Json::array();
    for (const LiveCredentials& worker : report.credentials) {
      credentials.push_back(kube::Json{{"worker", worker.worker},
                                       {"account", worker.account},
                                       {"live", worker.error.empty() ? kube::Json(worker.live) : kube::Json()},
                                       {"error", worker.error}});
    }
    out["credentials"] = std::move(credentials);
  }
  return out;
}

}  // namespace mkq::reconcile
