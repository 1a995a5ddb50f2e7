// Diagnostic codes of evaluation (E2xxx) and of loading a policy (E9xxx).
//
// Codes are stable: a code, once released, keeps its meaning. Add new ones at
// the end of their group.
#pragma once

namespace mkq::sema::eval_codes {

// ---------------------------------------------------------------- names and scopes
inline constexpr const char* kUnknownName = "E2001";        // a name that no scope defines
inline constexpr const char* kDuplicateName = "E2002";      // a let, template, parameter, loop variable or import alias defined twice in one scope
inline constexpr const char* kLetCycle = "E2003";           // a top-level let that depends on itself
inline constexpr const char* kUsedBeforeDefinition = "E2004";  // a block-level let used before its definition

// ---------------------------------------------------------------- types and operators
inline constexpr const char* kTypeMismatch = "E2010";       // an operator, statement or builtin applied to a value of the wrong type
inline constexpr const char* kNotABool = "E2011";           // a condition (if, assert, ?:, &&, ||, !, comprehension filter) that is not a bool
inline constexpr const char* kBadNumber = "E2012";          // a number literal too large or finer than 1n; a duration literal too large
inline constexpr const char* kArithmetic = "E2013";         // overflow, division by zero, inexact division, '%' of fractions
inline constexpr const char* kDurationArithmetic = "E2014"; // a duration result that overflows, is negative or not whole milliseconds
inline constexpr const char* kNoSuchField = "E2020";        // `m.key` / `module.name` that does not exist, or field access on a non-map
inline constexpr const char* kBadIndex = "E2021";           // list index out of range or not whole, missing map key, indexing a non-collection
inline constexpr const char* kNotIterable = "E2022";        // `for` or a comprehension over something that is not a list or a map
inline constexpr const char* kDuplicateKey = "E2023";       // a map literal with the same key twice
inline constexpr const char* kNotCallable = "E2030";        // calling something that is not a function (or a template outside `use`)
inline constexpr const char* kBadArguments = "E2031";       // a builtin called with the wrong number, names or types of arguments
inline constexpr const char* kBadArgumentValue = "E2032";   // a builtin argument of the right type but an invalid value (empty min, huge range, bad secret source)
inline constexpr const char* kNotAValue = "E2033";          // a template, module or builtin used where a value is stored or printed

// ---------------------------------------------------------------- templates
inline constexpr const char* kNotATemplate = "E2040";       // `use x(...)` where x is not a template
inline constexpr const char* kTemplateArguments = "E2041";  // missing, unknown, duplicate, surplus or misplaced template arguments
inline constexpr const char* kTemplateTooDeep = "E2042";    // templates instantiating templates more than 64 deep

// ---------------------------------------------------------------- statements
inline constexpr const char* kMisplacedStatement = "E2050"; // import/template outside a file's top level, an attribute outside a block

// ---------------------------------------------------------------- assertions and secrets
inline constexpr const char* kAssertionFailed = "E2060";    // `assert cond, "message"` with a false condition
inline constexpr const char* kSecretUse = "E2070";          // a secret printed, compared or inspected

// ---------------------------------------------------------------- imports
inline constexpr const char* kModuleNotFound = "E2080";     // an import path that resolves to no file and no std module
inline constexpr const char* kBadImportAlias = "E2081";     // an import whose default alias is not an identifier
inline constexpr const char* kImportCycle = "E2082";        // modules that import each other
inline constexpr const char* kModuleUnreadable = "E2083";   // an imported file that exists but cannot be read
inline constexpr const char* kBadImportPath = "E2084";      // an interpolated import path
inline constexpr const char* kImportOutsidePolicy = "E2085"; // an imported file outside the policy's directory tree and every --import-root

// ---------------------------------------------------------------- limits
inline constexpr const char* kTooDeep = "E2090";            // evaluation nested too deeply (long let chains, deep imports)
inline constexpr const char* kTooLarge = "E2091";           // a value, string or range beyond the evaluator's size limits
inline constexpr const char* kTooLong = "E2092";            // an evaluation taking more steps than the limit (huge loops)

// ---------------------------------------------------------------- loading (driver)
inline constexpr const char* kPathMissing = "E9001";        // the policy path does not exist
inline constexpr const char* kUnreadable = "E9002";         // a policy file that cannot be read
inline constexpr const char* kNoPolicyFiles = "E9003";      // a directory without .mkq files

}  // namespace mkq::sema::eval_codes
