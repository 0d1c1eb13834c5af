# Sourced by tools/test, tools/demo, tools/bench, tools/conformance, .ci/run: make .venv and
# install rxpy2 (editable) with the extras asked for; defines ensure_java for the Spark commands.
# Usage: . tools/_setup.sh EXTRAS   (e.g. "test" or "test,spark")
#        ensure_java                (when the command starts Spark)
# PYTHON (default python3) is the interpreter a new venv is made with, RXPY2_VENV (default
# .venv) the venv: `tools/test --python 3.12` sets both (.venv-3.12).
#
# The editable install is path-based (setuptools' editable_mode=compat: a .pth file that puts
# the checkout on sys.path), not setuptools' default import hook: type checkers (mypy, pyright)
# do not run import hooks, so with the default a user's `mypy --strict` finds no rxpy2 at all.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXTRAS="${1:-test}"
PY="${PYTHON:-python3}"
VENV="${RXPY2_VENV:-$ROOT/.venv}"

# A JRE for Spark when `java` is missing: apt on Debian/Ubuntu (override the package with
# RXPY2_JRE_PACKAGE, e.g. openjdk-21-jre-headless). Prints every command it runs.
ensure_java() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    return 0
  fi
  if command -v java >/dev/null 2>&1; then
    return 0
  fi
  local pkg="${RXPY2_JRE_PACKAGE:-openjdk-17-jre-headless}"
  echo "[setup] java not found on PATH: Spark needs a JRE, installing $pkg with apt"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "[setup] error: java is missing and apt-get is not available here;" \
         "install a JRE 17 or 21 (e.g. $pkg) and put java on PATH or set JAVA_HOME" >&2
    return 1
  fi
  local -a sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "[setup] error: java is missing, installing $pkg needs root and sudo is not" \
           "available; install it as root (apt-get install $pkg) and rerun" >&2
      return 1
    fi
  fi
  local -a apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
  # slim images lack the man directory the JRE's postinst links into
  echo "[setup] + ${sudo[*]:+${sudo[*]} }mkdir -p /usr/share/man/man1"
  "${sudo[@]}" mkdir -p /usr/share/man/man1
  echo "[setup] + ${apt[*]} update -q"
  "${apt[@]}" update -q
  echo "[setup] + ${apt[*]} install -y -q --no-install-recommends $pkg"
  "${apt[@]}" install -y -q --no-install-recommends "$pkg"
  hash -r
  if ! command -v java >/dev/null 2>&1; then
    echo "[setup] error: installed $pkg but java is still not on PATH" >&2
    return 1
  fi
  echo "[setup] java is $(command -v java)"
}

if [ ! -x "$VENV/bin/python" ]; then
  echo "[setup] creating $VENV"
  "$PY" -m venv "$VENV"
fi
# one stamp per set of extras (order-insensitive); a newer pyproject.toml invalidates it, and so
# does an editable install made with setuptools' import hook (a venv from before the path-based
# install: its __editable___rxpy2_*_finder.py module is there)
STAMP="$VENV/.rxpy2-installed-$(echo "$EXTRAS" | tr ',' '\n' | sort -u | paste -sd- -)"
_rxpy2_hook_install() {
  compgen -G "$VENV/lib/python*/site-packages/__editable___rxpy2_*_finder.py" >/dev/null
}
if [ ! -f "$STAMP" ] || [ "$ROOT/pyproject.toml" -nt "$STAMP" ] || _rxpy2_hook_install; then
  echo "[setup] installing rxpy2[$EXTRAS] (editable) in ${VENV#"$ROOT"/}"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
  # the build backend's warnings would bury the command's own output: log, show on failure
  LOG="$VENV/.rxpy2-install.log"
  if ! "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
      --config-settings editable_mode=compat -e "$ROOT[$EXTRAS]" >"$LOG" 2>&1; then
    cat "$LOG" >&2
    echo "[setup] error: installing rxpy2[$EXTRAS] failed (log: $LOG)" >&2
    exit 1
  fi
  if _rxpy2_hook_install; then
    echo "[setup] error: rxpy2 was installed with setuptools' import hook, not a .pth file" \
         "(did setuptools drop editable_mode=compat? log: $LOG)" >&2
    exit 1
  fi
  touch "$STAMP"
fi
export PATH="$VENV/bin:$PATH"
