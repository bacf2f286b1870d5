#!/bin/sh
# replay.sh PYTHON TARGET FUZZ_BINARY SEEDS_DIR [SEEDS_ARGS...]
# Writes TARGET's seeds (seeds.py) to SEEDS_DIR, then replays them and the
# kept findings (regressions/TARGET) through FUZZ_BINARY (a fuzz target
# linked with ReplayMain.cpp). Fails on the first finding.
set -eu
python=$1 target=$2 binary=$3 seeds=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$seeds"
"$python" "$here/seeds.py" "$target" "$seeds" "$@"
exec "$binary" "$seeds" "$here/regressions/$target"
