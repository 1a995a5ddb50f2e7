// Text forms of the desired state (render.h).
#include "compiler/kueue/render.h"

#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "compiler/kueue/yaml_emit.h"

namespace mkq::kueue {

namespace {

std::string dump_json(const Json& value) {
  // Invalid UTF-8 cannot come from a checked policy; replace rather than throw.
  return value.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

// The line before each document of a cluster.
std::string cluster_comment(const std::string& cluster, ClusterRole role) {
  return fmt::format("# cluster: {} ({})\n", cluster, to_string(role));
}

// Starts a document: "---" between documents, then the cluster's comment.
void begin_document(std::string_view comment, bool& first, std::string& out) {
  if (!first) out += "---\n";
  first = false;
  out += comment;
}

void append_cluster_yaml(const ClusterObjects& cluster, bool& first, std::string& out) {
  const std::string comment = cluster_comment(cluster.cluster, cluster.role);
  for (const Object& object : cluster.objects) {
    begin_document(comment, first, out);
    append_yaml(object.document, out);
  }
}

// A cluster's YAML written object by object as lowering makes them, each
// document into one buffer and let go at once (no cluster's documents ever
// exist together), then put in apply order: the same text as
// append_cluster_yaml() of the finished cluster.
class YamlPieces final : public ObjectSink {
 public:
  // `buffer`: where the pieces are written, emptied first (a writer's, reused
  // from cluster to cluster).
  explicit YamlPieces(std::string& buffer) : text_(buffer) { text_.clear(); }

  void add(Object object) override {
    positions_.push_back(apply_position(object));
    starts_.push_back(text_.size());
    append_yaml(object.document, text_);
  }

  void append_in_apply_order(std::string_view comment, bool& first, std::string& out) {
    starts_.push_back(text_.size());  // the end of the last piece
    out.reserve(out.size() + text_.size() + positions_.size() * (comment.size() + 4));
    for (const std::size_t index : apply_order(positions_)) {
      begin_document(comment, first, out);
      out.append(text_, starts_[index], starts_[index + 1] - starts_[index]);
    }
  }

 private:
  std::vector<ApplyPosition> positions_;
  std::vector<std::size_t> starts_;  // where each piece begins in text_, in the order made
  std::string& text_;
};

Json cluster_list(const ClusterObjects& cluster) {
  Json items = Json::array();
  for (const Object& object : cluster.objects) items.push_back(object.document);
  return items;
}

}  // namespace

std::string_view to_string(ClusterRole role) { return role == ClusterRole::Manager ? "manager" : "worker"; }

namespace {

std::string render_state(const DesiredState& state, TextFormat format) {
  StateWriter writer(format);
  std::string out;
  for (const ClusterObjects& cluster : state.clusters) out += writer.cluster(cluster);
  out += writer.end();
  return out;
}

// `text`, a dump at indent 0, with each line after the first `indent` spaces deeper.
void append_indented(std::string_view text, std::size_t indent, std::string& out) {
  std::size_t from = 0;
  for (std::size_t line_end = text.find('\n'); line_end != std::string_view::npos; line_end = text.find('\n', from)) {
    out.append(text, from, line_end + 1 - from);
    out.append(indent, ' ');
    from = line_end + 1;
  }
  out.append(text, from);
}

// A scalar as dump_json writes it inside a document.
std::string dump_scalar(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace

std::string render_yaml(const DesiredState& state) { return render_state(state, TextFormat::Yaml); }

std::string render_cluster_yaml(const ClusterObjects& cluster) {
  std::string out;
  bool first = true;
  append_cluster_yaml(cluster, first, out);
  if (cluster.objects.empty()) out = fmt::format("# cluster: {} ({}): no objects\n", cluster.cluster, to_string(cluster.role));
  return out;
}

std::string render_json(const DesiredState& state) { return render_state(state, TextFormat::JsonText); }

std::string render_cluster_json(const ClusterObjects& cluster) {
  Json list = Json::object();
  list["apiVersion"] = "v1";
  list["kind"] = "List";
  list["items"] = cluster_list(cluster);
  return dump_json(list);
}

// The document's opening: its version first (docs/json.md).
const std::string kJsonHead = fmt::format("{{\n  \"format_version\": {},\n  ", kRenderJsonFormatVersion);

// JSON: the layout of dump_json({"format_version": N, "clusters": [entries]}) (indent 2), built
// from one entry at a time: an entry sits two levels deep, so each of its
// lines is indented by four more spaces. A dumped string never holds a raw
// line break (JSON escapes it), so indenting after every '\n' is exact.
std::string StateWriter::cluster(const ClusterObjects& cluster) {
  std::string out;
  if (format_ == TextFormat::Yaml) {
    append_cluster_yaml(cluster, first_, out);
    return out;
  }
  out += first_ ? kJsonHead + "\"clusters\": [\n    " : std::string(",\n    ");
  first_ = false;
  // The entry {"name", "role", "objects"} as dump_json indents it there (two
  // levels deep: four spaces more), member by member, each document dumped on
  // its own rather than copied into one value first.
  out += "{\n      \"name\": " + dump_scalar(cluster.cluster) + ",\n      \"role\": " +
         dump_scalar(std::string(to_string(cluster.role))) + ",\n      \"objects\": ";
  if (cluster.objects.empty()) {
    out += "[]";
  } else {
    out += "[\n        ";
    for (std::size_t index = 0; index < cluster.objects.size(); ++index) {
      if (index > 0) out += ",\n        ";
      append_indented(cluster.objects[index].document.dump(2, ' ', false, Json::error_handler_t::replace), 8, out);
    }
    out += "\n      ]";
  }
  out += "\n    }";
  return out;
}

std::string StateWriter::cluster(const ClusterLowering& lowering, std::size_t index) {
  if (format_ != TextFormat::Yaml) return cluster(lowering.cluster(index));
  YamlPieces pieces(pieces_);
  lowering.each_object(index, pieces);
  std::string out;
  pieces.append_in_apply_order(cluster_comment(lowering.name(index), lowering.role(index)), first_, out);
  return out;
}

std::string StateWriter::end() const {
  if (format_ == TextFormat::Yaml) return "";
  // No cluster (never from lower()): what dump_json writes for an empty array.
  return first_ ? kJsonHead + "\"clusters\": []\n}\n" : "\n  ]\n}\n";
}

}  // namespace mkq::kueue
