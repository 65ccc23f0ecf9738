#!/bin/sh
# The API index at the top of dnnl_kernels.h names every public function (dnnlk_<name> defined in
# kernels/*.h, one prefix: private names have two underscores) under the header that defines it,
# and nothing else; the OPTIONS block names every tuning macro a header lets the includer set
# (#ifndef DNNLK_<NAME>_BYTES). Fails, listing the difference, when either drifts.
#   tests/compile/check_api_index.sh
set -e
tmp=${TMPDIR:-/tmp}/dnnlk_api_index.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
# "header name" pairs as the headers define them
for h in kernels/*.h; do
    grep -hoE '^static[^(=;]*\bdnnlk_[a-z0-9][a-z0-9_]*\(' "$h" | grep -oE 'dnnlk_[a-z0-9_]+\($' |
        sed "s|($||; s|^|$(basename "$h") |"
done | sort -u > "$tmp/defined"
# the same pairs as the index lists them: a line naming a header sets it for the lines below
sed -n '/^ \* API (/,/^ \* OPTIONS/p' dnnl_kernels.h | awk '
    { line = $0; sub(/^ \*/, "", line)
      if (match(line, /^ +[a-z0-9_]+\.h /)) { h = substr(line, RSTART, RLENGTH); gsub(/ /, "", h) }
      while (match(line, /dnnlk_[a-z0-9_]+\(/)) {
          print h, substr(line, RSTART, RLENGTH - 1); line = substr(line, RSTART + RLENGTH) } }' |
    sort -u > "$tmp/listed"
if ! cmp -s "$tmp/defined" "$tmp/listed"; then
    echo "API index in dnnl_kernels.h and the headers disagree (< defined only, > listed only):"
    diff "$tmp/defined" "$tmp/listed" | grep '^[<>]'
    exit 1
fi
grep -hoE '^#ifndef DNNLK_[A-Z0-9_]+_BYTES' kernels/*.h | sed 's/#ifndef //' | sort -u > "$tmp/tuning"
sed -n '/^ \* OPTIONS/,/^ \* ISA SELECTION/p' dnnl_kernels.h | grep -oE 'DNNLK_[A-Z0-9_]+_BYTES' | sort -u > "$tmp/options"
if ! cmp -s "$tmp/tuning" "$tmp/options"; then
    echo "OPTIONS block in dnnl_kernels.h and the headers' tuning macros disagree (< headers, > OPTIONS):"
    diff "$tmp/tuning" "$tmp/options" | grep '^[<>]'
    exit 1
fi
echo "API index: $(wc -l < "$tmp/defined") public functions, each listed under its header; $(wc -l < "$tmp/tuning") tuning macros in OPTIONS"
