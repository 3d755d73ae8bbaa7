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

# Snapshot tests fail on a changed screen instead of writing a new one.
export INSTA_UPDATE=no
cargo test --workspace --release "$@"

# The browser game (crates/server/web): types checked, the animation planner's unit tests, then
# real Chromium against the release binary that cargo's tests just built.
cargo build --release --quiet -p snl
cd web-tests
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
npx --no-install tsc -p tsconfig.json
node --test unit/
node --test --test-concurrency=1 e2e/
