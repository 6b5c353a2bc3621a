#!/usr/bin/env bash
# Builds (once) and caches a Debian root with QGIS for the test matrix.
# Usage: scripts/matrix_root.sh SUITE   (trixie: QGIS 3.40 LTR, sid: QGIS 3.44)
# The root lives in $MATRIX_CACHE/SUITE (default /var/cache/stacgis-agent-matrix) and is
# reused while its .ready stamp exists; delete the folder to rebuild it. Root only.
set -euo pipefail
suite=${1:?usage: matrix_root.sh SUITE}
cache=${MATRIX_CACHE:-/var/cache/stacgis-agent-matrix}
root="$cache/$suite"
mirror=$("$(dirname "$0")/apt_mirror.sh")
here=$(cd "$(dirname "$0")" && pwd)
# What the suite needs inside: QGIS and its Python, a display, venv/pip, and the
# PostgreSQL + PostGIS + pgvector of that release (the test cluster uses the system one).
packages="qgis python3-qgis qgis-providers xvfb xauth python3-venv python3-pip make git
  ca-certificates procps redis-server postgresql postgresql-common"

[ -f "$root/.ready" ] && { echo "matrix: reusing $root"; exit 0; }
[ "$(id -u)" -eq 0 ] || { echo "matrix: building a root needs root (sudo)" >&2; exit 1; }
command -v debootstrap >/dev/null || "$here/ensure_apt.sh" debootstrap

# Never delete through a mount left by an interrupted build (/dev is bind-mounted in there).
"$here/matrix_mounts.sh" umount "$root.partial"
rm -rf --one-file-system "$root.partial"
mkdir -p "$cache"
trap '"$here/matrix_mounts.sh" umount "$root.partial"' EXIT
echo "matrix: debootstrap $suite into $root (a few minutes)"
nice -n 10 debootstrap --variant=minbase "$suite" "$root.partial" "$mirror" >"$cache/$suite.debootstrap.log" 2>&1 \
  || { tail -20 "$cache/$suite.debootstrap.log" >&2; exit 1; }

# The host's CA bundle (pip over HTTPS) and apt settings that tolerate a pinned snapshot.
mkdir -p "$root.partial/etc/ssl/certs"
cp /etc/ssl/certs/ca-certificates.crt "$root.partial/etc/ssl/certs/host-ca-certificates.crt"
echo 'Acquire::Check-Valid-Until "false";' >"$root.partial/etc/apt/apt.conf.d/99matrix"
# Never start services while installing into the root.
printf '#!/bin/sh\nexit 101\n' >"$root.partial/usr/sbin/policy-rc.d"
chmod +x "$root.partial/usr/sbin/policy-rc.d"

"$here/matrix_mounts.sh" mount "$root.partial"
in_root() { nice -n 10 chroot "$root.partial" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }
in_root apt-get update -qq
# shellcheck disable=SC2086
in_root apt-get install -y -qq --no-install-recommends $packages >"$cache/$suite.apt.log" 2>&1 \
  || { tail -20 "$cache/$suite.apt.log" >&2; exit 1; }
# PostGIS and pgvector for the release's default PostgreSQL major version.
major=$(in_root sh -c "ls /usr/lib/postgresql | sort -n | tail -1")
in_root apt-get install -y -qq --no-install-recommends "postgresql-$major-postgis-3" "postgresql-$major-pgvector" \
  >>"$cache/$suite.apt.log" 2>&1 || { tail -20 "$cache/$suite.apt.log" >&2; exit 1; }
in_root apt-get clean
"$here/matrix_mounts.sh" umount "$root.partial"
trap - EXIT
touch "$root.partial/.ready"
"$here/matrix_mounts.sh" umount "$root"
rm -rf --one-file-system "$root"
mv "$root.partial" "$root"
echo "matrix: $suite root ready in $root"
