# Sourced by tools/test and tools/demo: make .venv and install rxpy2 with the extras asked for.
# Usage: . tools/_setup.sh EXTRAS   (e.g. "test" or "test,spark")
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXTRAS="${1:-test}"
PY="${PYTHON:-python3}"
VENV="$ROOT/.venv"
if [ ! -x "$VENV/bin/python" ]; then
  echo "[setup] creating $VENV"
  "$PY" -m venv "$VENV"
fi
STAMP="$VENV/.rxpy2-installed-$(echo "$EXTRAS" | tr ',' '-')"
if [ ! -f "$STAMP" ] || [ "$ROOT/pyproject.toml" -nt "$STAMP" ]; then
  echo "[setup] installing rxpy2[$EXTRAS] (editable)"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[$EXTRAS]"
  touch "$STAMP"
fi
export PATH="$VENV/bin:$PATH"
