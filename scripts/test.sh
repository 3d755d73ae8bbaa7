#!/usr/bin/env bash
# Every test of snl, on a fresh machine as on a developer's: installs what the tests need beyond
# cargo (tmux, for the full-screen game's end-to-end tests), then runs the workspace's tests.
set -euo pipefail
cd "$(dirname "$0")/.."

need() {
  command -v "$1" >/dev/null && return
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq "$2" >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq "$2" >/dev/null; fi
}
need tmux tmux

# Snapshot tests fail on a changed screen instead of writing a new one.
export INSTA_UPDATE=no
cargo test --workspace --release "$@"
