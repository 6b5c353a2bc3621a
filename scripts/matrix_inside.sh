#!/usr/bin/env bash
# Runs inside a matrix root (see test_matrix.sh), in the copied checkout: venvs, then the tiers.
# Full logs: /work/logs/TIER.log inside the root. Env: TIERS ("unit qgis traps integration e2e security"), SUITE, TIER_TIMEOUT
# (seconds per tier, default 1500), REQ_HASH (the venv is rebuilt when the requirements change), MATRIX_COMMAND
# (run this instead of the tiers, e.g. a bench).
set -uo pipefail
# A git repository of its own: some tests (the package zip) list files the way git does.
git init -q . && git add -A || exit 1
# The venvs live in the root (kept between runs), reached through the checkout's usual paths (.venv,
# .build), and are made by the Makefile itself: `make setup-servers` is what a user on this release runs.
venv=/opt/stacgis-venv
if [ "$(cat $venv/.req-hash 2>/dev/null)" != "$REQ_HASH" ]; then
  rm -rf $venv  # made as the Makefile makes it (venv cannot create it through the .venv link)
  /usr/bin/python3 -m venv --system-site-packages $venv || exit 1
fi
mkdir -p /opt/stacgis-build
ln -sfn $venv .venv
rm -rf .build && ln -sfn /opt/stacgis-build .build
echo "matrix[$SUITE]: make setup-servers; test packages: $(scripts/test_packages.sh)"
make --no-print-directory setup-servers || exit 1
echo "$REQ_HASH" >$venv/.req-hash
echo "matrix[$SUITE]: QGIS $(/usr/bin/python3 -c "from qgis.core import Qgis; print(Qgis.QGIS_VERSION)" 2>/dev/null); $(/usr/bin/python3 --version)"
if [ -n "${MATRIX_COMMAND:-}" ]; then  # one command in the root's checkout instead of the tiers (a bench)
  PATH="$venv/bin:$PATH" QT_QPA_PLATFORM=offscreen bash -c "$MATRIX_COMMAND"
  exit $?
fi
status=0
mkdir -p /work/logs
for tier in $TIERS; do
  echo "== matrix[$SUITE] tier $tier"
  plugins=()
  case $tier in unit|security) plugins=(-p no:pytest_qgis);; esac  # as make test-unit and test-security run them
  start=$(date +%s)
  mkdir -p "$(dirname "/work/logs/$tier.log")"  # a tier may be one file: tests/qgis/test_x.py
  QT_QPA_PLATFORM=offscreen timeout "${TIER_TIMEOUT:-1500}" $venv/bin/python -m pytest "${plugins[@]}" "tests/$tier" -q \
    -p no:cacheprovider --timeout 300 -W "default::DeprecationWarning" >/work/logs/$tier.log 2>&1
  rc=$?
  tail -25 /work/logs/$tier.log
  # Every failing test's id, also those the tail leaves out (a tier stopped by its timeout prints none: see its log)
  [ "$rc" -eq 0 ] || grep -aE '^(FAILED|ERROR) ' /work/logs/$tier.log | head -40
  echo "== matrix[$SUITE] tier $tier: exit $rc in $(($(date +%s) - start)) s"
  [ "$rc" -eq 0 ] || status=1
done
exit $status
