# Sourced by tools/test and .ci/run: find_python VERSION prints the path of a CPython VERSION
# (e.g. 3.12) interpreter, or returns 1 when none is installed. Looks at pyenv's versions
# ($PYENV_ROOT/versions/VERSION*/bin/python, the newest patch release first), then pythonVERSION
# on PATH; each candidate must run and report that version (a pyenv shim for a version that is
# not active fails, and is skipped). Free-threaded pyenv builds (3.13.0t) are not taken.
find_python() {
  local want="$1" cand
  local root="${PYENV_ROOT:-$HOME/.pyenv}"
  local -a cands=()
  if [ -d "$root/versions" ]; then
    while IFS= read -r cand; do
      cands+=("$cand")
    done < <(compgen -G "$root/versions/$want*/bin/python" | sort -rV)
  fi
  if command -v "python$want" >/dev/null 2>&1; then
    cands+=("$(command -v "python$want")")
  fi
  for cand in "${cands[@]}"; do
    case "$cand" in */versions/*t/bin/python) continue ;; esac  # free-threaded builds (3.13t)
    if [ -x "$cand" ] && [ "$("$cand" -c 'import sys; print("%d.%d" % sys.version_info[:2])' \
        2>/dev/null)" = "$want" ]; then
      echo "$cand"
      return 0
    fi
  done
  return 1
}
