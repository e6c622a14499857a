#!/bin/sh
# Regenerates static/favicon.ico (/wiki/favicon.ico, which docs-mcp also serves at
# /favicon.ico) from the docs-mcp icon, mcp-server/internal/mcpserver/icon.svg (the
# wiki's favicon.svg is that file, mounted as it is). Chromium renders the SVG at
# 32x32 and 16x16 on a transparent background; the ICO holds the two PNGs.
# Run from the repository root: sh tools/internal/wiki/site/gen-favicon.sh
set -eu
svg=$(pwd)/mcp-server/internal/mcpserver/icon.svg
out=tools/internal/wiki/site/static/favicon.ico
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for size in 32 16; do
	printf '<!doctype html><style>html,body{margin:0;background:transparent}</style><img src="file://%s" width="%s" height="%s">' "$svg" "$size" "$size" >"$tmp/$size.html"
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --default-background-color=00000000 \
		--window-size="$size,$size" --screenshot="$tmp/$size.png" "file://$tmp/$size.html" >/dev/null 2>&1
done
mkdir -p "$(dirname "$out")"
python3 - "$out" "$tmp/32.png" "$tmp/16.png" <<'PY'
import struct, sys
out, pngs = sys.argv[1], [open(p, "rb").read() for p in sys.argv[2:]]
sizes = [int.from_bytes(p[16:20], "big") for p in pngs]  # the PNG's IHDR width
head = struct.pack("<HHH", 0, 1, len(pngs))
offset = 6 + 16 * len(pngs)
entries = b""
for png, size in zip(pngs, sizes):
    entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), offset)
    offset += len(png)
open(out, "wb").write(head + entries + b"".join(pngs))
PY
