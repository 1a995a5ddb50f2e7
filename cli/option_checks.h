// Bounds of a numeric option, refused in words a person would write:
// "--qps must be at least 0.1", "--parallelism must be at most 256",
// "--burst must be a whole number, not \"x\"". CLI11's own Range says "Value 0
// not in range 0.100000 to 100000.000000". The help text stays CLI11's
// ("FLOAT in [0.1 - 100000]"): only the refusal is reworded.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace mkq::cli {

class Within : public CLI::Range {
 public:
  Within(double min, double max);  // a number (FLOAT)
  Within(int min, int max);        // a whole number (INT)
};

// CLI11's "--NAME: must be ..." (a ValidationError's text) as "--NAME must be ...".
std::string without_colon(const std::string& what);

}  // namespace mkq::cli
