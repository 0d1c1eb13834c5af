# Sourced by tools/test and .ci/run: find_python VERSION prints the path of a CPython VERSION
# interpreter, or returns 1 when none is installed. VERSION is e.g. 3.12 (a build with the GIL)
# or 3.13t (a free-threaded build, PEP 703). Looks at pyenv's versions
# ($PYENV_ROOT/versions/VERSION*/bin/python, the newest patch release first), then pythonVERSION
# on PATH; each candidate must run and report that version and that kind of build (a pyenv shim
# for a version that is not active fails, and is skipped; a free-threaded build never stands in
# for 3.13, nor a GIL build for 3.13t).
find_python() {
  local want="$1" base="${1%t}" cand got
  local wanted_kind=gil
  [ "$base" != "$want" ] && wanted_kind=free-threaded
  local root="${PYENV_ROOT:-$HOME/.pyenv}"
  local -a cands=()
  if [ -d "$root/versions" ]; then
    while IFS= read -r cand; do
      cands+=("$cand")
    done < <(compgen -G "$root/versions/$base*/bin/python" | sort -rV)
  fi
  if command -v "python$want" >/dev/null 2>&1; then
    cands+=("$(command -v "python$want")")
  fi
  for cand in "${cands[@]}"; do
    [ -x "$cand" ] || continue
    # "3.13 gil" or "3.13 free-threaded": Py_GIL_DISABLED is 1 in a free-threaded build's config
    got="$("$cand" -c 'import sys, sysconfig
kind = "free-threaded" if sysconfig.get_config_var("Py_GIL_DISABLED") else "gil"
print("%d.%d %s" % (sys.version_info[0], sys.version_info[1], kind))' 2>/dev/null)" || continue
    if [ "$got" = "$base $wanted_kind" ]; then
      echo "$cand"
      return 0
    fi
  done
  return 1
}
