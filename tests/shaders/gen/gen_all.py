#!/usr/bin/env python3
"""Regenerate every generated tests/shaders/*.shader_test and list them in
tests/shaders/list.txt.  The outputs are committed, so building and running
the tests never needs Python; rerun this after editing a generator:

    cd tests/shaders/gen && python3 gen_all.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen_alu  # noqa: E402
import gen_tgsi_misc  # noqa: E402

GENERATORS = [gen_alu, gen_tgsi_misc]
for optional in ('gen_tex', 'gen_long', 'gen_arb'):
    try:
        GENERATORS.append(__import__(optional))
    except ImportError:
        pass


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    files = []
    for g in GENERATORS:
        files += g.generate()
    if len(set(files)) != len(files):
        raise SystemExit('duplicate test names')
    list_path = os.path.join(here, '..', 'list.txt')
    with open(list_path) as f:
        lines = f.read().split('\n')
    present = set(l.strip() for l in lines)
    new = [n for n in files if n not in present]
    with open(list_path, 'a') as f:
        for n in new:
            f.write(n + '\n')
    print('%d tests generated, %d newly listed' % (len(files), len(new)))


if __name__ == '__main__':
    main()
