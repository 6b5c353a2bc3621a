#!/usr/bin/env bash
# Runs inside a matrix root (see test_matrix.sh), in the copied checkout: venvs, then the tiers.
# Full logs: /work/logs/TIER.log inside the root. Env: TIERS ("unit qgis e2e"), REQ_HASH (venvs are rebuilt when the requirements change), SUITE.
set -uo pipefail
# A git repository of its own: some tests (the package zip) list files the way git does.
git init -q . && git add -A || exit 1
venv=/opt/stacgis-venv
stac_venv=/opt/stacgis-stac-venv
if [ "$(cat $venv/.req-hash 2>/dev/null)" != "$REQ_HASH" ]; then
  echo "matrix[$SUITE]: building the test venv"
  rm -rf $venv
  /usr/bin/python3 -m venv --system-site-packages $venv || exit 1
  $venv/bin/pip install -q -r requirements-dev.txt || exit 1
  echo "$REQ_HASH" >$venv/.req-hash
fi
if [[ " $TIERS " == *" e2e "* || " $TIERS " == *" integration "* ]] && [ ! -x $stac_venv/bin/uvicorn ]; then
  echo "matrix[$SUITE]: building the STAC API venv"
  /usr/bin/python3 -m venv $stac_venv && $stac_venv/bin/pip install -q "stac-fastapi-pgstac==7.2.0" \
    "pypgstac[psycopg]==0.10.0" uvicorn || { rm -rf $stac_venv; exit 1; }
fi
ln -sfn $venv .venv
mkdir -p .build && ln -sfn $stac_venv .build/stac-venv
echo "matrix[$SUITE]: QGIS $(/usr/bin/python3 -c "from qgis.core import Qgis; print(Qgis.QGIS_VERSION)" 2>/dev/null); $(/usr/bin/python3 --version)"
status=0
mkdir -p /work/logs
for tier in $TIERS; do
  echo "== matrix[$SUITE] tier $tier"
  plugins=()
  [ "$tier" = unit ] && plugins=(-p no:pytest_qgis)
  start=$(date +%s)
  QT_QPA_PLATFORM=offscreen timeout 1500 $venv/bin/python -m pytest "${plugins[@]}" "tests/$tier" -q \
    -p no:cacheprovider --timeout 300 -W "default::DeprecationWarning" >/work/logs/$tier.log 2>&1
  rc=$?
  tail -25 /work/logs/$tier.log
  echo "== matrix[$SUITE] tier $tier: exit $rc in $(($(date +%s) - start)) s"
  [ "$rc" -eq 0 ] || status=1
done
exit $status
