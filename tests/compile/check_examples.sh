#!/bin/sh
# Builds and runs examples/*.c, each with every build command its opening comment lists
# ("cc ... -o NAME ..."), warning-free as C99 (cc replaced by CC and the warning flags; a command
# with -fopenmp is skipped with a message where CC has no OpenMP). Each build must exit 0 with
# "NAME: ok" as its last line (the examples check their results against plain loops), and the
# last build's output must equal examples/expected/NAME.out at every ISA level (DNNLK_MAX_ISA;
# levels the CPU lacks run its best). With SINGLE, each example is compiled against that single
# header instead, copied next to it as a vendor would ("../dnnl_kernels.h" ->
# "dnnl_kernels_single.h").
#   tests/compile/check_examples.sh CC OUT_DIR [SINGLE]
cc=$1; out=$2; single=$3
warn="-std=c99 -Wall -Wextra -Wpedantic -Werror"
mkdir -p "$out"
omp=1
printf 'int main(void) { return 0; }\n' > "$out/omp_probe.c"
$cc -fopenmp "$out/omp_probe.c" -o "$out/omp_probe" >/dev/null 2>&1 || omp=0
[ -n "$single" ] && cp "$single" "$out/dnnl_kernels_single.h"
n=0; runs=0
for src in examples/*.c; do
    name=$(basename "$src" .c)
    file=$src
    if [ -n "$single" ]; then
        file=$out/$name.c
        sed 's|#include "../dnnl_kernels.h"|#include "dnnl_kernels_single.h"|' "$src" > "$file"
        grep -q '"dnnl_kernels_single.h"' "$file" || { echo "$src: no #include \"../dnnl_kernels.h\" to replace"; exit 1; }
    fi
    cmds=$(sed -n 's|^ \*   cc \(.*-o '"$name"'.*\)$|\1|p' "$src" | sed 's/ *(.*$//')
    [ -n "$cmds" ] || { echo "$src: no build command (\" *   cc ... -o $name ...\") in its opening comment"; exit 1; }
    last=""
    while IFS= read -r args; do
        case " $args " in *" -fopenmp "*)
            [ $omp = 1 ] || { echo "$name: $cc has no -fopenmp, the OpenMP build skipped"; continue; } ;;
        esac
        # the listed command, with this file, this output and the warning flags
        args=$(printf '%s\n' "$args" | sed "s| $name\\.c | $file |; s|^$name\\.c |$file |; s|-o $name|-o $out/$name|")
        $cc $warn $args || { echo "$name: failed to build: $cc $warn $args"; exit 1; }
        res=$("$out/$name"); rc=$?
        if [ $rc -ne 0 ] || [ "$(printf '%s\n' "$res" | tail -n 1 | cut -d' ' -f1-2)" != "$name: ok" ]; then
            printf '%s\n' "$res"; echo "$name ($cc $args): exit $rc, last line not \"$name: ok\""; exit 1
        fi
        runs=$((runs + 1)); last=$args
    done <<EOF_CMDS
$cmds
EOF_CMDS
    [ -n "$last" ] || continue
    for isa in scalar sse41 avx2 avx512; do
        DNNLK_MAX_ISA=$isa "$out/$name" > "$out/$name.$isa.out" 2>&1
        if ! cmp -s "$out/$name.$isa.out" "examples/expected/$name.out"; then
            echo "$name at DNNLK_MAX_ISA=$isa: output differs from examples/expected/$name.out:"
            diff "examples/expected/$name.out" "$out/$name.$isa.out"; exit 1
        fi
    done
    n=$((n + 1))
done
[ $n -gt 0 ] || { echo "no examples found"; exit 1; }
echo "examples${single:+ (against $single)}: $n programs, $runs builds as documented, each ok and its output as expected at every ISA level"
