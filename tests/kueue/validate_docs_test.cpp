// docs/kueue-rules.md stays complete: a row for each of the 83 rules of
// Kueue's fact sheet, and every Kueue validation code (compiler/kueue/codes.h)
// named on the page.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("docs/kueue-rules.md has a row for every rule and names every code", "[kueue][validate][docs]") {
  const std::string doc = read(std::string(MKQ_SOURCE_DIR) + "/docs/kueue-rules.md");
  REQUIRE(!doc.empty());

  std::set<int> rows;
  const std::regex row(R"(\n\| (\d+) \|)");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator(); ++it) {
    const int number = std::stoi((*it)[1].str());
    INFO("rule " << number);
    CHECK(rows.insert(number).second);  // each rule once
  }
  for (int rule = 1; rule <= 83; ++rule) {
    INFO("rule " << rule);
    CHECK(rows.count(rule) == 1);
  }
  CHECK(rows.size() == 83);

  const std::string codes = read(std::string(MKQ_SOURCE_DIR) + "/compiler/kueue/codes.h");
  const std::regex declaration(R"re("([EW]4\d{3})";)re");
  std::size_t declared = 0;
  for (auto it = std::sregex_iterator(codes.begin(), codes.end(), declaration); it != std::sregex_iterator();
       ++it) {
    ++declared;
    const std::string code = (*it)[1].str();
    INFO(code);
    CHECK(doc.find(code) != std::string::npos);
  }
  CHECK(declared > 0);
}
