#!/usr/bin/env bash
# Install what the project needs into .venv (and system packages when allowed).
#   tools/install.sh course   the course: JupyterLab, nbgrader, graphviz, the package itself
#   tools/install.sh test     the course plus the test tools, PyTorch (to compare against) and
#                             JupyterHub with its proxy (the class-on-a-hub test)
# Safe to run again: each part is skipped when it is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-course}
venv=.venv
python=${PYTHON:-python3}

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# Run a command as root: directly, through sudo, or not at all (returns 1).
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"
  else return 1
  fi
}

# Debian/Ubuntu packages, when apt and root are available; returns 1 otherwise.
apt_install() {
  command -v apt-get >/dev/null || return 1
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "apt-get install ${missing[*]}"
  as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# System packages the test suite uses (the sandbox, the browser, fonts, the database).
# Tests that need one skip with a reason when it cannot be installed here.
test_system_packages=(graphviz bubblewrap chromium chromium-driver fonts-wqy-microhei postgresql)
# JupyterHub's proxy, configurable-http-proxy, comes from the npm registry into the venv, as a hub admin installs it.
proxy_version=5
proxy="$venv/node/node_modules/.bin/configurable-http-proxy"
class_venv="$venv/class"

if [ ! -x "$venv/bin/python" ]; then
  say "creating $venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
fi

extras=course
[ "$what" = test ] && extras=course,test,torch,hub
stamp="$venv/.installed-$extras"
# A venv made by `tools/install.sh test` holds the course too: its stamp counts for `course`.
[ "$what" = course ] && [ -f "$venv/.installed-course,test,torch,hub" ] && stamp="$venv/.installed-course,test,torch,hub"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  say "pip install -e .[$extras]"
  "$venv/bin/pip" install -q -e ".[$extras]"
  touch "$stamp"
fi

# graphviz's `dot` draws the graphs: the system package when we may install it,
# else the graphviz-pure wheel (a static renderer that needs no root).
if ! command -v dot >/dev/null; then
  apt_install graphviz || true
fi
if ! command -v dot >/dev/null && ! "$venv/bin/pip" show -q graphviz-pure >/dev/null 2>&1; then
  say "no system graphviz: installing the graphviz-pure renderer"
  "$venv/bin/pip" install -q graphviz-pure
fi

if [ "$what" = test ]; then
  apt_install "${test_system_packages[@]}" || say "could not install ${test_system_packages[*]}: the tests that need them will skip"
  command -v npm >/dev/null || apt_install nodejs npm || true
  if [ ! -x "$proxy" ] && command -v npm >/dev/null; then
    say "npm install configurable-http-proxy@$proxy_version (JupyterHub's proxy)"
    npm install --silent --no-audit --no-fund --prefix "$venv/node" "configurable-http-proxy@$proxy_version" >/dev/null
  fi
  [ -x "$proxy" ] || say "no configurable-http-proxy (needs npm): the JupyterHub test will skip"
  # The hub test's learners run JupyterLab as their own system accounts, which cannot reach a Python kept
  # in root's home (pyenv's): they get a venv of the system's Python, holding what `make course` installs.
  class_python=/usr/bin/python3
  if [ ! -x "$class_venv/bin/python" ] && [ -x "$class_python" ]; then
    say "creating $class_venv (the hub's learners' Python)"
    "$class_python" -m venv "$class_venv" || { apt_install python3-venv && "$class_python" -m venv "$class_venv"; }
  fi
  class_stamp="$class_venv/.installed-course,hub"
  if [ -x "$class_venv/bin/python" ] && { [ ! -f "$class_stamp" ] || [ pyproject.toml -nt "$class_stamp" ]; }; then
    say "pip install -e .[course,hub] into $class_venv"
    "$class_venv/bin/pip" install -q -e ".[course,hub]" && touch "$class_stamp"
  fi
fi
