#!/bin/sh
# Fetches assets/js/vendor/mermaid.tiny.js, the diagram renderer the wiki loads on a page with a
# ```mermaid block (and on no other): @mermaid-js/tiny from npm, pinned, checked against the
# registry's integrity. MIT licensed (its LICENSE beside it). No CDN: the site references nothing
# outside itself. Run from the repository root: sh tools/internal/wiki/site/gen-mermaid.sh
set -eu
version=12.0.0
integrity=sha512-ZW9YXy+3tSLPscBT+NnQO0K0qYH7BGES5nExl6Snoygey7xd2N0cO7Nq30N5k/u7gIeYoCrldyVy+VTCMWrNDQ==
out=tools/internal/wiki/site/assets/js/vendor
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "@mermaid-js/tiny@$version" >/dev/null)
got="sha512-$(openssl dgst -sha512 -binary "$tmp"/mermaid-js-tiny-$version.tgz | base64 -w0)"
[ "$got" = "$integrity" ] || { echo "integrity mismatch: $got" >&2; exit 1; }
tar -xzf "$tmp"/mermaid-js-tiny-$version.tgz -C "$tmp"
mkdir -p "$out"
cp "$tmp/package/dist/mermaid.tiny.js" "$out/mermaid.tiny.js"
cp "$tmp/package/LICENSE" "$out/mermaid.LICENSE"
echo "wrote $out/mermaid.tiny.js (@mermaid-js/tiny $version)"
