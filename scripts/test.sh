#!/usr/bin/env bash
# Every test of snl, on a fresh machine as on a developer's: installs what the tests need beyond
# cargo (tmux, for the full-screen game's end-to-end tests; Chromium, node and the npm test tools
# in web-tests/, for the browser game's), then runs the workspace's tests, then the browser game's.
set -euo pipefail
cd "$(dirname "$0")/.."

need() {
  command -v "$1" >/dev/null && return
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq "$2" >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq "$2" >/dev/null; fi
}
need tmux tmux
need chromium chromium
need node nodejs
need npm npm
# PostgreSQL (the server's storage and cluster tests start throwaway clusters) and nginx (the
# cluster run below).
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need no-such-command-initdb postgresql
need nginx nginx

# Snapshot tests fail on a changed screen instead of writing a new one.
export INSTA_UPDATE=no
cargo test --workspace --release "$@"

# The browser's engine (crates/wasm) built from source with Debian's toolchain (scripts/wasm.sh:
# a debootstrap root cached in the build directory), and the committed engine.wasm proved to be
# byte for byte what the sources build.
scripts/wasm.sh --check

# The browser game (crates/server/web): types checked and linted, the animation planner's and the
# engine's unit tests, then real Chromium against the release binary that cargo's tests just built.
cargo build --release --quiet -p snl
(
  cd web-tests
  # Installed again when the lock file changed since (a pull that adds a tool).
  [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error
  npx --no-install tsc -p tsconfig.json
  npm run --silent lint
  node --test unit/
  node --test --test-concurrency=1 e2e/
)

# Issue 15: three nodes on PostgreSQL behind nginx; 300 rooms played at once, one node killed
# with SIGKILL mid-way and started again (deploy/cluster.sh installs postgresql and nginx).
cluster_tmp=$(mktemp -d)
chmod 755 "$cluster_tmp" # the postgres user runs the database inside
cluster_dir=$cluster_tmp/cluster
trap 'SNL_CLUSTER_DIR=$cluster_dir deploy/cluster.sh down >/dev/null 2>&1 || true' EXIT
SNL_CLUSTER_DIR=$cluster_dir SNL_SERVE_ARGS="--bot-delay-ms 50 --rate 1000 --rooms-per-minute 1000" deploy/cluster.sh up 3
SNL_CLUSTER_DIR=$cluster_dir cargo run --release -p snl-server --example cluster_run -- \
  --addr 127.0.0.1:8800 --rooms 300 \
  --kill "SNL_CLUSTER_DIR=$cluster_dir deploy/cluster.sh kill-node 2" \
  --restart "SNL_CLUSTER_DIR=$cluster_dir deploy/cluster.sh start-node 2" --node 127.0.0.1:8802

# Issue 31: leases fenced by epochs. On the same cluster, 30 people play game after game through
# nginx while nodes are paused past their lease (SIGSTOP, SIGCONT) and killed (SIGKILL, started
# again) at random moments: every game is its seed's and what the database stored, no write is
# stored under an old epoch, rooms of a paused node go on elsewhere, and a killed node's rooms
# answer again within 5 s at p99. Bounded here; the long run (100 pauses, 200 kills) is by hand,
# its figures in docs/scaling.md.
SNL_CLUSTER_DIR=$cluster_dir cargo run --release -p snl-server --example cluster_run -- \
  --faults --addr 127.0.0.1:8800 --rooms 30 --pauses 3 --kills 20 --nodes 3 \
  --cluster "SNL_CLUSTER_DIR=$cluster_dir deploy/cluster.sh" --db postgres://snl@127.0.0.1:8799/snl

