#!/usr/bin/env bash
# bigpage.sh N: a long reference page in Markdown on stdout, for the Lighthouse benchmark
# (lighthouse.sh): N/10 groups (h2) of ten entries (h3), each entry a paragraph with inline
# code and a link, a four-column table of flags and a Go example. 340 entries make a page of
# about 22,000 elements, like the largest reference pages of a real tree.
set -euo pipefail
n=${1:-400}
echo "# Big reference"
echo
echo "A generated reference page, long like the largest pages of a real tree."
for ((i = 0; i < n; i++)); do
	if ((i % 10 == 0)); then printf '\n## Group %d\n\nThe entries of group %d.\n' $((i / 10)) $((i / 10)); fi
	cat <<MD

### \`Widget.Method$i\`

Method$i configures the widget's \`BlockPos$i\` and returns the previous \`Options\`; see [the group](#group-$((i / 10))) for its neighbours. It is safe to call from any goroutine.

| Flag | Type | Default | Description |
|---|---|---|---|
| \`--widget-$i-name\` | \`string\` | \`"w$i"\` | the widget's **name**, shown in logs |
| \`--widget-$i-size\` | \`int\` | \`$i\` | how many items it holds before it flushes |
| \`--widget-$i-mode\` | \`enum\` | \`fast\` | \`fast\`, \`safe\` or \`off\` |

\`\`\`go
func ExampleWidget_Method$i() {
	w := widget.New("w$i", $i)
	prev := w.Method$i(widget.Options{Size: $i, Mode: widget.Fast})
	fmt.Println(prev.Size, w.Len())
	// Output: 0 $i
}
\`\`\`
MD
done
