#!/usr/bin/env python3
"""Parses an HLO text file with XLA's own parser (jaxlib) and prints XLA's
text of it; exits 1 with XLA's message if XLA rejects the file."""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
from jax._src.lib import hlo  # noqa: E402


def main():
    text = open(sys.argv[1]).read()
    try:
        module = hlo.hlo_module_from_text(text)
    except Exception as e:  # XLA reports parse errors as exceptions.
        print(f"XLA rejects {sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    print(module.to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
