#!/usr/bin/env python3
"""Writes the single-file build: dnnl_kernels.h with every kernels/ header it includes inlined.

    python3 tools/amalgamate.py [OUT]        (default dist/dnnl_kernels_single.h; `make single`)

The result preprocesses to the same tokens as the multi-file header (make test compares the two
with `cc -E -P`), so it behaves the same; what the script must get right is how the headers are
included:
  - Headers with an include guard (#ifndef X / #define X around the whole file) are inlined where
    they are first included; later includes of them are dropped (the guard would skip them).
    Such an include must not sit inside a conditional (other than the file's own guard): the
    compiler might skip the first one and not a later one. The script refuses that case.
  - Files without a guard are the kernel bodies (*_simd.h), the vector layer (vec*.h) and
    simd_instantiate.h, which the compiler reads once per ISA level, each time under different
    macros (DNNLK__ISA, DNNLK__SFX, the vector layer's names). They are inlined at every include,
    `#include DNNLK__SIMD_BODY` as the file named by the latest `#define DNNLK__SIMD_BODY "..."`.
    Inside vec.h's `#elif DNNLK__ISA == n` chain only the level's own header is inlined (the
    value of DNNLK__ISA at that point is the latest `#define DNNLK__ISA n`): the compiler skips
    the other branches anyway, and inlining all four would repeat each level's layer 4 times.
  - The first copy of each unguarded file keeps its comments; the later copies (the other levels)
    are written without comments and blank lines. That keeps the file a few times smaller; the
    tokens are the same.
System headers (#include <...>) are kept as they are.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

INCLUDE_Q = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
INCLUDE_BODY = re.compile(r'^\s*#\s*include\s+DNNLK__SIMD_BODY\b')
DEFINE_BODY = re.compile(r'^\s*#\s*define\s+DNNLK__SIMD_BODY\s+"([^"]+)"')
DEFINE_ISA = re.compile(r'^\s*#\s*define\s+DNNLK__ISA\s+(\d+)\s*$')
UNDEF_ISA = re.compile(r'^\s*#\s*undef\s+DNNLK__ISA\b')
IF_OPEN = re.compile(r'^\s*#\s*(if|ifdef|ifndef)\b(.*)$')
IF_ELSE = re.compile(r'^\s*#\s*(elif|else)\b(.*)$')
IF_END = re.compile(r'^\s*#\s*endif\b')
ISA_BRANCH = re.compile(r'^\s*DNNLK__ISA\s*==\s*(\d+)\s*$')


def strip_comments(text):
    """Removes C and C++ comments (each becomes one space, as in translation phase 3), keeping
    string and character literals intact."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            if j < 0:
                raise SystemExit('amalgamate: unterminated comment')
            out.append(' ')
            i = j + 2
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def guard_of(text):
    """The include guard macro when #ifndef X / #define X ... #endif wraps the whole file."""
    code = strip_comments(text)
    m = re.match(r'\s*#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+(\w+)', code)
    if not m or m.group(1) != m.group(2):
        return None
    # the guard's #endif must be the file's last directive, with nothing but blanks after it
    depth, last_close = 0, None
    lines = code.split('\n')
    for k, line in enumerate(lines):
        if IF_OPEN.match(line):
            depth += 1
        elif IF_END.match(line):
            depth -= 1
            if depth == 0:
                last_close = k
                break
    if last_close is None or any(l.strip() for l in lines[last_close + 1:]):
        return None
    return m.group(1)


class Amalgamator:
    def __init__(self):
        self.done_guarded = set()   # guarded files already inlined
        self.seen_unguarded = set()  # unguarded files inlined once (with comments)
        self.body = None            # the latest DNNLK__SIMD_BODY
        self.isa = None             # the latest DNNLK__ISA
        self.out = []

    def read(self, path):
        with open(path, encoding='utf-8') as f:
            return f.read()

    def inline(self, path, conds_outside):
        """Appends path's text with its includes resolved. conds_outside: whether the include that
        brought it here sits inside a conditional (other than enclosing files' own guards)."""
        rel = os.path.relpath(path, ROOT)
        text = self.read(path)
        guard = guard_of(text)
        if guard:
            if conds_outside:
                raise SystemExit('amalgamate: %s (guarded) is included inside a conditional; inline it '
                                 'unconditionally or teach tools/amalgamate.py the condition' % rel)
            self.done_guarded.add(path)
            if rel != 'dnnl_kernels.h':
                self.out.append('/* ======== %s ======== */\n' % rel)
        elif path in self.seen_unguarded:
            text = '\n'.join(l.rstrip() for l in strip_comments(text).split('\n') if l.strip()) + '\n'
        else:
            self.seen_unguarded.add(path)
            self.out.append('/* ======== %s (no include guard: inlined at each include, the later copies '
                            'without comments) ======== */\n' % rel)
        stack = []  # this file's open conditionals: [kind, condition text, is_guard]
        lines = text.split('\n')
        if lines and lines[-1] == '':
            lines.pop()
        for line in lines:
            m = IF_OPEN.match(line)
            if m:
                is_guard = bool(guard) and not stack and m.group(1) == 'ifndef' and m.group(2).strip() == guard
                stack.append([m.group(1), m.group(2).strip(), is_guard])
                self.out.append(line + '\n')
                continue
            m = IF_ELSE.match(line)
            if m and stack:
                stack[-1][0], stack[-1][1] = m.group(1), m.group(2).strip()
                self.out.append(line + '\n')
                continue
            if IF_END.match(line) and stack:
                stack.pop()
                self.out.append(line + '\n')
                continue
            m = DEFINE_BODY.match(line)
            if m:
                self.body = m.group(1)
            m = DEFINE_ISA.match(line)
            if m:
                self.isa = int(m.group(1))
            if UNDEF_ISA.match(line):
                self.isa = None
            name = None
            m = INCLUDE_Q.match(line)
            if m:
                name = m.group(1)
            elif INCLUDE_BODY.match(line):
                if not self.body:
                    raise SystemExit('amalgamate: %s includes DNNLK__SIMD_BODY with none defined' % rel)
                name = self.body
            if name is None:
                self.out.append(line + '\n')
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if not os.path.isfile(target):
                raise SystemExit('amalgamate: %s includes "%s", not found' % (rel, name))
            if stack and stack[-1][0] in ('if', 'elif'):
                b = ISA_BRANCH.match(stack[-1][1])
                if b and self.isa is not None and int(b.group(1)) != self.isa:
                    continue  # a branch of vec.h's chain the compiler skips at this level
            if target in self.done_guarded:
                continue
            inner = conds_outside or any(not c[2] for c in stack)
            self.inline(target, inner)

    def run(self):
        self.inline(os.path.join(ROOT, 'dnnl_kernels.h'), False)
        return ''.join(self.out)


def version():
    text = open(os.path.join(ROOT, 'dnnl_kernels.h'), encoding='utf-8').read()
    parts = [re.search(r'^#define DNNLK_VERSION_%s (\d+)$' % p, text, re.M) for p in ('MAJOR', 'MINOR', 'PATCH')]
    if not all(parts):
        raise SystemExit('amalgamate: no DNNLK_VERSION_MAJOR/MINOR/PATCH in dnnl_kernels.h')
    return '.'.join(p.group(1) for p in parts)


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'dist', 'dnnl_kernels_single.h')
    body = Amalgamator().run()
    head = ('/* dnnl_kernels %s, single-file build: dnnl_kernels.h and the kernels/ headers in one file, written by\n'
            ' * tools/amalgamate.py (`make single`); do not edit, regenerate. Use it like dnnl_kernels.h:\n'
            ' * #include "dnnl_kernels_single.h", no library, no -m flags (-lm for softmax, log_softmax).\n'
            ' * The API index follows. */\n' % version())
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    tmp = out_path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(head + body)
    os.replace(tmp, out_path)


if __name__ == '__main__':
    main()
