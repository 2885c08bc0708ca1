#!/usr/bin/env bash
# fetch-deps.sh — fetch the pinned tree-sitter sources into deps/.
#
# The translator compiles the tree-sitter runtime and its C and Fortran
# grammars from source (see libtsparse.a in Makefile.am).  All three come
# from PyPI as source distributions: the Fortran grammar is published nowhere
# else, and Debian's libtree-sitter (0.20.7) only loads grammars of ABI
# 13..14 while current grammars are ABI 15.
#
# Layout produced (each an unpacked sdist, renamed to a stable path):
#   deps/tree-sitter/          runtime: tree_sitter/core/lib/{src/lib.c,include/tree_sitter/api.h}
#   deps/tree-sitter-c/        C grammar: src/parser.c
#   deps/tree-sitter-fortran/  Fortran grammar: src/parser.c src/scanner.c
#   deps/dist/                 the downloaded sdists (checked against SHA256 below)
#   deps/.stamp                what is unpacked; when it matches, this script does nothing
#
# Usage: scripts/fetch-deps.sh [--force]
# Environment: PYTHON (default python3), used as "$PYTHON -m pip".
# Offline: put the three sdists in deps/dist/ and the script only unpacks them.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps=$here/deps
dist=$deps/dist
PYTHON=${PYTHON:-python3}

# name==version, sdist file name, sha256, stable directory, files it must hold
PKGS=(
  "tree-sitter==0.26.1|tree_sitter-0.26.1.tar.gz|9919cbaf02d17fa9a4cd0e6da496aecf901b758e6eacf122eee393e3ef08aacd|tree-sitter|tree_sitter/core/lib/src/lib.c tree_sitter/core/lib/include/tree_sitter/api.h"
  "tree-sitter-c==0.24.2|tree_sitter_c-0.24.2.tar.gz|1628584df0299b5a340aa63f8e67b6c97c91517f52fa7e7a4c557e40adb330a9|tree-sitter-c|src/parser.c src/tree_sitter/parser.h"
  "tree-sitter-fortran==0.6.0|tree_sitter_fortran-0.6.0.tar.gz|65fea540148ae431335b3920267dffaeeb157ef2b21c0716798c751f6a9e193b|tree-sitter-fortran|src/parser.c src/scanner.c src/tree_sitter/parser.h"
)
API_H=$deps/tree-sitter/tree_sitter/core/lib/include/tree_sitter/api.h

die() { echo "fetch-deps: error: $*" >&2; exit 1; }
say() { echo "fetch-deps: $*"; }

stamp_text() { printf '%s\n' "${PKGS[@]}" | cut -d'|' -f1-3; }

have_all_files() {
  local spec dir files f
  for spec in "${PKGS[@]}"; do
    IFS='|' read -r _ _ _ dir files <<<"$spec"
    for f in $files; do [ -f "$deps/$dir/$f" ] || return 1; done
  done
}

# The integer after "#define NAME" in FILE (only the first lines are read:
# parser.c files are tens of megabytes, the define is near the top).
define_of() {
  head -n 200 "$2" | sed -n "s/^#define $1 \\([0-9][0-9]*\\).*/\\1/p" | head -n 1
}

check_abi() {
  local max min g v
  max=$(define_of TREE_SITTER_LANGUAGE_VERSION "$API_H")
  min=$(define_of TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION "$API_H")
  if [ -z "$max" ] || [ -z "$min" ]; then die "cannot read the ABI range from $API_H"; fi
  for g in tree-sitter-c tree-sitter-fortran; do
    v=$(define_of LANGUAGE_VERSION "$deps/$g/src/parser.c")
    [ -n "$v" ] || die "cannot read LANGUAGE_VERSION from deps/$g/src/parser.c"
    if [ "$v" -lt "$min" ] || [ "$v" -gt "$max" ]; then
      die "$g grammar ABI $v is outside what the runtime accepts ($min..$max)"
    fi
  done
  say "grammar ABI matches the runtime (accepts $min..$max)"
}

sha_ok() { echo "$2  $1" | sha256sum -c --status 2>/dev/null; }

fetch_one() {  # pin file sha
  local pin=$1 file=$2 sha=$3
  if [ -f "$dist/$file" ] && sha_ok "$dist/$file" "$sha"; then return 0; fi
  rm -f "$dist/$file"
  "$PYTHON" -m pip --version >/dev/null 2>&1 ||
    die "'$PYTHON -m pip' does not work; install python3-pip (apt-get install -y python3-pip)"
  say "downloading $pin (source distribution) from PyPI"
  local tmp; tmp=$(mktemp -d "$deps/.dl.XXXXXX")
  # pip prepares the sdist's metadata in an isolated build environment; when
  # that environment cannot be set up, fall back to the installed setuptools.
  if ! "$PYTHON" -m pip download -q --no-binary :all: --no-deps -d "$tmp" "$pin"; then
    say "retrying $pin without build isolation"
    "$PYTHON" -m pip download -q --no-binary :all: --no-deps --no-build-isolation -d "$tmp" "$pin" ||
      { rm -rf "$tmp"; die "pip download of $pin failed"; }
  fi
  [ -f "$tmp/$file" ] || { rm -rf "$tmp"; die "pip did not produce $file"; }
  if ! sha_ok "$tmp/$file" "$sha"; then
    local got; got=$(sha256sum "$tmp/$file" | cut -d' ' -f1)
    rm -rf "$tmp"
    die "$file: sha256 $got, expected $sha"
  fi
  mv "$tmp/$file" "$dist/$file"
  rm -rf "$tmp"
}

unpack_one() {  # file dir files
  local file=$1 dir=$2 files=$3 tmp top f
  tmp=$(mktemp -d "$deps/.unpack.XXXXXX")
  # -m: files get the time of unpacking, so make rebuilds after a version change
  tar -xzmf "$dist/$file" --no-same-owner -C "$tmp"
  top=$tmp/${file%.tar.gz}
  [ -d "$top" ] || { rm -rf "$tmp"; die "$file does not unpack to ${file%.tar.gz}/"; }
  for f in $files; do
    [ -f "$top/$f" ] || { rm -rf "$tmp"; die "$file holds no $f: not the C sources this build needs"; }
  done
  rm -rf "${deps:?}/$dir"
  mv "$top" "$deps/$dir"
  rm -rf "$tmp"
}

main() {
  [ "${1:-}" = "--force" ] && rm -f "$deps/.stamp"
  if [ -f "$deps/.stamp" ] && [ "$(cat "$deps/.stamp")" = "$(stamp_text)" ] && have_all_files &&
     (check_abi >/dev/null 2>&1); then
    say "deps/ is up to date"
    return 0
  fi
  mkdir -p "$dist"
  rm -rf "$deps"/.dl.* "$deps"/.unpack.*
  local spec pin file sha dir files
  for spec in "${PKGS[@]}"; do
    IFS='|' read -r pin file sha _ _ <<<"$spec"
    fetch_one "$pin" "$file" "$sha"
  done
  for spec in "${PKGS[@]}"; do
    IFS='|' read -r pin file _ dir files <<<"$spec"
    unpack_one "$file" "$dir" "$files"
    say "deps/$dir: $pin"
  done
  check_abi
  stamp_text >"$deps/.stamp"
}

main "$@"
