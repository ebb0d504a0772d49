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
lock=requirements.lock
uv="$venv/bin/uv"
# Compile each module's bytecode at install, as pip does: the graders' sandboxed kernels cannot write it to
# the environment, and would otherwise compile JupyterLab's, nbgrader's and numpy's modules at every start.
export UV_COMPILE_BYTECODE=1
# Trust the certificates the system trusts, as pip does (some networks reach the registry through a proxy
# whose certificate only the system's store holds).
export UV_SYSTEM_CERTS=1

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
proxy="$venv/node/node_modules/.bin/configurable-http-proxy"
class_venv="$venv/class"

# Every Python package comes from the lock (requirements.lock, tools/lock.py): its version and its hashes.
# uv installs it; uv itself is in the lock, and pip installs that one file, checked against the lock's hashes.
if [ ! -x "$uv" ]; then
  say "creating $venv with uv (from $lock)"
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  sed -n '/^uv==/,/[^\\]$/p' "$lock" > "$venv/uv-requirement.txt"
  "$venv/bin/pip" install -q --require-hashes --no-deps -r "$venv/uv-requirement.txt"
fi

# Installs the project's dependencies for the extras "$2" into the Python "$1", exactly as the lock pins
# them: a package the lock lacks, or a file whose hash it does not hold, stops the install. Two of them come
# as source only (names, jieba: chapter 7's data), built with the lock's setuptools, not the index's newest.
install_locked() {
  "$uv" pip install -q --python "$1" --require-hashes -c "$lock" --build-constraint "$lock" -r pyproject.toml \
    $(printf -- '--extra %s ' ${2//,/ })
}

# What an environment was last installed from: the lock and pyproject.toml, by content.
fingerprint() { cat "$lock" pyproject.toml | sha256sum | cut -d' ' -f1; }

extras=course
[ "$what" = test ] && extras=course,test,torch,hub
stamp="$venv/.installed-$extras"
# A venv made by `tools/install.sh test` holds the course too: its stamp counts for `course`.
[ "$what" = course ] && [ -f "$venv/.installed-course,test,torch,hub" ] && stamp="$venv/.installed-course,test,torch,hub"
if [ "$(cat "$stamp" 2>/dev/null)" != "$(fingerprint)" ]; then
  if [ "$extras" = course ]; then
    say "uv pip install the course's packages (pinned by $lock)"
    install_locked "$venv/bin/python" "$extras"
  else
    say "uv pip sync $lock (every package of the lock, nothing else)"
    # PyTorch's CPU build, which the lock pins, is a file this kind of machine keeps where pip finds it.
    torch_wheels=${PIP_FIND_LINKS:-/opt/wheels}
    "$uv" pip sync -q --python "$venv/bin/python" --require-hashes --build-constraint "$lock" \
      $([ -d "$torch_wheels" ] && echo --find-links "$torch_wheels") "$lock"
  fi
  # The project itself, editable; its build back end (setuptools) at the lock's version too.
  "$uv" pip install -q --python "$venv/bin/python" --no-deps --build-constraint "$lock" -e .
  rm -f "$venv"/.installed-*
  fingerprint > "$stamp"
fi

# graphviz's `dot` draws the graphs: the system package when we may install it,
# else the graphviz-pure wheel (a static renderer that needs no root).
if ! command -v dot >/dev/null; then
  apt_install graphviz || true
fi
if ! command -v dot >/dev/null && ! "$uv" pip show -q --python "$venv/bin/python" graphviz-pure >/dev/null 2>&1; then
  say "no system graphviz: installing the graphviz-pure renderer"
  "$uv" pip install -q --python "$venv/bin/python" --require-hashes -c "$lock" graphviz-pure
fi

if [ "$what" = test ]; then
  apt_install "${test_system_packages[@]}" || say "could not install ${test_system_packages[*]}: the tests that need them will skip"
  command -v npm >/dev/null || apt_install nodejs npm || true
  if [ ! -x "$proxy" ] || ! cmp -s tools/proxy/package-lock.json "$venv/node/package-lock.json"; then
    if command -v npm >/dev/null; then
      say "npm ci configurable-http-proxy (JupyterHub's proxy, as tools/proxy/package-lock.json pins it)"
      mkdir -p "$venv/node" && cp tools/proxy/package.json tools/proxy/package-lock.json "$venv/node/"
      npm ci --silent --no-audit --no-fund --prefix "$venv/node" >/dev/null
    fi
  fi
  [ -x "$proxy" ] || say "no configurable-http-proxy (needs npm): the JupyterHub test will skip"
  # The hub test's learners run JupyterLab as their own system accounts: they can reach neither a Python in
  # root's home (pyenv's) nor a clone in a private folder. They get a venv of the system's Python, outside
  # the clone, one per lock, holding what `make course` installs and JupyterHub; .venv/class points to it.
  class_python=/usr/bin/python3
  class_home=${MINIGRAD_CLASS_HOME:-/opt/minigrad-class}
  class_target="$class_home/$(fingerprint | cut -c1-16)"
  if [ -x "$class_python" ] && [ ! -f "$class_target/.installed" ] && mkdir -p "$class_home" 2>/dev/null; then
    say "creating $class_target (the hub's learners' Python), linked as $class_venv"
    chmod 755 "$class_home"
    "$uv" venv -q --allow-existing --python "$class_python" "$class_target"
    install_locked "$class_target/bin/python" course,hub
    chmod -R a+rX "$class_target"
    touch "$class_target/.installed"
    # Environments of earlier locks: a class uses the newest.
    find "$class_home" -mindepth 1 -maxdepth 1 ! -name "$(basename "$class_target")" -exec rm -rf {} +
  fi
  if [ -f "$class_target/.installed" ]; then
    [ -L "$class_venv" ] || rm -rf "$class_venv"  # a venv made there by an earlier set-up
    ln -sfn "$class_target" "$class_venv"
  fi
fi
