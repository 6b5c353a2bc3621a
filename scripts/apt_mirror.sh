#!/usr/bin/env bash
# Prints the Debian archive this system's own apt sources use (for debootstrap of the matrix roots),
# so that no script names a mirror's host. DEBIAN_MIRROR overrides it.
set -euo pipefail
[ -n "${DEBIAN_MIRROR:-}" ] && { echo "$DEBIAN_MIRROR"; exit 0; }
# deb822 sources first (Debian 12+), then one-line sources; the first archive that is not a
# security or updates archive and carries a main component.
uri=$(
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'BEGIN{RS=""; FS="\n"} {
           u=""; s=""; c=""; t="";
           for (i=1;i<=NF;i++) {
             if ($i ~ /^URIs:/) u=$i; if ($i ~ /^Suites:/) s=$i;
             if ($i ~ /^Components:/) c=$i; if ($i ~ /^Types:/) t=$i }
           sub(/^URIs:[ \t]*/, "", u); split(u, us, /[ \t]+/)
           if (t ~ /deb([ \t]|$)/ && c ~ /main/ && us[1] !~ /security/ && s !~ /security/) print us[1] }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1=="deb" { i=2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                     if ($(i) !~ /security/ && $(i+1) !~ /security/ && $0 ~ / main/) print $(i) }' "$f"
  done | cat
)
uri=$(printf '%s\n' "$uri" | grep -E '^(https?|file)://' | grep -v -i -E 'security|nodesource|google|docker' | head -1 || true)
[ -n "$uri" ] || { echo "matrix: no Debian archive found in /etc/apt/sources* (set DEBIAN_MIRROR)" >&2; exit 1; }
echo "${uri%/}"
