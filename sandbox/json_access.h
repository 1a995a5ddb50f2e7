// Reading members of JSON objects a client wrote, where nothing is trusted to
// be well typed: never a const operator[] on a missing key (undefined
// behaviour), never an exception; and the two writers defaulting uses. The
// sandbox's one home for these helpers.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace mkq::sandbox {

// object[key]; null when `object` is not an object or has no such member.
const nlohmann::json& member(const nlohmann::json& object, const char* key);
// object[key] when it is a string, else "": a reference into `object` (or to a
// static empty string), valid while `object` is -- bind it to a reference only
// when `object` outlives it.
const std::string& text_at(const nlohmann::json& object, const char* key);
// object[key] when it is an integer, else 0.
long long integer_at(const nlohmann::json& object, const char* key);

// Writers for defaulting (`object` is an object).
// object[key] = value unless object[key] is set to something other than null.
void set_default(nlohmann::json& object, const char* key, const nlohmann::json& value);
// object[key], made {} first when it is not an object.
nlohmann::json& child_object(nlohmann::json& object, const char* key);

}  // namespace mkq::sandbox
