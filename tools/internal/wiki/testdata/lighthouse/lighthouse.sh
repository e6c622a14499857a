#!/usr/bin/env bash
# The wiki's Lighthouse benchmark: performance, accessibility, best practices and SEO
# for the home page, a long reference page, the hook reference and a generated reference
# page of about 22,000 elements (bigpage.sh, added to a copy of docs/ as reference/big.md),
# desktop and mobile, as docs/wiki.md reports them. It builds the wiki, serves it with
# docs-mcp as readers get it, and runs Lighthouse (pinned here) in Debian's chromium.
#
#   npm install --prefix tools/internal/wiki/testdata/lighthouse   (npm ci refuses this lock:
#   "Missing: third-party-web@0.30.0", an npm quirk with lighthouse 12.8.2's dependencies)
#   tools/internal/wiki/testdata/lighthouse/lighthouse.sh [OUTDIR]
#
# Run from the repository root. Scores depend on the machine's load: Lighthouse
# scales the main-thread time it observes (total blocking time) by its CPU throttling.
set -euo pipefail
here=tools/internal/wiki/testdata/lighthouse
out=${1:-artifacts/lighthouse}
mkdir -p "$out"
tmp=$(mktemp -d)
go build -o "$tmp/docs-mcp" ./mcp-server
mkdir -p "$tmp/tree/framework"
cp -r docs CONTRIBUTING.md "$tmp/tree/"
cp framework/mod_hooks.json "$tmp/tree/framework/"
mkdir -p "$tmp/tree/docs/reference"
"$here/bigpage.sh" 340 >"$tmp/tree/docs/reference/big.md"
go run ./tools/cmd/wiki build -root "$tmp/tree" -o "$tmp/wiki"
port=3299
"$tmp/docs-mcp" --listen "127.0.0.1:$port" --data-root "$tmp/tree" --site-dir "$tmp/wiki" 2>"$tmp/server.log" &
server=$!
trap 'kill $server; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done
base=http://127.0.0.1:$port/wiki/
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
# Chromium leaves an org.chromium.Chromium.* folder in TMPDIR per run: keep them in $tmp.
export TMPDIR=$tmp
printf '%-16s %-8s %5s %5s %5s %5s %6s %9s\n' page form perf a11y bp seo CLS TBT
for page in "" server/configuration/ hook-reference/ reference/big/; do
	for form in desktop mobile; do
		name=$(echo "${page:-home}" | tr -d / | tr -c 'a-z\n' -)-$form
		preset=(); [[ $form == desktop ]] && preset=(--preset=desktop)
		"$here/node_modules/.bin/lighthouse" "$base$page" "${preset[@]}" --quiet \
			--chrome-flags="--headless=new --no-sandbox --disable-gpu" \
			--only-categories=performance,accessibility,best-practices,seo \
			--output=json --output-path="$out/$name.json" >/dev/null
		node -e '
			const r = require(require("path").resolve(process.argv[1])), c = r.categories, s = k => Math.round(c[k].score * 100);
			console.log(process.argv[2].padEnd(16), process.argv[3].padEnd(8),
				...["performance", "accessibility", "best-practices", "seo"].map(k => String(s(k)).padStart(5)),
				r.audits["cumulative-layout-shift"].displayValue.padStart(6), r.audits["total-blocking-time"].displayValue.padStart(9))' \
			"$out/$name.json" "${page:-home}" "$form"
	done
done
