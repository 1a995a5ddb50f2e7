// Imports and modules: local files relative to the importer, std modules,
// aliases, once-only evaluation, cycles and missing modules.
#include "tests/sema/eval_fixture.h"

#include "stdlib/stdlib.h"

namespace {

using mkq::test::evaluate_files;

const char kEvilText[] = "import \"../../p/x.mkq\" as x";
const mkq::stdlib::Module kEvil[] = {{"std/evil", kEvilText, sizeof kEvilText - 1}};

std::string attr(const mkq::sema::EvalBlock& block, std::size_t i) {
  return block.attributes.at(i).name + "=" + mkq::sema::to_display(block.attributes.at(i).value);
}

TEST_CASE("imports: a local module exports its lets and templates", "[sema][eval][imports]") {
  auto run = evaluate_files({
      {"/p/main.mkq", "import \"./lib/teams.mkq\"\nimport \"lib/teams.mkq\" as again\n"
                      "use teams.team(\"a\")\nb { v = teams.sizes.small, w = again.sizes.small }\n"},
      {"/p/lib/teams.mkq", "import \"../shared.mkq\" as shared\n"
                           "let sizes = { small: shared.unit * 2 }\n"
                           "template team(name) { q \"${name}\" { cpu = sizes.small } }\n"
                           "declared \"once\" {}\n"},
      {"/p/shared.mkq", "let unit = 4\n"},
  }, {"/p/main.mkq"});
  INFO(run->joined());
  REQUIRE(run->diagnostics.size() == 0);
  const auto& blocks = run->policy.blocks;
  // The module's own declarations join the policy once, before its importer's.
  REQUIRE(blocks.size() == 3);
  CHECK(blocks[0].kind == "declared");
  CHECK(run->where(blocks[0].range) == "lib/teams.mkq:4:1");
  CHECK(blocks[1].kind == "q");
  CHECK(attr(blocks[1], 0) == "cpu=8");
  CHECK(run->where(blocks[1].range) == "lib/teams.mkq:3:23");
  CHECK(attr(blocks[2], 0) == "v=8");
  CHECK(attr(blocks[2], 1) == "w=8");
}

TEST_CASE("imports: std modules", "[sema][eval][imports]") {
  auto run = evaluate_files({{"/p/main.mkq", "import \"std/units\"\nb { v = units.gib * 2 }"}});
  INFO(run->joined());
  REQUIRE(run->diagnostics.size() == 0);
  CHECK(attr(run->policy.blocks.at(0), 0) == "v=2Gi");
  bool registered = false;
  for (std::size_t i = 0; i < run->sources.size(); ++i) {
    const auto& file = run->sources.file(static_cast<mkq::diag::FileId>(i));
    if (file.path == "std/units.mkq") registered = file.is_stdlib;
  }
  CHECK(registered);
}

TEST_CASE("imports: a std module imports its siblings relatively", "[sema][eval][imports]") {
  auto run = evaluate_files({{"/p/main.mkq", "import \"std/shapes\"\nb { v = shapes.big }"}});
  INFO(run->joined());
  REQUIRE(run->diagnostics.size() == 0);
  CHECK(attr(run->policy.blocks.at(0), 0) == "v=8Gi");
  auto escape = evaluate_files({{"/p/main.mkq", "import \"std/evil\""}}, {},
                               std::span<const mkq::stdlib::Module>(kEvil));
  CHECK(escape->only().message == "cannot find module '../../p/x.mkq'");
}

TEST_CASE("imports: every std module loads without errors", "[sema][eval][imports][stdlib]") {
  for (const auto& module : mkq::stdlib::modules()) {
    const std::string path = module.path;
    auto run = evaluate_files({{"/p/main.mkq", "import \"" + path + "\" as m\n"}}, {}, mkq::stdlib::modules());
    INFO(path << "\n" << run->joined());
    CHECK(run->diagnostics.size() == 0);
  }
}

TEST_CASE("imports: a module that cannot be found", "[sema][eval][imports][errors]") {
  auto run = evaluate_files({{"/p/main.mkq", "import \"./lib.mkq\"\nb { v = lib.x }"}});
  const auto& d = run->only();
  CHECK(d.code == "E2080");
  CHECK(d.message == "cannot find module './lib.mkq'");
  CHECK(run->text(d.range) == "\"./lib.mkq\"");

  auto typo = evaluate_files({{"/p/main.mkq", "import \"std/unit\""}});
  CHECK(typo->only().message == "cannot find module 'std/unit'");
  REQUIRE(typo->only().suggestions.size() == 1);
  CHECK(typo->only().suggestions[0].message == "did you mean 'std/units'?");
  CHECK(typo->only().suggestions[0].replacement == "\"std/units\"");

  auto near = evaluate_files({{"/p/main.mkq", "import \"./teems.mkq\" as t"}, {"/p/teams.mkq", ""}}, {"/p/main.mkq"});
  CHECK(near->only().message == "cannot find module './teems.mkq'");
  REQUIRE(near->only().suggestions.size() == 1);
  CHECK(near->only().suggestions[0].message == "did you mean './teams.mkq'?");

  auto dir = evaluate_files({{"/p/main.mkq", "import \"./lib\""}, {"/p/lib/a.mkq", ""}}, {"/p/main.mkq"});
  CHECK(dir->only().message == "cannot find module './lib'");
  REQUIRE(dir->only().notes.size() == 1);
  CHECK(dir->only().notes[0].message == "'lib' is a directory: import one of its .mkq files");
}

TEST_CASE("imports: the extension may be left out", "[sema][eval][imports]") {
  auto run = evaluate_files({{"/p/main.mkq", "import \"./lib\"\nb { v = lib.x }"}, {"/p/lib.mkq", "let x = 1"}},
                            {"/p/main.mkq"});
  INFO(run->joined());
  CHECK(run->diagnostics.size() == 0);
}

TEST_CASE("imports: aliases", "[sema][eval][imports][errors]") {
  auto bad = evaluate_files({{"/p/main.mkq", "import \"./my-lib.mkq\""}, {"/p/my-lib.mkq", ""}}, {"/p/main.mkq"});
  const auto& d = bad->only();
  CHECK(d.code == "E2081");
  CHECK(d.message == "cannot name this module 'my-lib': it is not an identifier");
  REQUIRE(d.suggestions.size() == 1);
  CHECK(d.suggestions[0].message == "give it a name with 'as': import \"./my-lib.mkq\" as NAME");

  auto ok = evaluate_files({{"/p/main.mkq", "import \"./my-lib.mkq\" as lib\nb { v = lib.x }"},
                            {"/p/my-lib.mkq", "let x = 1"}},
                           {"/p/main.mkq"});
  CHECK(ok->diagnostics.size() == 0);

  auto twice = evaluate_files({{"/p/main.mkq", "import \"std/units\"\nimport \"./units.mkq\""},
                               {"/p/units.mkq", ""}},
                              {"/p/main.mkq"});
  CHECK(twice->only().code == "E2002");
  CHECK(twice->only().message == "'units' is already defined in this file");

  auto clash = evaluate_files({{"/p/main.mkq", "import \"std/units\"\nlet units = 1"}});
  CHECK(clash->only().code == "E2002");
}

TEST_CASE("imports: a module exports lets and templates, not its imports", "[sema][eval][imports][errors]") {
  auto run = evaluate_files({{"/p/main.mkq", "import \"./a.mkq\"\nb { v = a.sizs }"},
                             {"/p/a.mkq", "import \"std/units\"\nlet sizes = 1"}},
                            {"/p/main.mkq"});
  const auto& d = run->only();
  CHECK(d.code == "E2020");
  CHECK(d.message == "module 'a.mkq' has no let or template 'sizs'");
  REQUIRE(d.suggestions.size() == 1);
  CHECK(d.suggestions[0].message == "did you mean 'sizes'?");
  auto hidden = evaluate_files({{"/p/main.mkq", "import \"./a.mkq\"\nb { v = a.units }"},
                                {"/p/a.mkq", "import \"std/units\"\nlet sizes = 1"}},
                               {"/p/main.mkq"});
  CHECK(hidden->only().message == "module 'a.mkq' has no let or template 'units'");
}

TEST_CASE("imports: cycles are errors naming the chain", "[sema][eval][imports][errors]") {
  auto run = evaluate_files({{"/p/main.mkq", "import \"./a.mkq\""},
                             {"/p/a.mkq", "import \"./b.mkq\""},
                             {"/p/b.mkq", "import \"./a.mkq\""}},
                            {"/p/main.mkq"});
  const auto& d = run->only();
  CHECK(d.code == "E2082");
  CHECK(d.message == "import cycle: a.mkq -> b.mkq -> a.mkq");
  CHECK(run->where(d.range) == "b.mkq:1:8");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "'a.mkq' imports 'b.mkq' here");
  CHECK(run->where(*d.notes[0].range) == "a.mkq:1:8");

  auto self = evaluate_files({{"/p/main.mkq", "import \"./main.mkq\" as me"}});
  CHECK(self->only().message == "import cycle: main.mkq -> main.mkq");
}

TEST_CASE("imports: only literal paths", "[sema][eval][imports][errors]") {
  auto run = evaluate_files({{"/p/main.mkq", "let n = \"units\"\nimport \"std/${n}\" as u"}});
  CHECK(run->only().code == "E2084");
  CHECK(run->only().message == "an import path cannot contain interpolation");
}

TEST_CASE("imports: a module with syntax errors is reported once", "[sema][eval][imports][errors]") {
  auto run = evaluate_files({{"/p/main.mkq", "import \"./a.mkq\"\nimport \"./a.mkq\" as again\nb { v = a.x }"},
                             {"/p/a.mkq", "let x = = 1"}},
                            {"/p/main.mkq"});
  REQUIRE(run->diagnostics.size() >= 1);
  for (const auto& d : run->diagnostics.items()) CHECK(d.code.rfind("E1", 0) == 0);  // syntax only, no cascade
}

}  // namespace
