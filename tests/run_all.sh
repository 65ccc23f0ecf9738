#!/bin/sh
# Runs each test program, optimized and then under ASan+UBSan (at a tenth of the random-case
# count), prints each run's counts and wall seconds, and sums their "N passed, N failed" lines
# into the last line. A program that crashes or prints no summary counts as one failure.
# The tests named with --nofp also run from BUILD_DIR/asan-nofp (the sanitizer build without
# -fno-omit-frame-pointer), with --opt-only too.
# --runner "CMD" runs each program through CMD (qemu-aarch64 for cross builds); --env-cap NAME
# sets the level of the test_cpu environment-cap run (default sse41; with --opt-only it runs only
# when given).
# The test programs are single-threaded (parts run one after another), so DNNLK_TEST_JOBS of them
# (default: the number of cores) run at once; their output is printed in the order given.
#   tests/run_all.sh [--runner CMD] [--env-cap NAME] [--opt-only] [--nofp "TEST..."] [--dir SUBDIR] BUILD_DIR TEST...
runner=""
env_cap=""
[ "$1" = "--runner" ] && { runner=$2; shift 2; }
[ "$1" = "--env-cap" ] && { env_cap=$2; shift 2; }
opt_only=0
dir=opt
nofp=""
[ "$1" = "--opt-only" ] && { opt_only=1; shift; }
[ "$1" = "--nofp" ] && { nofp=$2; shift 2; }
[ "$1" = "--dir" ] && { dir=$2; shift 2; }
b=$1; shift
passed=0; failed=0; skipped=0
run_one() { # label, env..., binary
    label=$1; shift
    t0=$(date +%s.%N)
    out=$(env "$@" 2>&1); rc=$?  # $runner, when set, is among "$@" (split on purpose)
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }') # where CI's minutes go
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' | tail -n 1)
    if [ -z "$line" ]; then
        printf '%s\n' "$out" | tail -n 20
        echo "$label: no summary (exit $rc)"
        failed=$((failed + 1)); return
    fi
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
    s=0; case "$line" in *skipped) s=${line##*failed, }; s=${s%% skipped} ;; esac
    if [ "$f" -ne 0 ] || [ $rc -ne 0 ]; then
        printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 30
        [ "$f" -eq 0 ] && f=1
    fi
    if [ "$s" -ne 0 ]; then echo "$label: $p passed, $f failed, $s skipped ($secs)"; else echo "$label: $p passed, $f failed ($secs)"; fi
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}
run_test() { # every run of one test program
    t=$1
    run_one "$t" $runner "$b/$dir/$t"
    case " $nofp " in
    *" $t "*) run_one "$t [asan+ubsan, no frame pointer]" DNNLK_TEST_SCALE=0.1 ASAN_OPTIONS=detect_leaks=1 "$b/asan-nofp/$t" ;;
    esac
    [ $opt_only = 1 ] && return
    run_one "$t [asan+ubsan]" DNNLK_TEST_SCALE=0.1 ASAN_OPTIONS=detect_leaks=1 "$b/asan/$t"
}
jobs=${DNNLK_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# A pipe holding one token per free slot: a test takes one before it starts and gives it back when done.
mkfifo "$tmp/slots" && exec 3<>"$tmp/slots" && rm "$tmp/slots"
k=0; while [ $k -lt "$jobs" ]; do echo >&3; k=$((k + 1)); done
i=0
for t in "$@"; do
    i=$((i + 1))
    read -r _ <&3
    ( passed=0; failed=0; skipped=0
      run_test "$t" > "$tmp/$i.out" 2>&1
      echo "$passed $failed $skipped" > "$tmp/$i.sum"; echo >&3 ) &
done
wait
exec 3>&-
k=0
while [ $k -lt $i ]; do
    k=$((k + 1))
    cat "$tmp/$k.out"
    read -r p f s < "$tmp/$k.sum" || { p=0; f=1; s=0; echo "test $k: no result"; }
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
done
if { [ $opt_only = 0 ] || [ -n "$env_cap" ]; } && [ -x "$b/$dir/test_cpu" ]; then
    # The environment cap is read once, at the first call: check it from a fresh process.
    cap=${env_cap:-sse41}
    run_one "test_cpu [DNNLK_MAX_ISA=$cap]" DNNLK_MAX_ISA=$cap DNNLK_EXPECT_ENV_CAP=$cap $runner "$b/$dir/test_cpu"
fi
echo "$passed passed, $failed failed, $skipped skipped" # once: the line .ci/run and callers read
[ $failed -eq 0 ]
