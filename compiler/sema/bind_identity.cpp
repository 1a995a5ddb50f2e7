// The policy's declared identity: `policy "NAME" {}` -- the mkq.dev/policy
// label of every object the policy writes (kueue::policy_name.h). At most one,
// at the top level, a non-empty label value.
#include "compiler/sema/bind_declarations.h"

namespace mkq::sema::bind_detail {
namespace {

namespace codes = bind_codes;

const language::Block& kIdentitySchema = schema_at({"policy"});

}  // namespace

void bind_identity(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kIdentitySchema);
  const Members members(binder, block, kIdentitySchema);
  if (label == nullptr) return;
  if (label->text.empty()) {
    binder.error(codes::kInvalidLabelValue, label->range,
                 "the policy's name must not be empty: it is the value of the mkq.dev/policy label");
    return;
  }
  if (!check_name(binder, NameFormat::LabelValue, label->text, label->range, "policy name")) return;
  if (draft.identity) {
    auto& d = binder.error(codes::kDuplicateDeclaration, label->range,
                           "the policy's name is declared twice ('" + draft.identity->value + "' and '" +
                               label->text + "')");
    d.notes.push_back({"first declared here", draft.identity->range});
    return;
  }
  draft.identity = Located<std::string>{label->text, label->range};
}

}  // namespace mkq::sema::bind_detail
