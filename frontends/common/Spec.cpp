#include "frontends/common/Spec.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <regex>
#include <set>
#include <sstream>

namespace twintile {

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

} // namespace twintile
