#!/usr/bin/env bash
# The test matrix: the suite inside Debian roots with newer QGIS (root only; CI runs it after `make test`).
#   trixie: QGIS 3.40 LTR, Python 3.13        sid: QGIS 3.44, Python 3.14
# Usage: scripts/test_matrix.sh [SUITE...]      (default: trixie sid)
#   MATRIX_TIERS="unit qgis traps integration e2e security"  tiers to run in each root (all but the model tier)
#   MATRIX_CACHE=/var/cache/stacgis-agent-matrix  where roots are kept and reused between runs
#   MATRIX_TIER_TIMEOUT=1500  seconds a tier may take before it is stopped (and fails)
#   MATRIX_COMMAND="python bench/bench_gdal_reads.py"  run this in each root's checkout instead of the tiers
# Each root is built once by matrix_root.sh; the checkout is copied in fresh every run and gets
# venvs of its own inside the root (reused while the requirements do not change).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${MATRIX_CACHE:-/var/cache/stacgis-agent-matrix}
tiers=${MATRIX_TIERS:-unit qgis traps integration e2e security}
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(trixie sid)
[ "$(id -u)" -eq 0 ] || { echo "test_matrix: needs root (debootstrap, chroot, mounts)" >&2; exit 1; }

current_root=""
# Every process whose root is the chroot (a tier runs in a process group of its own under `timeout`, so a signal
# to this script alone would leave it running, writing into the next run's logs and holding the mounts).
stop_root_processes() {
  local root=$1 pid pids=() round
  for round in TERM TERM KILL; do
    pids=()
    for pid in /proc/[0-9]*; do
      [ "$(readlink "$pid/root" 2>/dev/null)" = "$root" ] && pids+=("${pid#/proc/}")
    done
    [ ${#pids[@]} -eq 0 ] && return 0
    kill -s "$round" "${pids[@]}" 2>/dev/null
    sleep 2
  done
}
cleanup() {  # returns 0: the exit status stays the suites'
  if [ -n "$current_root" ]; then
    stop_root_processes "$current_root"
    "$here/matrix_mounts.sh" umount "$current_root"
    current_root=""
  fi
}
trap cleanup EXIT
trap 'cleanup; exit 143' INT TERM

# The venv is rebuilt when what it is made from changes: the requirements and the hashed lock files make installs.
req_hash=$(cat "$repo"/requirements*.txt "$repo"/requirements*.lock | sha1sum | cut -c1-12)
status=0
summary=()
for suite in "${suites[@]}"; do
  started=$(date +%s)
  MATRIX_CACHE=$cache "$here/matrix_root.sh" "$suite"
  root="$cache/$suite"
  current_root=$root
  "$here/matrix_mounts.sh" mount "$root"
  # The last runs' temporary files (QGIS profiles, worlds, pip's builds: 0.5 GB after a few runs) are not kept.
  find "$root/tmp" -xdev -mindepth 1 -delete 2>/dev/null || true
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/host-ca-certificates.crt"

  # A fresh copy of the checkout: tracked files plus untracked ones git does not ignore.
  work="$root/work/stacgis"
  rm -rf --one-file-system "$work"
  mkdir -p "$work"
  (cd "$repo" && git ls-files -co --exclude-standard -z | grep -zvE '^(\.venv|\.build)(/|$)' | tar --null --ignore-failed-read -cf - -T - 2>/dev/null) \
    | tar -xf - -C "$work"

  built=$(date +%s)
  set +e
  nice -n 10 chroot "$root" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
    CI="${CI:-}" PIP_CERT=/etc/ssl/certs/host-ca-certificates.crt PIP_DEFAULT_TIMEOUT=180 \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca-certificates.crt npm_config_cafile=/etc/ssl/certs/host-ca-certificates.crt \
    PIP_DISABLE_PIP_VERSION_CHECK=1 REQ_HASH="$req_hash" TIERS="$tiers" SUITE="$suite" \
    TIER_TIMEOUT="${MATRIX_TIER_TIMEOUT:-1500}" MATRIX_COMMAND="${MATRIX_COMMAND:-}" \
    bash -c "cd /work/stacgis && scripts/matrix_inside.sh" &
  wait $!  # in the background so that a signal to this script runs its trap now, not when the suite ends
  rc=$?
  set -e
  finished=$(date +%s)
  "$here/matrix_mounts.sh" umount "$root"
  current_root=""
  summary+=("$suite: exit $rc; root+copy $((built - started)) s, suite $((finished - built)) s")
  [ $rc -eq 0 ] || status=1
done
echo "== matrix summary"
printf '  %s\n' "${summary[@]}"
exit $status
