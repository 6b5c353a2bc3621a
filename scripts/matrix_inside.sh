#!/usr/bin/env bash
# Runs inside a matrix root (see test_matrix.sh), in the copied checkout: venvs, then the tiers.
# Full logs: /work/logs/TIER.log inside the root. Env: TIERS ("unit qgis e2e"), SUITE, TIER_TIMEOUT
# (seconds per tier, default 1500), REQ_HASH (the venv is rebuilt when the requirements change).
set -uo pipefail
# A git repository of its own: some tests (the package zip) list files the way git does.
git init -q . && git add -A || exit 1
# The venvs live in the root (kept between runs), reached through the checkout's usual paths, and
# are made by the Makefile itself: `make setup` is what a user on this release runs.
venv=/opt/stacgis-venv
stac_venv=/opt/stacgis-stac-venv
if [ "$(cat $venv/.req-hash 2>/dev/null)" != "$REQ_HASH" ]; then
  rm -rf $venv && mkdir -p $venv
fi
mkdir -p $stac_venv .build
ln -sfn $venv .venv
ln -sfn $stac_venv .build/stac-venv
targets=(setup)
if [[ " $TIERS " == *" e2e "* || " $TIERS " == *" integration "* ]]; then
  targets+=(.build/stac-venv/bin/uvicorn)
fi
if [[ " $TIERS " == *" qgis "* ]]; then  # the catalog tests' S3 store (moto) and the Basic-auth STAC API
  mkdir -p /opt/stacgis-moto-venv && ln -sfn /opt/stacgis-moto-venv .build/moto-venv
  targets+=(.build/moto-venv/bin/moto_server .build/stac-venv/bin/uvicorn)
fi
echo "matrix[$SUITE]: make ${targets[*]}; test packages: $(scripts/test_packages.sh)"
make --no-print-directory "${targets[@]}" || exit 1
pkgs=$(scripts/test_packages.sh) && scripts/ensure_apt.sh $pkgs || exit 1
echo "$REQ_HASH" >$venv/.req-hash
echo "matrix[$SUITE]: QGIS $(/usr/bin/python3 -c "from qgis.core import Qgis; print(Qgis.QGIS_VERSION)" 2>/dev/null); $(/usr/bin/python3 --version)"
status=0
mkdir -p /work/logs
for tier in $TIERS; do
  echo "== matrix[$SUITE] tier $tier"
  plugins=()
  [ "$tier" = unit ] && plugins=(-p no:pytest_qgis)
  start=$(date +%s)
  QT_QPA_PLATFORM=offscreen timeout "${TIER_TIMEOUT:-1500}" $venv/bin/python -m pytest "${plugins[@]}" "tests/$tier" -q \
    -p no:cacheprovider --timeout 300 -W "default::DeprecationWarning" >/work/logs/$tier.log 2>&1
  rc=$?
  tail -25 /work/logs/$tier.log
  echo "== matrix[$SUITE] tier $tier: exit $rc in $(($(date +%s) - start)) s"
  [ "$rc" -eq 0 ] || status=1
done
exit $status
