#!/usr/bin/env bash
# Builds the browser's engine (crates/wasm) into crates/server/web/assets/engine.wasm from source,
# on a fresh machine as on a developer's. rustup's downloads are out of reach here, so the wasm32
# standard library comes from Debian: a trixie root made with debootstrap under the build
# directory (a cache of this machine's builds, never carried to another machine) holds Debian's
# rustc 1.85, cargo, libstd-rust-dev-wasm32 and lld-19 (wasm-ld-19). The crates are fetched on
# the host (cargo vendor, from the lock file) and built offline inside the root, which sees the
# sources, the crates and the build directory at fixed paths; npm's binaryen (wasm-opt, a
# devDependency of web-tests) then shrinks the module.
#
#   scripts/wasm.sh           build, and write the module into crates/server/web/assets/
#   scripts/wasm.sh --check   build, and fail unless the committed module is byte for byte it
#
# The build is reproducible: the same sources, lock file and Debian packages (pinned below) give
# the same bytes on any machine, so CI (scripts/test.sh) proves the committed module is what the
# sources build. Runs as root (debootstrap, chroot, mounts) or through sudo.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *) echo "scripts/wasm.sh: unknown option '${1:0:40}' (use --check or nothing)" >&2; exit 2 ;;
esac

# Debian's packages, pinned: another version builds other bytes. When trixie moves on (a point
# release replaces one), the install below fails and names them: update these pins, rebuild and
# commit the module.
suite=trixie
mirror=${SNL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
rust_version=1.85.1+dfsg1-1+deb13u1
lld_version=1:19.1.7-3+b1
packages="rustc=$rust_version cargo=$rust_version libstd-rust-dev-wasm32=$rust_version lld-19=$lld_version"

module=crates/server/web/assets/engine.wasm
build=${CARGO_TARGET_DIR:-$repo/target}
build=$(mkdir -p "$build" && cd "$build" && pwd)
root=$build/wasm-root
vendor=$build/wasm-vendor
out=$build/wasm-out

sudo_=""
[ "$(id -u)" = 0 ] || sudo_=sudo
started=$(date +%s)
step() { echo "wasm: $* ($(($(date +%s) - started)) s)"; }

# The root is unmounted on every exit, whatever happened (never removed while anything is
# mounted in it).
mounts=()
unmount_all() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do $sudo_ umount "${mounts[$i]}" 2>/dev/null || $sudo_ umount -l "${mounts[$i]}" || true; done
  mounts=()
}
trap unmount_all EXIT
mounted_in_root() { grep -q " $root/" /proc/mounts; }
bind() { # bind SOURCE TARGET_IN_ROOT [ro]
  $sudo_ mkdir -p "$root$2"
  $sudo_ mount --bind "$1" "$root$2"
  mounts+=("$root$2")
  if [ "${3:-}" = ro ]; then $sudo_ mount -o remount,bind,ro "$root$2"; fi
}

# 1. The root: made once per build directory, reused while its packages are the pinned ones.
complete=$root/.snl-wasm-root
if [ -f "$complete" ] && [ "$(cat "$complete")" = "$packages" ]; then
  step "reusing the $suite root in $root"
else
  if mounted_in_root; then
    echo "scripts/wasm.sh: something is still mounted under $root; unmount it first" >&2
    exit 1
  fi
  command -v debootstrap >/dev/null || {
    $sudo_ apt-get update -qq && $sudo_ apt-get install -y -qq debootstrap >/dev/null
  }
  $sudo_ rm -rf "$root"
  step "making a $suite root in $root (debootstrap)"
  $sudo_ debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$build/wasm-debootstrap.log" 2>&1 || {
    tail -20 "$build/wasm-debootstrap.log" >&2
    echo "scripts/wasm.sh: debootstrap of $suite from $mirror failed (log: $build/wasm-debootstrap.log)" >&2
    exit 1
  }
  step "installing $packages"
  # shellcheck disable=SC2086 # the package list is words
  $sudo_ chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $packages" \
    >"$build/wasm-apt.log" 2>&1 || {
    tail -20 "$build/wasm-apt.log" >&2
    echo "scripts/wasm.sh: Debian $suite does not have $packages any more; update the pins in scripts/wasm.sh, run it and commit $module" >&2
    exit 1
  }
  echo "$packages" | $sudo_ tee "$complete" >/dev/null
fi

# 2. The crates, from the lock file, on the host (the root has no network at build time).
lock_sum=$(sha256sum Cargo.lock | cut -d' ' -f1)
if [ -f "$vendor/.snl-lock" ] && [ "$(cat "$vendor/.snl-lock")" = "$lock_sum" ]; then
  step "reusing the crates in $vendor"
else
  step "fetching the crates (cargo vendor)"
  rm -rf "$vendor"
  cargo vendor --locked --versioned-dirs --quiet "$vendor" >/dev/null
  echo "$lock_sum" >"$vendor/.snl-lock"
fi

# 3. The build, offline, inside the root: the sources at /src (read only), the crates at
# /vendor, the build directory at /build. Paths are fixed, and remapped in the module.
mkdir -p "$build/wasm-target"
bind "$repo" /src ro
bind "$vendor" /vendor ro
bind "$build/wasm-target" /build
step "building snl-wasm with Debian's rustc"
$sudo_ chroot "$root" env -i PATH=/usr/bin:/bin HOME=/build CARGO_HOME=/build/cargo-home \
  CARGO_TARGET_DIR=/build/target SOURCE_DATE_EPOCH=0 \
  RUSTFLAGS="-C linker=wasm-ld-19 --remap-path-prefix=/src=/snl --remap-path-prefix=/vendor=/crates --remap-path-prefix=/build/cargo-home=/cargo" \
  sh -c 'cd /src && cargo build --quiet --offline --locked --profile wasm -p snl-wasm --target wasm32-unknown-unknown \
    --config "source.crates-io.replace-with=\"vendored\"" --config "source.vendored.directory=\"/vendor\""'
unmount_all

# 4. Shrunk by wasm-opt (npm's binaryen, from web-tests' lock file).
if [ ! -x web-tests/node_modules/.bin/wasm-opt ] || [ ! web-tests/node_modules/.package-lock.json -nt web-tests/package-lock.json ]; then
  step "installing web-tests' npm tools (npm ci)"
  (cd web-tests && npm ci --no-audit --no-fund --loglevel=error)
fi
step "shrinking with wasm-opt"
mkdir -p "$out"
# --converge repeats -Oz while it still shrinks the module. --low-memory-unused lets wasm-opt fold
# constant offsets into loads and stores on the promise that nothing lives below address 1024:
# true of Rust's wasm32 layout, the stack first (growing down from 1 MiB towards 0, so only a
# stack within 1 KiB of overflowing would reach there) and the data after it.
web-tests/node_modules/.bin/wasm-opt -Oz --converge --low-memory-unused --strip-debug --strip-producers \
  "$build/wasm-target/target/wasm32-unknown-unknown/wasm/snl_wasm.wasm" -o "$out/engine.wasm"

raw=$(stat -c %s "$out/engine.wasm")
gzipped=$(gzip -9n <"$out/engine.wasm" | wc -c)
step "module: $raw bytes raw, $gzipped bytes gzipped (gzip -9)"
# The budget (issue 27): 150 KB gzipped. Said, not enforced: the README states the size.
if [ "$gzipped" -gt $((150 * 1024)) ]; then
  echo "wasm: note: $gzipped bytes gzipped is over the budget of 150 KB ($((150 * 1024)) bytes)" >&2
fi

if $check; then
  if ! cmp -s "$out/engine.wasm" "$module"; then
    echo "scripts/wasm.sh: $module is not what the sources build ($(stat -c %s "$module" 2>/dev/null || echo no) bytes committed, $raw built): run scripts/wasm.sh and commit it" >&2
    exit 1
  fi
  step "$module is byte for byte what the sources build"
else
  cp "$out/engine.wasm" "$module"
  step "wrote $module"
fi
