#!/usr/bin/env bash
# The server's CPU per intent against its floor (issue 31): `snl serve` and the no-op floor on the
# same axum/tungstenite stack (crates/server/examples/floor.rs, TCP_NODELAY as the server), taken
# in turns in one sitting, each driven back to back by the load generator (examples/load.rs) for
# a steady window, and the median of each side's "us per intent" (server process CPU / intents).
#
#   scripts/bench-server.sh [ROOMS...]     default: 500 5000
#   RUNS=3 DURATION=20 scripts/bench-server.sh 500
#   BASE_BIN=/path/to/older/snl scripts/bench-server.sh 500   # and an older snl, in the same turns
#
# Each run plays its rooms ROUNDS times over on the same process (default: enough rounds for
# 10,000 rooms, 20 of 500 or 2 of 5,000: back to back a round of 500 rooms lasts about a second).
#
# A benchmark, not a test: it prints figures and asserts nothing. Each side gets a fresh process
# (and the server a fresh database in a temporary folder) on a free port.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
duration=${DURATION:-20}
rooms_list=("$@")
[ ${#rooms_list[@]} -gt 0 ] || rooms_list=(500 5000)

cargo build --release --quiet -p snl -p snl-server --example load --example floor
. scripts/bench-sides.sh

# One run: SIDE (floor|server), ROOMS; prints the "us per intent" figure.
one() {
  local side=$1 rooms=$2
  start "$side"
  "$bin/examples/load" --rooms "$rooms" --duration "$duration" --addr "127.0.0.1:$port" \
    --rounds "${ROUNDS:-$(((10000 + rooms - 1) / rooms))}" \
    --server-pid "$server_pid" >"$tmp/load.log" 2>&1 || { cat "$tmp/load.log" >&2; stop; return 1; }
  stop
  local us
  us=$(sed -n 's/^server CPU .*: \([0-9]*\) us per intent.*/\1/p' "$tmp/load.log")
  local ips
  ips=$(sed -n 's/^intents per second *//p' "$tmp/load.log")
  local lost
  lost=$(sed -n 's/^lost or duplicated *//p' "$tmp/load.log")
  echo "$side rooms=$rooms: $us us per intent, $ips intents/s, lost or duplicated $lost" >&2
  echo "$us"
}

for rooms in "${rooms_list[@]}"; do
  for side in "${sides[@]}"; do : >"$tmp/$side.us"; done
  for _ in $(seq 1 "$runs"); do
    for side in "${sides[@]}"; do one "$side" "$rooms" >>"$tmp/$side.us"; done
  done
  f=$(median <"$tmp/floor.us"); s=$(median <"$tmp/server.us")
  echo "rooms $rooms: floor $f us, server $s us per intent (medians of $runs, ${duration} s windows): $(awk -v s="$s" -v f="$f" 'BEGIN {printf "%.2f", s / f}')x the floor"
  if [ -n "${BASE_BIN:-}" ]; then
    b=$(median <"$tmp/base.us")
    echo "rooms $rooms: $BASE_BIN $b us per intent: $(awk -v b="$b" -v f="$f" 'BEGIN {printf "%.2f", b / f}')x the floor"
  fi
done
