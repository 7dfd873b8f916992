"""Prints an HLO module whose fusion chains N blocks of five instructions:
transpose, reshape to 1D, reshape back, transpose back, add to the block's
input. Every block maps its output to its input by the identity, so the
fusion's parameter is read through one map however long the chain is."""
import sys

blocks = int(sys.argv[1]) if len(sys.argv) > 1 else 200
print("HloModule long_fusion\n\nchain {")
print("  p0 = f32[32, 64] parameter(0)")
prev = "p0"
for i in range(blocks):
    root = "ROOT " if i == blocks - 1 else ""
    print(f"  t{i} = f32[64, 32] transpose({prev}), dimensions={{1, 0}}")
    print(f"  r{i} = f32[2048] reshape(t{i})")
    print(f"  s{i} = f32[64, 32] reshape(r{i})")
    print(f"  u{i} = f32[32, 64] transpose(s{i}), dimensions={{1, 0}}")
    print(f"  {root}v{i} = f32[32, 64] add(u{i}, {prev})")
    prev = f"v{i}"
print("}\n\nENTRY main {")
print("  x = f32[32, 64] parameter(0)")
print("  ROOT f = f32[32, 64] fusion(x), kind=kLoop, calls=chain")
print("}")
