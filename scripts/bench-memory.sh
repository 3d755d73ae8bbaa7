#!/usr/bin/env bash
# The server's memory per connection (issue 31): `snl serve` and the no-op floor on the same
# axum/tungstenite stack (crates/server/examples/floor.rs), taken in turns in one sitting.
#
#   players:     ROOMS rooms of two people paced 1-3 s a roll by the load generator
#                (examples/load.rs --paced) for DURATION seconds: the server's resident memory
#                per connection once all are connected, and at its peak while they play;
#   spectators:  SPECTATORS idle spectators of one room (examples/conns.rs): memory per
#                connection (the floor has no rooms to watch, so only the server is measured).
#
#   scripts/bench-memory.sh                        5,000 rooms (10,000 players), 10,000 spectators
#   RUNS=3 ROOMS=5000 SPECTATORS=10000 DURATION=30 scripts/bench-memory.sh
#   BASE_BIN=/path/to/older/snl scripts/bench-memory.sh   # and an older snl, in the same turns
#
# A benchmark, not a test: it prints each run's figures and the medians, and asserts nothing.
# Each side gets a fresh process (the server a fresh database in a temporary folder) on a free
# port. 10,000 connections need as many open files on each side: the script raises its limit.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
rooms=${ROOMS:-5000}
spectators=${SPECTATORS:-10000}
duration=${DURATION:-30}

cargo build --release --quiet -p snl -p snl-server --example load --example floor --example conns
. scripts/bench-sides.sh

# Players on SIDE: prints "connected peak p99_ms".
players() {
  start "$1"
  "$bin/examples/load" --rooms "$rooms" --paced --duration "$duration" --addr "127.0.0.1:$port" \
    --server-pid "$server_pid" >"$tmp/load.log" 2>&1 || { cat "$tmp/load.log" >&2; stop; return 1; }
  stop
  local per p99
  per=$(sed -n 's/^bytes per connection *\([0-9]*\) connected, \([0-9]*\) at peak.*/\1 \2/p' "$tmp/load.log")
  p99=$(sed -n 's|^latency p50/p95/p99/max *[0-9.]* / [0-9.]* / \([0-9.]*\) / .*|\1|p' "$tmp/load.log")
  echo "$1 players: $per (bytes per connection connected, at peak), p99 $p99 ms" >&2
  echo "$per $p99"
}

# Spectators on SIDE (server|base): prints bytes per connection.
watchers() {
  start "$1"
  "$bin/examples/conns" --addr "127.0.0.1:$port" --server-pid "$server_pid" --n "$spectators" \
    >"$tmp/conns.log" 2>&1 || { cat "$tmp/conns.log" >&2; stop; return 1; }
  stop
  local per
  per=$(sed -n 's/.*, \([0-9]*\) bytes per connection$/\1/p' "$tmp/conns.log")
  echo "$1 spectators: $per bytes per connection" >&2
  echo "$per"
}

declare -A connected peak p99 watched
for _ in $(seq 1 "$runs"); do
  for side in "${sides[@]}"; do
    read -r c k l < <(players "$side")
    connected[$side]+="$c "
    peak[$side]+="$k "
    p99[$side]+="$l "
    if [ "$side" != floor ]; then
      watched[$side]+="$(watchers "$side") "
    fi
  done
done
for side in "${sides[@]}"; do
  m() { tr ' ' '\n' | grep . | median; }
  line="$side: $rooms rooms paced ($((2 * rooms)) players), medians of $runs:"
  line+=" $(echo "${connected[$side]}" | m) bytes per player connected,"
  line+=" $(echo "${peak[$side]}" | m) at peak, p99 $(echo "${p99[$side]}" | m) ms"
  [ "$side" = floor ] || line+="; $spectators idle spectators: $(echo "${watched[$side]}" | m) bytes each"
  echo "$line"
done
