//===- TunedTable.cpp - reading and adding to a tuned table ---------------===//
#include "tools/driver/TunedTable.h"
#include "tools/driver/Driver.h"

#include "support/Files.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <functional>

namespace twintile::driver {

namespace {

constexpr const char *kFormat = "twintile tuned table 1";

using json = nlohmann::ordered_json;

json configJson(const TuneConfig &c) {
  json j = json::object();
  for (const auto &[n, v] : c.meta) j[n] = v;
  if (c.numWarps) j["num_warps"] = c.numWarps;
  if (c.numStages) j["num_stages"] = c.numStages;
  return j;
}

std::optional<TuneConfig> configFrom(const json &j, std::string &error) {
  if (!j.is_object()) {
    error = "a row's config is not an object";
    return std::nullopt;
  }
  TuneConfig c;
  for (const auto &[n, v] : j.items()) {
    if (!v.is_number_integer()) {
      error = "config '" + n + "' is not an integer";
      return std::nullopt;
    }
    int64_t value = v.get<int64_t>();
    if (n == "num_warps" || n == "num_stages") {
      if (value < 1 || value > 64) {
        error = "config " + n + "=" + std::to_string(value) + " is out of range";
        return std::nullopt;
      }
      (n == "num_warps" ? c.numWarps : c.numStages) = int(value);
    } else {
      c.meta.emplace_back(n, value);
    }
  }
  return c;
}

json tableJson(const TunedTableFile &t) {
  json rows = json::array();
  for (const TunedTableRow &r : t.rows) {
    json row = {{"key", r.key}, {"config", configJson(r.config)}};
    if (r.seconds > 0) row["seconds"] = r.seconds;  // none where the winner came from the disk cache
    row["device"] = r.device;
    rows.push_back(row);
  }
  return {{"format", kFormat}, {"kernel", t.kernel}, {"key", t.key}, {"grid", t.grid}, {"rows", rows}};
}

std::optional<TunedTableFile> tableFrom(const json &j, std::string &error) {
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat) {
    error = "not a tuned table (its \"format\" is not \"" + std::string(kFormat) + "\")";
    return std::nullopt;
  }
  TunedTableFile t;
  try {
    t.kernel = j.at("kernel").get<std::string>();
    t.key = j.at("key").get<std::vector<std::string>>();
    t.grid = j.at("grid").get<std::string>();
    for (const json &r : j.at("rows")) {
      TunedTableRow row;
      for (const json &v : r.at("key")) {
        if (!v.is_number_integer()) {
          error = "a row's key value " + v.dump() + " is not an integer";
          return std::nullopt;
        }
        row.key.push_back(v.get<int64_t>());
      }
      std::optional<TuneConfig> c = configFrom(r.at("config"), error);
      if (!c) return std::nullopt;
      row.config = *c;
      row.seconds = r.contains("seconds") ? r.at("seconds").get<double>() : 0.0;
      row.device = r.contains("device") ? r.at("device").get<std::string>() : "";
      if (row.key.size() != t.key.size()) {
        error = "a row's key has " + std::to_string(row.key.size()) + " values, the table's " +
                std::to_string(t.key.size());
        return std::nullopt;
      }
      t.rows.push_back(std::move(row));
    }
  } catch (const json::exception &e) {
    error = std::string("a field is missing or of the wrong type (") + e.what() + ")";
    return std::nullopt;
  }
  if (t.rows.empty()) {
    error = "it has no rows";
    return std::nullopt;
  }
  return t;
}

} // namespace

std::optional<TunedTableFile> readTunedTable(const std::string &path, std::string &error) {
  std::optional<std::string> text = support::readFile(path);
  if (!text) {
    error = "cannot read the tuned table '" + path + "'";
    return std::nullopt;
  }
  json j = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    error = "the tuned table '" + path + "' is not JSON";
    return std::nullopt;
  }
  std::optional<TunedTableFile> t = tableFrom(j, error);
  if (!t) error = "the tuned table '" + path + "': " + error;
  return t;
}

bool addTunedRow(const std::string &path, const TunedTableFile &table, const TunedTableRow &row, std::string &error) {
  TunedTableFile out = table;
  out.rows.clear();
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    std::optional<TunedTableFile> old = readTunedTable(path, error);
    if (!old) return false;
    if (old->kernel != table.kernel || old->key != table.key || old->grid != table.grid) {
      error = "the tuned table '" + path + "' is of '" + old->kernel + "' keyed by " + tableJson(*old)["key"].dump() +
              " over the grid '" + old->grid + "', not this tuning's: use another file";
      return false;
    }
    out.rows = old->rows;
  }
  bool replaced = false;
  for (TunedTableRow &r : out.rows)
    if (r.key == row.key) {
      // The disk cache's winner (no time measured now) keeps the time its row has for it.
      double seconds = row.seconds == 0 && r.config.name() == row.config.name() ? r.seconds : row.seconds;
      r = row, r.seconds = seconds, replaced = true;
    }
  if (!replaced) out.rows.push_back(row);
  // Written aside, then renamed over: a reader never sees half a table. Two tunings adding to
  // one table at once may lose one's row (no lock); each writes a temporary file of its own.
  const std::string temporary = path + "." + std::to_string(std::hash<std::string>{}(path + std::to_string(
                                                 std::chrono::steady_clock::now().time_since_epoch().count()))) + ".tmp";
  if (!writeText(temporary, tableJson(out).dump(2) + "\n", error)) return false;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    error = "cannot write the tuned table '" + path + "': " + ec.message();
    std::filesystem::remove(temporary, ec);
    return false;
  }
  return true;
}

} // namespace twintile::driver
