//===- LibrarySource.cpp - NAME.h and NAME.cpp of a kernel library --------===//
#include "tools/driver/LibrarySource.h"

#include <array>
#include <climits>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

namespace twintile::driver {

namespace {

constexpr const char *kKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr", "constinit",
    "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
    "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
    "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local", "throw",
    "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
    "wchar_t", "while", "xor", "xor_eq"};

/// `text` as a C++ string literal: raw where it can be (PTX, JSON and IR
/// read as themselves), else with every byte outside printable ASCII escaped.
std::string literal(const std::string &text) {
  bool plain = text.size() < 100;
  for (unsigned char c : text) plain = plain && c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?';
  if (plain) return "\"" + text + "\"";
  const std::string delimiter = "twintile";
  bool raw = text.find(")" + delimiter + "\"") == std::string::npos;
  for (unsigned char c : text) raw = raw && (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f));
  if (raw) return "R\"" + delimiter + "(" + text + ")" + delimiter + "\"";
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') out += std::string("\\") + char(c);
    else if (c == '\n') out += "\\n\"\n\"";
    else if (c >= 0x20 && c < 0x7f && c != '?') out += char(c);
    else {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\%03o", c);  // three octal digits: never run into the next character
      out += esc;
    }
  }
  return out + "\"";
}

/// Text for a `//` comment: one line, whatever `s` holds.
std::string commentSafe(std::string s) {
  for (char &c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return s;
}

std::string bytesArray(const std::string &bytes) {
  std::string out = "{";
  for (size_t i = 0; i < bytes.size(); ++i) {
    char b[16];
    std::snprintf(b, sizeof b, "%s0x%02x,", i % 16 ? " " : "\n    ", static_cast<unsigned char>(bytes[i]));
    out += b;
  }
  return out + "}";
}

/// The C++ names of a kernel's parameters: its own, unless one is not a
/// usable name or is taken by the function's own parameters.
std::vector<std::string> paramNames(const std::vector<LibraryKernel::Param> &params) {
  std::set<std::string> taken = {"device", "grid", "options"};
  std::vector<std::string> names;
  for (size_t i = 0; i < params.size(); ++i) {
    std::string base = isCxxName(params[i].name) ? params[i].name : "arg" + std::to_string(i), n = base;
    for (int suffix = 1; taken.count(n); ++suffix) n = base + "_" + std::to_string(suffix);
    taken.insert(n);
    names.push_back(n);
  }
  return names;
}

/// A function's signature: with a grid, unless it is a tuned function's,
/// whose table has the grid.
std::string signature(const std::string &function, const std::vector<LibraryKernel::Param> &params, bool grid,
                      bool declaration) {
  std::vector<std::string> names = paramNames(params);
  std::string s = "::twintile::runtime::Call " + function + "(::twintile::runtime::Device &device" +
                  (grid ? ", ::twintile::runtime::Dim3 grid" : "");
  for (size_t i = 0; i < params.size(); ++i) s += ",\n    " + *cxxParamType(params[i].type) + " " + names[i];
  s += ",\n    const ::twintile::runtime::LaunchOptions &options";
  return s + (declaration ? " = {})" : ")");
}

/// The launch's arguments and the buffers' bytes, as a function passes them.
std::pair<std::string, std::string> callArguments(const std::vector<LibraryKernel::Param> &params) {
  std::vector<std::string> names = paramNames(params);
  std::string args, buffers;
  size_t nbuf = 0;
  for (size_t a = 0; a < params.size(); ++a) {
    bool pointer = params[a].type.starts_with("ptr<");
    args += std::string(a ? ", " : "") +
            (pointer ? "::twintile::runtime::LaunchArg::buf(" + std::to_string(nbuf) + ")"
                     : "::twintile::runtime::scalarArg(" + names[a] + ")");
    if (pointer) buffers += std::string(nbuf++ ? ", " : "") + "::twintile::runtime::bufferBytes(" + names[a] + ")";
  }
  return {args, buffers};
}

/// The integer parameters, which a tuned grid may name (i1 among them, as `twintile tune` has it).
bool isIntegerType(const std::string &type) { return type.size() > 1 && (type[0] == 'i' || type[0] == 'u'); }

/// An int64_t as a C++ literal (the least one has none of its own).
std::string int64Literal(int64_t v) {
  return v == INT64_MIN ? "(-9223372036854775807LL - 1)" : std::to_string(v) + "LL";
}

/// A tuned function's table (in the source's unnamed namespace) and its
/// definition; its declaration in the header.
void tunedText(const std::string &ns, const LibraryTuned &t, size_t index, const std::vector<LibraryKernel> &kernels,
               std::string &header, std::string &source, std::string &functions) {
  const std::vector<LibraryKernel::Param> &params = kernels[t.rows.front().kernel].params;
  std::vector<std::string> names = paramNames(params);
  std::string doc = "/// " + commentSafe(t.kernel) + "(";
  for (size_t i = 0; i < params.size(); ++i) doc += (i ? ", " : "") + params[i].name + ": " + params[i].type;
  doc += "), tuned: the configuration of the row for the call's " + commentSafe(t.key.empty() ? "(no key)" : "");
  for (size_t i = 0; i < t.key.size(); ++i) doc += (i ? ", " : "") + t.key[i];
  doc += " (the nearest row where none is equal), over the grid " + commentSafe(t.grid) + ":\n";
  std::string p = "t" + std::to_string(index), rows, keys;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const LibraryTuned::Row &row = t.rows[r];
    doc += "///  ";
    for (size_t i = 0; i < row.key.size(); ++i) doc += " " + t.key[i] + "=" + std::to_string(row.key[i]);
    doc += ": " + commentSafe(row.config) + "\n";
    for (int64_t v : row.key) keys += int64Literal(v) + ", ";
    std::string meta = "nullptr";
    if (!row.meta.empty()) {
      meta = p + "_meta" + std::to_string(r);
      source += "constexpr ::twintile::runtime::TunedMeta " + meta + "[] = {";
      for (const auto &[n, v] : row.meta) source += "{" + literal(n) + ", " + int64Literal(v) + "}, ";
      source += "};\n";
    }
    rows += "    {" + p + "_keys + " + std::to_string(r * t.key.size()) + ", &::" + ns + "::kernels::" +
            kernels[row.kernel].function + ", " + literal(row.config) + ", " + meta + ", " +
            std::to_string(row.meta.size()) + "},\n";
  }
  header += "\n" + doc + signature(t.function, params, false, true) + ";\n";
  source += "constexpr ::std::int64_t " + p + "_keys[] = {" + (keys.empty() ? "0" : keys) + "};\n";
  source += "const ::twintile::runtime::TunedRow " + p + "_rows[] = {\n" + rows + "};\n";
  source += "const ::twintile::runtime::TunedTable " + p + "_table{" + literal(t.kernel) + ", " + literal(t.grid) +
            ", " + std::to_string(t.key.size()) + ", " + p + "_rows, " + std::to_string(t.rows.size()) + "};\n";
  std::string key, integers;
  for (const std::string &k : t.key)
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i].name == k)
        key += std::string(key.empty() ? "" : ", ") + "::std::int64_t(" + names[i] +
               (params[i].type.starts_with("ptr<") ? ".size())" : ")");
  for (size_t i = 0; i < params.size(); ++i)
    if (isIntegerType(params[i].type))
      integers += std::string(integers.empty() ? "" : ", ") + "{" + literal(params[i].name) + ", ::std::int64_t(" +
                  names[i] + ")}";
  auto [args, buffers] = callArguments(params);
  functions += "\n" + signature(t.function, params, false, false) + " {\n  return ::twintile::runtime::callTuned(::" +
               p + "_table, device, options,\n      {" + args + "},\n      {" + buffers + "},\n      {" + key +
               "},\n      {" + integers + "});\n}\n";
}

std::string documentation(const LibraryKernel &k) {
  std::string s = "/// " + commentSafe(k.spec) + "(";
  for (size_t i = 0; i < k.params.size(); ++i) s += (i ? ", " : "") + k.params[i].name + ": " + k.params[i].type;
  s += ")\n/// Its variants, the first whose promises the arguments keep running:\n";
  std::map<std::string, std::string> byTarget;
  std::vector<std::string> order;
  for (const LibraryVariant &v : k.variants) {
    if (!byTarget.count(v.target)) order.push_back(v.target);
    std::string &line = byTarget[v.target];
    line += (line.empty() ? "" : "; ") + v.assumes;
  }
  for (const std::string &t : order) s += "///   " + t + ": " + commentSafe(byTarget[t]) + "\n";
  return s;
}

} // namespace

bool isCxxName(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  if (s.find("__") != std::string::npos || (s[0] == '_' && s.size() > 1 && std::isupper(static_cast<unsigned char>(s[1]))))
    return false;
  for (const char *k : kKeywords)
    if (s == k) return false;
  return true;
}

std::optional<std::string> cxxParamType(const std::string &type) {
  static const std::map<std::string, std::string> scalars = {
      {"i1", "bool"},           {"i8", "::std::int8_t"},     {"i16", "::std::int16_t"},
      {"i32", "::std::int32_t"}, {"i64", "::std::int64_t"},  {"u8", "::std::uint8_t"},
      {"u16", "::std::uint16_t"}, {"u32", "::std::uint32_t"}, {"u64", "::std::uint64_t"},
      {"f32", "float"},          {"f64", "double"},          {"f16", "::twintile::runtime::f16"},
      {"bf16", "::twintile::runtime::bf16"}};
  bool pointer = type.starts_with("ptr<") && type.ends_with(">");
  auto it = scalars.find(pointer ? type.substr(4, type.size() - 5) : type);
  if (it == scalars.end()) return std::nullopt;
  return pointer ? "::std::span<" + it->second + ">" : it->second;
}

LibraryText libraryText(const std::string &ns, const std::string &headerName, const std::string &file,
                        const std::vector<LibraryKernel> &kernels, const std::vector<LibraryTuned> &tuned) {
  const std::string banner = "// Generated by `twintile library` from " + commentSafe(file) + ": do not edit.\n";
  LibraryText t;
  // Names outside the functions' own are written in full (::std::span,
  // ::twintile::runtime::Call, ::NS::kernels::F), so that no function or
  // parameter of the library's can hide one.
  t.header = banner +
             "// Each function runs one kernel specialization on any runtime device; every\n"
             "// failure is in the returned Call's error (twintile's runtime/KernelLibrary.h).\n"
             "#pragma once\n\n#include \"runtime/KernelLibrary.h\"\n\n#include <cstdint>\n#include <span>\n\n"
             "namespace " + ns + " {\n";
  std::string objects = "\n/// Each function's compiled variants, as it reads them.\nnamespace kernels {\n";
  t.source = banner + "#include \"" + headerName + "\"\n\nnamespace {\n";
  std::string definitions, functions;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const LibraryKernel &k = kernels[i];
    std::string p = "k" + std::to_string(i);
    if (k.typed) t.header += "\n" + documentation(k) + signature(k.function, k.params, true, true) + ";\n";
    objects += "extern const ::twintile::runtime::CompiledKernel " + k.function + ";\n";

    std::string tile = k.variants.empty() ? std::string() : k.variants.front().tileIR;
    t.source += "\n// " + commentSafe(k.spec) + "\nconstexpr char " + p + "_tile[] = " + literal(tile) + ";\n";
    std::string table;
    for (size_t v = 0; v < k.variants.size(); ++v) {
      const LibraryVariant &var = k.variants[v];
      std::string q = p + "v" + std::to_string(v);
      t.source += "// " + var.target + ": " + commentSafe(var.assumes) + "\n";
      t.source += "constexpr char " + q + "_manifest[] = " + literal(var.manifest) + ";\n";
      t.source += "constexpr char " + q + "_ptx[] = " + literal(var.ptx) + ";\n";
      if (!var.cubin.empty()) t.source += "constexpr unsigned char " + q + "_cubin[] = " + bytesArray(var.cubin) + ";\n";
      std::string tileHere = var.tileIR == tile ? p + "_tile" : literal(var.tileIR);
      table += "    {" + literal(var.assumes) + ", " + q + "_manifest, " + q + "_ptx, sizeof " + q + "_ptx - 1, " +
               (var.cubin.empty() ? "nullptr, 0" : q + "_cubin, sizeof " + q + "_cubin") + ", " + tileHere + "},\n";
    }
    t.source += "constexpr ::twintile::runtime::CompiledVariant " + p + "_variants[] = {\n" + table + "};\n";
    definitions += "const ::twintile::runtime::CompiledKernel " + k.function + "{" + literal(k.spec) + ", " +
                   literal(file) + ", ::" + p + "_variants, " + std::to_string(k.variants.size()) + "};\n";

    if (!k.typed) continue;
    auto [args, buffers] = callArguments(k.params);
    functions += "\n" + signature(k.function, k.params, true, false) + " {\n  return ::twintile::runtime::callCompiled(::" +
                 ns + "::kernels::" + k.function + ", device, grid, options,\n      {" + args + "},\n      {" +
                 buffers + "});\n}\n";
  }
  if (!tuned.empty()) t.source += "\n// The tuned functions' tables.\n";
  for (size_t i = 0; i < tuned.size(); ++i) tunedText(ns, tuned[i], i, kernels, t.header, t.source, functions);
  t.header += objects + "} // namespace kernels\n\n} // namespace " + ns + "\n";
  t.source += "\n} // namespace\n\nnamespace " + ns + " {\n\nnamespace kernels {\n" + definitions +
              "} // namespace kernels\n" + functions + "\n} // namespace " + ns + "\n";
  return t;
}

} // namespace twintile::driver
