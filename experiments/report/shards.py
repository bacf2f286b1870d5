"""Joining the shards of a suite (experiments/harness/shard.py) into the file a whole run writes.

`scripts/report --merge` reads experiments/results/shards/<suite>.<I>-of-<N>.json and writes
experiments/results/<suite>.json for each suite whose N shards are all there. The join:

- every shard was measured at one commit, with one config and one plan of units, and the
  shards' units are the plan, each unit once;
- lists are concatenated in shard order (a shard holds a contiguous block of the plan, so
  each list's rows come in the whole run's order of units); dicts are joined key by key and
  must have the same keys in every shard that has them; any other value must be the same in
  every shard that has it: a disagreement (a baseline missing on one machine and not on
  another, say) is an error, never a silent pick;
- the environment is that of the first shard that measured anything, with every shard's
  machine, date and load beside it.

Standard library only.
"""
import json
from pathlib import Path

class MergeError(Exception):
    pass


def _join(values, where):
    """One value from the shards' values of one field (in shard order, absent ones left out)."""
    if all(isinstance(v, list) for v in values):
        return [x for v in values for x in v]
    if all(isinstance(v, dict) for v in values):
        keys = list(dict.fromkeys(k for v in values for k in v))
        for v in values:  # a key some shards have and others lack: `missing` naming a baseline one node lacks
            if set(v) != set(keys):
                raise MergeError(f"the shards disagree on {where}: some have {sorted(set(keys) - set(v))}, "
                                 "others do not")
        return {k: _join([v[k] for v in values], f"{where}.{k}") for k in keys}
    first = values[0]
    for v in values[1:]:
        if v != first:
            raise MergeError(f"the shards disagree on {where}: {json.dumps(first)[:200]} against "
                             f"{json.dumps(v)[:200]}")
    return first


def merge(records):
    """The whole run's record from its shards' records (any order); MergeError if they are not
    the N shards of one run."""
    if not records:
        raise MergeError("no shards")
    suite = records[0].get("suite")
    for r in records:
        if r.get("suite") != suite or "shard" not in r:
            raise MergeError(f"not all shards of the {suite} suite: {r.get('suite')} "
                             f"{'(not a shard)' if 'shard' not in r else ''}")
    records = sorted(records, key=lambda r: r["shard"]["index"])
    count = records[0]["shard"]["count"]
    indexes = [r["shard"]["index"] for r in records]
    if any(r["shard"]["count"] != count for r in records) or indexes != list(range(1, count + 1)):
        have = ", ".join(f"{r['shard']['index']}/{r['shard']['count']}" for r in records)
        raise MergeError(f"{suite}: shards {have} are not 1/{count} to {count}/{count}, each once")
    for field in ("plan",):
        if any(r["shard"][field] != records[0]["shard"][field] for r in records):
            raise MergeError(f"{suite}: the shards were planned over different units (a different --kernels, "
                             "--quick or manifest)")
    units = [u for r in records for u in r["shard"]["units"]]
    if units != records[0]["shard"]["plan"]:
        raise MergeError(f"{suite}: the shards' units {units} are not the plan {records[0]['shard']['plan']}")
    commits = {r["environment"].get("git_commit") for r in records}
    if len(commits) != 1:
        raise MergeError(f"{suite}: the shards were measured at different commits: {', '.join(sorted(map(str, commits)))}")
    if any(r["config"] != records[0]["config"] for r in records):
        raise MergeError(f"{suite}: the shards were run with different configs")
    fields = list(dict.fromkeys(k for r in records for k in r if k not in ("environment", "shard", "config")))
    merged = {k: _join([r[k] for r in records if k in r], k) for k in fields}
    measured = [r for r in records if r["shard"]["units"]] or records
    environment = dict(measured[0]["environment"])  # the first shard that measured anything
    environment["git_dirty"] = any(r["environment"].get("git_dirty") for r in records)
    environment["shards"] = [{"index": r["shard"]["index"], "units": r["shard"]["units"],
                              **{k: r["environment"].get(k) for k in ("host", "date", "load_average", "cpu")}}
                             for r in records]
    return {"suite": suite, "environment": environment, "config": records[0]["config"],
            **{k: v for k, v in merged.items() if k != "suite"}}


def shard_sets(directory):
    """{suite: {count: {index: path}}} of the shard files in `directory`."""
    out = {}
    for path in sorted(Path(directory).glob("*.*-of-*.json")):
        stem = path.name[:-len(".json")]
        suite, _, part = stem.rpartition(".")
        index, _, count = part.partition("-of-")
        if not (suite and index.isdigit() and count.isdigit()):
            continue
        out.setdefault(suite, {}).setdefault(int(count), {})[int(index)] = path
    return out


def merge_directory(directory):
    """[(suite, merged record)] of every set of shards in `directory`, all joined before any is
    written; MergeError names a set that is incomplete or does not join."""
    merged = []
    for suite, by_count in sorted(shard_sets(directory).items()):
        if len(by_count) > 1:
            raise MergeError(f"{directory}: {suite} has shards of {len(by_count)} runs "
                             f"({', '.join(f'of {n}' for n in sorted(by_count))}): remove the stale ones")
        (count, paths), = by_count.items()
        absent = [i for i in range(1, count + 1) if i not in paths]
        if absent:
            raise MergeError(f"{directory}: {suite} lacks shard(s) {', '.join(f'{i}/{count}' for i in absent)}")
        records = []
        for i in range(1, count + 1):
            try:
                records.append(json.loads(paths[i].read_text()))
            except (OSError, json.JSONDecodeError) as e:
                raise MergeError(f"{paths[i]}: not a result file ({e})") from None
        merged.append((suite, merge(records)))
    return merged
