#!/usr/bin/env bash
# Mounts (or unmounts) /dev, /dev/pts, /proc, /sys and /dev/shm inside a matrix root.
# Usage: scripts/matrix_mounts.sh mount|umount ROOT   (unmount never fails: it is run from traps)
set -uo pipefail
action=${1:?mount|umount}
root=${2:?root}
points=(dev dev/pts dev/shm proc sys)
if [ "$action" = mount ]; then
  set -e
  for p in "${points[@]}"; do
    mkdir -p "$root/$p"
    mountpoint -q "$root/$p" && continue
    case $p in
      proc) mount -t proc proc "$root/proc" ;;
      sys) mount -t sysfs sysfs "$root/sys" ;;
      dev/shm) mount -t tmpfs -o mode=1777 shm "$root/dev/shm" ;;
      *) mount --bind "/$p" "$root/$p" ;;
    esac
  done
else
  # Everything mounted under the root, deepest first (the checkout bind mount included).
  for ((i = 0; i < 3; i++)); do
    mapfile -t mounted < <(awk -v r="$(realpath -m "$root")" '$2 == r || index($2, r "/") == 1 {print $2}' /proc/mounts | sort -r)
    [ ${#mounted[@]} -eq 0 ] && exit 0
    for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
  done
  exit 0
fi
