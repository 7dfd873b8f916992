#!/usr/bin/env python3
"""Splits a test file at its `// -----` lines (hlo-opt's -split-input-file
markers) into PREFIX.0.hlo, PREFIX.1.hlo, ... so that tools without a split
mode (hlo-run) can take each module. Usage: split_hlo.py FILE PREFIX"""

import re
import sys

text = open(sys.argv[1]).read()
for i, chunk in enumerate(re.split(r"^// -----\s*$", text, flags=re.M)):
    with open(f"{sys.argv[2]}.{i}.hlo", "w") as out:
        out.write(chunk)
