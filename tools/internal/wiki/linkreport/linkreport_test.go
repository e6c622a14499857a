package linkreport

import "testing"

func TestParse(t *testing.T) {
	for _, c := range []struct {
		line string
		want Report
		ok   bool
	}{
		{`ERROR wiki: broken link "a b.md#x" in "docs/c.md": docs/a b.md does not exist`,
			Report{Kind: "broken link", Dest: "a b.md#x", File: "docs/c.md", Detail: "docs/a b.md does not exist"}, true},
		{`ERROR wiki: broken image "x\"y.png" in "docs/c d.md": docs/x"y.png is not a file under docs/`,
			Report{Kind: "broken image", Dest: `x"y.png`, File: "docs/c d.md", Detail: `docs/x"y.png is not a file under docs/`}, true},
		{`WARN  wiki: repo link "../README.md" in "docs/index.md": README.md`,
			Report{Kind: "repo link", Dest: "../README.md", File: "docs/index.md", Detail: "README.md"}, true},
		{`WARN  deprecated: something`, Report{}, false},
	} {
		got, ok := Parse(c.line)
		if ok != c.ok || got != c.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}
