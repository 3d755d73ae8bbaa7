#!/usr/bin/env bash
# A cluster of snl serve nodes on one machine, all on loopback: PostgreSQL, N nodes sharing it,
# and nginx routing each room to one node by its id.
#
#   deploy/cluster.sh up [N]        start PostgreSQL, N nodes (default 3) and nginx; the last
#                                   line printed is the public address
#   deploy/cluster.sh kill-node K   kill node K (1..N) with SIGKILL
#   deploy/cluster.sh start-node K  start node K again (it rejoins)
#   deploy/cluster.sh pause-node K  pause node K (SIGSTOP: it stalls, its connections open)
#   deploy/cluster.sh resume-node K let node K go on (SIGCONT)
#   deploy/cluster.sh down          stop everything
#
# Installs Debian's postgresql and nginx when they are missing. Environment: SNL_CLUSTER_DIR
# (state, logs; default /tmp/snl-cluster), SNL_CLUSTER_PORT (nginx; default 8800, nodes on the
# ports after it, PostgreSQL on the port before), SNL_BIN (default target/release/snl, built
# when missing), SNL_SERVE_ARGS (more options for every node, e.g. --bot-delay-ms 0).
set -euo pipefail
cd "$(dirname "$0")/.."

DIR=${SNL_CLUSTER_DIR:-/tmp/snl-cluster}
PORT=${SNL_CLUSTER_PORT:-8800}
PG_PORT=$((PORT - 1))
BIN=${SNL_BIN:-$PWD/target/release/snl}
DB_URL="postgres://snl@127.0.0.1:$PG_PORT/snl"

die() { echo "cluster.sh: $*" >&2; exit 1; }

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

install_missing() {
  local missing=()
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  [ ${#missing[@]} = 0 ] && return
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

pg_bin() { ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1; }
nginx_bin() { command -v nginx || echo /usr/sbin/nginx; }

# Waits (at most 20 s) for one more "listening on" in node K's log than the $2 it had before:
# the node is serving.
wait_listening() {
  local log=$DIR/node-$1.log pid
  pid=$(cat "$DIR/node-$1.pid")
  for _ in $(seq 200); do
    [ "$(grep -c "listening on" "$log")" -gt "$2" ] && return
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  die "node $1 did not start: $(tail -n 3 "$log")"
}

start_node() {
  local k=$1
  local port=$((PORT + k)) before=0
  # A node started again writes on after its log of before (what it said before it died).
  [ -f "$DIR/node-$k.log" ] && before=$(grep -c "listening on" "$DIR/node-$k.log" || true)
  # Behind nginx every client comes from nginx's address: a node's per-address connection cap
  # would count them all as one (limit clients per address in front of nginx instead).
  # shellcheck disable=SC2086
  nohup "$BIN" serve --addr "127.0.0.1:$port" --db "$DB_URL" --connections-per-address 0 ${SNL_SERVE_ARGS:-} \
    >>"$DIR/node-$k.log" 2>&1 &
  echo $! >"$DIR/node-$k.pid"
  wait_listening "$k" "$before"
}

up() {
  local n=${1:-3}
  [[ $n =~ ^[1-9][0-9]?$ ]] || die "the number of nodes '$n' is not 1 to 99"
  [ -e "$DIR/nodes" ] && die "a cluster is already up in $DIR: deploy/cluster.sh down first"
  install_missing
  [ -x "$BIN" ] || cargo build --release -p snl
  mkdir -p "$DIR/nginx-tmp"
  chmod 777 "$DIR/nginx-tmp" # nginx's workers run as an unprivileged user
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
  local pg; pg=$(pg_bin)
  as_postgres "$pg/initdb" -D "$DIR/pg" -U snl --auth=trust -E UTF8 >"$DIR/initdb.log"
  as_postgres "$pg/pg_ctl" -D "$DIR/pg" -l "$DIR/postgres.log" -w -o \
    "-p $PG_PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=200" \
    start >/dev/null
  "$pg/createdb" -h 127.0.0.1 -p "$PG_PORT" -U snl snl
  echo "$n" >"$DIR/nodes"
  local rooms="" any=""
  for k in $(seq 1 "$n"); do
    start_node "$k"
    # Rooms: no node is ever left out. A WebSocket counts as a success only when it closes, so a
    # node once marked failed would get one request per fail_timeout for as long as its
    # connections last, and with every node marked a room would find none ("no live
    # upstreams"). A node that refuses the connection (down) is passed over at once anyway, one
    # that does not answer (stalled) after the read timeout.
    rooms+="        server 127.0.0.1:$((PORT + k)) max_fails=0;"$'\n'
    # Anything else: a node that refuses or drops a request is left out for 2 s.
    any+="        server 127.0.0.1:$((PORT + k)) max_fails=1 fail_timeout=2s;"$'\n'
  done
  ROOMS="$rooms" ANY="$any" DIR="$DIR" LISTEN="127.0.0.1:$PORT" python3 - deploy/nginx.conf \
    "$DIR/nginx.conf" <<'PY'
import os, sys
text = open(sys.argv[1]).read()
for key, env in [("@ROOM_SERVERS@", "ROOMS"), ("@ANY_SERVERS@", "ANY"), ("@DIR@", "DIR"), ("@LISTEN@", "LISTEN")]:
    text = text.replace(key, os.environ[env].rstrip("\n"))
open(sys.argv[2], "w").write(text)
PY
  "$(nginx_bin)" -c "$DIR/nginx.conf" -e "$DIR/nginx-error.log"
  check_browser_origin
  echo "PostgreSQL: $DB_URL"
  for k in $(seq 1 "$n"); do echo "node $k: http://127.0.0.1:$((PORT + k)) (pid $(cat "$DIR/node-$k.pid"))"; done
  echo "http://127.0.0.1:$PORT"
}

# A page served through nginx opens WebSockets with its Origin (http:// and nginx's address):
# each node must see nginx's Host to let it in, not the upstream's name (403 bad_origin). The
# lobby stream opens (101); a room's WebSocket gets past the Origin check to the room, which for
# this id is none (404).
check_browser_origin() {
  local path answer
  for path in /api/lobby/ws /api/rooms/0000000000000000/ws; do
    answer=$(curl -s --http1.1 --max-time 3 -o /dev/null -w '%{http_code}' \
      -H 'Connection: Upgrade' -H 'Upgrade: websocket' -H 'Sec-WebSocket-Version: 13' \
      -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' -H "Origin: http://127.0.0.1:$PORT" \
      "http://127.0.0.1:$PORT$path" || true)
    case $path:$answer in
      /api/lobby/ws:101 | /api/rooms/*:404) ;;
      *) die "a WebSocket upgrade of $path with the page's Origin through nginx got '$answer'" ;;
    esac
  done
}

node_pid() {
  [ -f "$DIR/node-$1.pid" ] || die "there is no node '$1' (nodes: 1 to $(cat "$DIR/nodes" 2>/dev/null || echo 0))"
  cat "$DIR/node-$1.pid"
}

case ${1:-} in
  up) up "${2:-3}" ;;
  kill-node)
    pid=$(node_pid "${2:-}")
    kill -KILL "$pid"
    echo "node $2 (pid $pid) killed"
    ;;
  pause-node)
    pid=$(node_pid "${2:-}")
    kill -STOP "$pid"
    echo "node $2 (pid $pid) paused"
    ;;
  resume-node)
    pid=$(node_pid "${2:-}")
    kill -CONT "$pid"
    echo "node $2 (pid $pid) goes on"
    ;;
  start-node)
    node_pid "${2:-}" >/dev/null
    start_node "$2"
    echo "node $2 started again (pid $(cat "$DIR/node-$2.pid"))"
    ;;
  down)
    [ -f "$DIR/nginx.pid" ] && "$(nginx_bin)" -c "$DIR/nginx.conf" -e "$DIR/nginx-error.log" -s stop || true
    for f in "$DIR"/node-*.pid; do [ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null || true; done
    [ -d "$DIR/pg" ] && as_postgres "$(pg_bin)/pg_ctl" -D "$DIR/pg" -m fast -w stop >/dev/null || true
    rm -rf "$DIR"
    echo "cluster down"
    ;;
  *) die "usage: deploy/cluster.sh up [N] | kill-node K | start-node K | pause-node K | resume-node K | down" ;;
esac
