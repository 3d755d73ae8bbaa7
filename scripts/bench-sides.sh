# The sides the server benchmarks take in turns, sourced by scripts/bench-server.sh and
# scripts/bench-memory.sh (after `cd` to the repository and the release build): `floor` (the
# no-op server on the same stack, crates/server/examples/floor.rs), `server` (this `snl serve`)
# and `base` (an older snl, `BASE_BIN`). Each gets a fresh process — the server a fresh
# database in a temporary folder — on a free port.
bin=target/release
tmp=$(mktemp -d)
server_pid=""
port=""
stop() { [ -z "$server_pid" ] || { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }; server_pid=""; }
trap 'stop; rm -rf "$tmp"' EXIT
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 200); do (echo >"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; return 1; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Starts SIDE (floor|server|base) on a free port: sets $port and $server_pid.
start() {
  port=$(free_port)
  if [ "$1" = floor ]; then
    "$bin/examples/floor" "127.0.0.1:$port" >"$tmp/floor.log" 2>&1 &
  else
    local snl=$bin/snl
    [ "$1" = base ] && snl=$BASE_BIN
    rm -rf "$tmp/db" && mkdir -p "$tmp/db"
    "$snl" serve --addr "127.0.0.1:$port" --db "$tmp/db/games.db" --bot-delay-ms 0 \
      --max-rooms 1000000 --rooms-per-minute 1000000 --max-connections 1000000 \
      --connections-per-address 0 --rate 1000000 >"$tmp/server.log" 2>&1 &
  fi
  server_pid=$!
  wait_port "$port"
}

sides=(floor server)
[ -z "${BASE_BIN:-}" ] || sides+=(base)
