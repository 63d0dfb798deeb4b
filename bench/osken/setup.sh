#!/usr/bin/env bash
# bench/osken/setup.sh: makes (once) a Python virtualenv with os-ken, the reference controller that
# bench/measure.sh runs beside Heliograph, and prints the path of its osken-manager.
#
# Settings: OSKEN_VENV (default /tmp/heliograph-osken-venv), PYTHON (default Debian's
# /usr/bin/python3 where it exists: it is built with PGO and LTO, so os-ken runs faster on it than on
# a Python built without them, and os-ken should be measured at its best). The virtualenv is reused
# while it was made from the same Python; os-ken comes from PyPI ("os-ken<4", as issue 4 says).
set -euo pipefail

OSKEN_VENV=${OSKEN_VENV:-/tmp/heliograph-osken-venv}
if [[ -z ${PYTHON:-} ]]; then
    if [[ -x /usr/bin/python3 ]]; then PYTHON=/usr/bin/python3; else PYTHON=$(command -v python3 || true); fi
fi
[[ -n $PYTHON && -x $PYTHON ]] || { echo "osken setup: no python3 found (set PYTHON)" >&2; exit 1; }

made_from="$OSKEN_VENV/.made-from"
if [[ ! -x $OSKEN_VENV/bin/osken-manager || "$(cat "$made_from" 2>/dev/null)" != "$PYTHON" ]]; then
    echo "osken setup: making $OSKEN_VENV with $PYTHON and installing os-ken<4" >&2
    rm -rf "$OSKEN_VENV"
    "$PYTHON" -m venv "$OSKEN_VENV" \
        || { echo "osken setup: $PYTHON -m venv failed (Debian needs the python3-venv package)" >&2; exit 1; }
    "$OSKEN_VENV/bin/pip" install -q --disable-pip-version-check "os-ken<4" >&2 \
        || { echo "osken setup: pip install \"os-ken<4\" failed" >&2; exit 1; }
    echo "$PYTHON" >"$made_from"
fi
echo "$OSKEN_VENV/bin/osken-manager"
