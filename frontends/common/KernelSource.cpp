#include "frontends/common/KernelSource.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <regex>
#include <set>
#include <sstream>

namespace twintile {

namespace {

bool blank(const std::string &s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

/// Where kernel `name` is declared: the offset of `TT_KERNEL`, and of the
/// '(' that opens its parameters.
std::optional<std::pair<size_t, size_t>> kernelAt(const std::string &source, const std::string &name) {
  if (!std::regex_match(name, std::regex(R"([A-Za-z_]\w*)"))) return std::nullopt;
  std::smatch m;
  if (!std::regex_search(source, m, std::regex(R"(TT_KERNEL\s+void\s+)" + name + R"(\s*\()"))) return std::nullopt;
  size_t at = static_cast<size_t>(m.position(0));
  return std::pair{at, at + static_cast<size_t>(m.length(0)) - 1};
}

/// Whether a parameter's type, as written, is a plain C++ type.
bool plainType(std::string type) {
  for (const char *qualifier : {"const", "volatile"})
    type = std::regex_replace(type, std::regex(std::string(R"(\b)") + qualifier + R"(\b)"), " ");
  if (type.find('*') != std::string::npos) return true;  // a host pointer
  std::erase(type, '&');
  static const std::set<std::string> words = {
      "int",      "unsigned", "signed",   "long",     "short",    "char",     "float",    "double",
      "bool",     "size_t",   "int8_t",   "int16_t",  "int32_t",  "int64_t",  "uint8_t",  "uint16_t",
      "uint32_t", "uint64_t", "std::size_t", "std::int32_t", "std::int64_t", "std::uint32_t", "std::uint64_t"};
  std::istringstream in(type);
  bool any = false;
  for (std::string w; in >> w; any = true)
    if (!words.count(w)) return false;
  return any;
}

} // namespace

std::vector<std::string> kernelsIn(const std::string &source) {
  static const std::regex kernel(R"(TT_KERNEL\s+void\s+([A-Za-z_]\w*)\s*\()");
  std::vector<std::string> out;
  for (std::sregex_iterator it(source.begin(), source.end(), kernel), end; it != end; ++it) {
    std::string name = (*it)[1].str();
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

std::string specProblem(const std::string &spec) {
  static const std::regex name(R"(\s*[A-Za-z_]\w*(::[A-Za-z_]\w*)*\s*)");
  size_t open = spec.find('<');
  if (!std::regex_match(spec.substr(0, open), name))
    return "a specialization starts with a kernel's name (a C++ identifier, qualified or not)";
  if (open == std::string::npos) return "";
  size_t end = spec.find_last_not_of(" \t");
  if (spec[end] != '>') return "a specialization ends with the '>' that closes its template arguments";
  // The arguments, read by a whitelist rather than as C++ is lexed, so that
  // no reading of them ends the code they are pasted into: outside string
  // literals only names, numbers (a ' only between two digits), spaces and
  // operators without ';', braces, '#', '%' (digraphs) or comments; brackets
  // balanced, the list's own '<' closed only at the end.
  auto digit = [&](size_t i) { return i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i])); };
  int angle = 1, round = 0, square = 0;
  for (size_t i = open + 1; i < end; ++i) {
    char c = spec[i];
    if (c == '"') {  // a string literal ("mean"), not a raw one, closed on its line
      if (spec[i - 1] == 'R') return "a template argument cannot be a raw string literal";
      size_t j = i + 1;
      for (; j < end && spec[j] != '"' && spec[j] != '\n' && spec[j] != '\r'; ++j)
        if (spec[j] == '\\') ++j;
      if (j >= end || spec[j] != '"') return "a string literal in its template arguments is not closed";
      i = j;
      continue;
    }
    bool allowed = std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_ \t:,.-+*/()[]<>&|^~!=?", c);
    if (c == '\'') allowed = digit(i - 1) && digit(i + 1);  // 1'024; not a character literal
    if (c == '\'' && !allowed) return "a template argument cannot hold a ' outside a number (no character literals)";
    if (c == '\0' || !allowed) return std::string("a template argument cannot hold '") + c + "'";
    if ((c == '/' && (spec[i + 1] == '/' || spec[i + 1] == '*')) || (c == '<' && spec[i + 1] == ':' && spec[i + 2] != ':') ||
        (c == ':' && spec[i + 1] == '>'))
      return "a template argument cannot hold a comment or a digraph";
    // Outside parentheses a '<' or '>' is a bracket to C++ only when it stands
    // alone: '<=', '>=', '<<', '->' (and their '=' forms) would be operators to
    // C++ and brackets to this count, so the list could end where it does not.
    bool top = round == 0 && square == 0;
    if (top && ((c == '<' && (spec[i + 1] == '=' || spec[i + 1] == '<')) || (c == '>' && spec[i + 1] == '=') ||
                (c == '-' && spec[i + 1] == '>')))
      return "a comparison, shift or '->' in a template argument goes in parentheses";
    if (c == '(') ++round;
    else if (c == ')') --round;
    else if (c == '[') ++square;
    else if (c == ']') --square;
    else if (round == 0 && square == 0 && c == '<') ++angle;
    else if (round == 0 && square == 0 && c == '>') --angle;
    if (round < 0 || square < 0 || angle == 0) return "its template arguments close before the end of the specialization";
  }
  if (round != 0 || square != 0 || angle != 1) return "its template arguments' brackets do not balance";
  return "";
}

std::string kernelName(const std::string &spec) {
  std::string name = spec.substr(0, spec.find('<'));
  std::erase_if(name, [](unsigned char c) { return std::isspace(c); });
  if (size_t colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
  return name;
}

std::optional<std::string> templateParameters(const std::string &source, const std::string &name) {
  std::optional<std::pair<size_t, size_t>> at = kernelAt(source, name);
  if (!at) return std::nullopt;
  size_t kernel = at->first;
  size_t tmpl = source.rfind("template", kernel);
  if (tmpl == std::string::npos) return std::string();
  size_t open = source.find('<', tmpl);
  if (open == std::string::npos || open > kernel) return std::string();
  int depth = 0;
  for (size_t i = open; i < kernel; ++i) {
    depth += source[i] == '<' ? 1 : source[i] == '>' ? -1 : 0;
    if (depth != 0) continue;
    // A template header before some other declaration is not the kernel's;
    // comments and a requires-clause may stand between the two.
    std::string between = std::regex_replace(source.substr(i + 1, kernel - i - 1),
                                             std::regex(R"(//[^\n]*|/\*[\s\S]*?\*/)"), " ");
    if (!blank(between) && !std::regex_search(between, std::regex(R"(^\s*requires\b)"))) return std::string();
    return std::regex_replace(source.substr(open, i - open + 1), std::regex(R"(\s+)"), " ");
  }
  return std::string();
}

std::optional<twintile::ir::Diagnostic> hostParameter(const std::string &source, const std::string &path,
                                                const std::string &name) {
  std::optional<std::pair<size_t, size_t>> at = kernelAt(source, name);
  if (!at) return std::nullopt;
  // The parameters, split at the commas outside brackets.
  std::vector<std::pair<size_t, size_t>> params;  // [begin, end) offsets
  int depth = 0;
  size_t begin = at->second + 1;
  for (size_t i = begin; i < source.size(); ++i) {
    char c = source[i];
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    else if ((c == '>' || c == ']' || c == '}') && depth > 0) --depth;
    else if (c == ')' && depth-- == 0) {
      params.push_back({begin, i});
      break;
    } else if (c == ',' && depth == 0) {
      params.push_back({begin, i});
      begin = i + 1;
    }
  }
  for (auto [b, e] : params) {
    std::string text = source.substr(b, e - b);
    text = text.substr(0, text.find('='));  // a default argument
    static const std::regex named(R"(^([\s\S]*?)\b([A-Za-z_]\w*)\s*$)");
    std::smatch m;
    std::string t = trim(text);
    if (!std::regex_match(t, m, named)) continue;
    std::string type = trim(m[1].str()), param = m[2].str();
    if (type.empty() || (plainType(param) && plainType(type))) {  // unnamed: `int`, `unsigned int`
      if (!plainType(t)) continue;
      type = t;
      param = "";
    } else if (!plainType(type)) {
      continue;
    }
    size_t offset = b + (param.empty() ? text.find_first_not_of(" \t\r\n") : text.rfind(param));
    int line = 1 + static_cast<int>(std::count(source.begin(), source.begin() + static_cast<long>(offset), '\n'));
    size_t lineStart = source.rfind('\n', offset);
    int column = static_cast<int>(offset - (lineStart == std::string::npos ? 0 : lineStart + 1)) + 1;
    type = std::regex_replace(type, std::regex(R"(\s+)"), " ");
    return twintile::ir::Diagnostic{twintile::ir::Location(path, line, column),
                              (param.empty() ? "a kernel parameter" : "kernel parameter '" + param + "'") +
                                  " has host type '" + type + "': give host values to a kernel as template parameters"};
  }
  return std::nullopt;
}

} // namespace twintile
