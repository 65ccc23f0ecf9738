#!/bin/sh
# tests/run_all.sh ends with exactly one "N passed, N failed, N skipped" line, the sum of its
# programs' lines (.ci/run reads the last such line of each log). Checked by running it on two
# stand-in test programs that print only the closing line a test program prints.
#   tests/compile/check_summary.sh BUILD_DIR
d=$1/summary_check
mkdir -p "$d/opt"
printf '#!/bin/sh\necho "3 passed, 0 failed"\n' > "$d/opt/stub_a"
printf '#!/bin/sh\necho "2 passed, 0 failed, 1 skipped"\n' > "$d/opt/stub_b"
chmod +x "$d/opt/stub_a" "$d/opt/stub_b"
out=$(sh tests/run_all.sh --opt-only "$d" stub_a stub_b)
sums=$(printf '%s\n' "$out" | grep -c -E '[0-9]+ passed, [0-9]+ failed' )
last=$(printf '%s\n' "$out" | tail -n 1)
# two per-program lines ("stub_a: ...") and one total
if [ "$sums" -ne 3 ] || [ "$last" != "5 passed, 0 failed, 1 skipped" ]; then
    echo "summary check failed: run_all.sh printed"; printf '%s\n' "$out"; exit 1
fi
echo "summary check: run_all.sh prints its total once, as the last line"
