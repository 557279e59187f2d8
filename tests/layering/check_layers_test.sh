#!/usr/bin/env bash
# Shows the layering is enforced (cmake/layers.txt): scripts/check-layers passes on the tree and
# fails on a copy with a deliberately upward include and with a private header crossing a
# layer; and the build itself refuses an upward include, because a layer compiles against an
# include tree holding only the layers it may use.
# Usage: check_layers_test.sh SOURCE_DIR BUILD_DIR CXX
set -euo pipefail
src=$1 build=$2 cxx=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$src/scripts/check-layers" >"$tmp/ok.out" || { cat "$tmp/ok.out"; fail "check-layers fails on the tree"; }

copy() {
  rm -rf "$tmp/tree" && mkdir -p "$tmp/tree/scripts"
  # The sources the check reads; not the npm oracles' node_modules under tests/.
  tar -C "$src" --exclude=tests/oracle/node_modules -cf - cmake include src tests | tar -C "$tmp/tree" -xf -
  cp "$src/scripts/check-layers" "$tmp/tree/scripts/"
}

# util, the bottom layer, including a table header.
copy
printf '#include "floe/table/table.h"\n' >>"$tmp/tree/src/util/buffer.cc"
if "$tmp/tree/scripts/check-layers" >"$tmp/up.out"; then fail "an upward include passed"; fi
grep -q 'src/util/buffer.cc:.*util includes floe/table/table.h' "$tmp/up.out" ||
  { cat "$tmp/up.out"; fail "the upward include is not named"; }

# A sibling: Parquet including Avro.
copy
printf '#include "floe/format/avro/container.h"\n' >>"$tmp/tree/src/format/parquet/reader.cc"
if "$tmp/tree/scripts/check-layers" >"$tmp/sib.out"; then fail "a sibling include passed"; fi
grep -q 'format/parquet includes floe/format/avro/container.h' "$tmp/sib.out" || fail "sibling not named"

# A private header of sql included from table.
copy
priv=$(cd "$src/src" && ls sql/exec/*_internal.h | head -1)
printf '#include "%s"\n' "$priv" >>"$tmp/tree/src/table/table.cc"
if "$tmp/tree/scripts/check-layers" >"$tmp/priv.out"; then fail "a private header crossing passed"; fi
grep -q "table includes $priv, a private header of sql" "$tmp/priv.out" || fail "crossing not named"

# A private header not named *_internal.h.
copy
printf '#pragma once\n' >"$tmp/tree/src/io/helpers.h"
if "$tmp/tree/scripts/check-layers" >"$tmp/name.out"; then fail "a badly named private header passed"; fi
grep -q 'src/io/helpers.h: a private header is named \*_internal.h' "$tmp/name.out" || fail "name not named"

# The compiler, with util's include tree as CMake gives it, cannot see a table header ...
printf '#include "floe/table/table.h"\n' >"$tmp/up.cc"
if "$cxx" -std=c++20 -fsyntax-only -I"$build/layers/util/include" -I"$build/layers/util/src" \
    "$tmp/up.cc" 2>"$tmp/cc.out"; then
  fail "util compiled an include of floe/table/table.h"
fi
grep -q 'floe/table/table.h' "$tmp/cc.out" || { cat "$tmp/cc.out"; fail "unexpected compiler error"; }
# ... nor read a private header of scan, while its own headers compile.
printf '#include "floe/util/result.h"\n' >"$tmp/own.cc"
"$cxx" -std=c++20 -fsyntax-only -I"$build/layers/util/include" -I"$build/layers/util/src" "$tmp/own.cc" ||
  fail "util cannot include its own header"
echo "check-layers: enforced"
