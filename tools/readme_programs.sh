#!/bin/sh
# Extracts the README's C programs: every ```c block with an #include line (the others are
# excerpts, such as a struct), one file each, OUT_DIR/readme_1.c, readme_2.c, ... in order.
# Prints the file names. make test compiles each as C99 and C++17 and runs it.
#   tools/readme_programs.sh README.md OUT_DIR
readme=$1; out=$2
mkdir -p "$out" && rm -f "$out"/readme_*.c
awk -v out="$out" '
    /^```c[ \t]*$/ { inblk = 1; body = ""; next }
    inblk && /^```[ \t]*$/ {
        inblk = 0
        if (body ~ /(^|\n)#include/) { n++; f = out "/readme_" n ".c"; printf "%s", body > f; close(f); print f }
        next
    }
    inblk { body = body $0 "\n" }
' "$readme"
