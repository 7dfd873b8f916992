#!/usr/bin/env python3
"""Checks the #include lines of the libraries against their layering.

LAYERS (written by cmake/HloLayering.cmake) names every library of the
package, its source folder and the project libraries it may use. A library's
public headers are in include/Hlo/<folder without lib/>. Every file under
lib/ and include/Hlo/ must belong to a library, and may only include headers
(`#include "Hlo/..."`, TableGen `include "Hlo/..."`) of its own library or of
one it may use. Prints one line per violation and exits 1 if there is any.
"""

import argparse
import re
import sys
from pathlib import Path

INCLUDE = re.compile(r'^\s*#?\s*include\s+"(Hlo/[^"]+)"', re.MULTILINE)
SUFFIXES = {".h", ".cpp", ".inc", ".td", ".def"}


def read_layers(path):
    layers = {}  # library -> (source folder, set of libraries it may use)
    for line in Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        lib, folder, *uses = line.split()
        layers[lib] = (folder, set(uses))
    return layers


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", required=True, help="source root")
    ap.add_argument("--layers", required=True, help="layers.txt of the build")
    args = ap.parse_args()
    src = Path(args.src)
    layers = read_layers(args.layers)

    # Folder (relative to the source root) -> library, and the include
    # prefix of each library's headers -> library.
    owners = {}
    header_owners = {}
    for lib, (folder, _) in layers.items():
        if not folder.startswith("lib/"):
            sys.exit(f"{lib}: source folder {folder} is not under lib/")
        header_dir = "include/Hlo/" + folder[len("lib/"):]
        owners[folder] = lib
        owners[header_dir] = lib
        header_owners["Hlo/" + folder[len("lib/"):] + "/"] = lib

    def owner_of(rel, table):
        """The library of the longest prefix of `rel` in `table`."""
        best = None
        for prefix, lib in table.items():
            p = prefix.rstrip("/") + "/"
            if rel.startswith(p) and (best is None or len(p) > len(best[0])):
                best = (p, lib)
        return best[1] if best else None

    errors = []
    files = includes = 0
    for top in ("lib", "include/Hlo"):
        for path in sorted((src / top).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            rel = path.relative_to(src).as_posix()
            lib = owner_of(rel, owners)
            if lib is None:
                errors.append(f"{rel}: belongs to no library of "
                              "HLO_LIBRARY_LAYERS (cmake/HloLayering.cmake)")
                continue
            files += 1
            allowed = layers[lib][1] | {lib}
            text = path.read_text(errors="replace")
            for match in INCLUDE.finditer(text):
                includes += 1
                header = match.group(1)
                line = text.count("\n", 0, match.start()) + 1
                used = owner_of(header, header_owners)
                if used is None:
                    errors.append(f"{rel}:{line}: includes {header}, which "
                                  "belongs to no library")
                elif used not in allowed:
                    errors.append(f"{rel}:{line}: {lib} includes {header} of "
                                  f"{used}, which its layer does not allow "
                                  f"(it may use: "
                                  f"{', '.join(sorted(layers[lib][1])) or 'none'})")
    for error in errors:
        print(error)
    print(f"{files} files, {includes} includes of project headers, "
          f"{len(errors)} layering violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
