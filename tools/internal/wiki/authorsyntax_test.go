package wiki

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRewriteAuthorSyntax: MkDocs Material's tabs and admonitions in the
// copy Hugo reads, as the wiki draws them; a doc's own tab shortcodes kept
// when they nest; what only looks like either left as written.
func TestRewriteAuthorSyntax(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"tabs",
			"# T\n\n=== \"Linux\"\n\n    ```sh\n    make\n    ```\n\n=== \"Windows\"\n    Run `make.bat`.\n\nAfter.\n",
			"# T\n\n{{< tabs >}}\n{{< tab \"Linux\" >}}\n\n```sh\nmake\n```\n{{< /tab >}}\n{{< tab \"Windows\" >}}\nRun `make.bat`.\n{{< /tab >}}\n{{< /tabs >}}\n\nAfter.\n"},
		{"a new set with ===!",
			"=== \"a\"\n    1\n===! \"b\"\n    2\n",
			"{{< tabs >}}\n{{< tab \"a\" >}}\n1\n{{< /tab >}}\n{{< /tabs >}}\n{{< tabs >}}\n{{< tab \"b\" >}}\n2\n{{< /tab >}}\n{{< /tabs >}}\n"},
		{"admonition with a title",
			"!!! warning \"Back up first\"\n    The migration rewrites\n\n    every file.\nAfter.\n",
			"> [!WARNING] Back up first\n> The migration rewrites\n>\n> every file.\nAfter.\n"},
		{"folded, folded open, no title",
			"??? tip\n    a\n???+ danger \"Hot\"\n    b\n!!! note inline end\n    c\n",
			"> [!TIP]-\n> a\n> [!CAUTION]+ Hot\n> b\n> [!NOTE]\n> c\n"},
		{"another kind: its colours, its name",
			"!!! Example\n    e\n",
			"> [!NOTE] Example\n> e\n"},
		{"an admonition in a tab",
			"=== \"v1\"\n    !!! note\n        old\n",
			"{{< tabs >}}\n{{< tab \"v1\" >}}\n> [!NOTE]\n> old\n{{< /tab >}}\n{{< /tabs >}}\n"},
		{"the doc's own tabs",
			"{{</* tabs */>}}\n{{</* tab \"Go\" */>}}\ncode\n{{</* /tab */>}}\n{{</* /tabs */>}}\n",
			"{{< tabs >}}\n{{< tab \"Go\" >}}\ncode\n{{< /tab >}}\n{{< /tabs >}}\n"},
		{"the doc's own tabs, unclosed: text",
			"{{</* tabs */>}}\n{{</* tab \"Go\" */>}}\ncode\n{{</* /tabs */>}}\n",
			"{{</* tabs */>}}\n{{</* tab \"Go\" */>}}\ncode\n{{</* /tabs */>}}\n"},
		{"in a fenced block: as written",
			"```md\n=== \"a\"\n    x\n!!! note\n    y\n{{</* tabs */>}}\n{{</* /tabs */>}}\n```\n",
			"```md\n=== \"a\"\n    x\n!!! note\n    y\n{{</* tabs */>}}\n{{</* /tabs */>}}\n```\n"},
		{"look-alikes",
			"Wow!!! great\n!!! this is great\n    indented code\n===\n  === \"indented\"\n",
			"Wow!!! great\n!!! this is great\n    indented code\n===\n  === \"indented\"\n"},
		{"a label with quotes and braces",
			"=== \"a >}} b\"\n    x",
			"{{< tabs >}}\n{{< tab \"a  b\" >}}\nx\n{{< /tab >}}\n{{< /tabs >}}\n"},
		{"tabs in an admonition: the shortcode's lines unquoted",
			"!!! note\n    Pick one:\n    === \"a\"\n        x\n    After.\n",
			"> [!NOTE]\n> Pick one:\n>\n> {{< tabs >}}\n{{< tab \"a\" >}}\nx\n{{< /tab >}}\n{{< /tabs >}}\n>\n> After.\n"},
		{"CRLF",
			"!!! note\r\n    a\r\n",
			"> [!NOTE]\n> a\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, rewriteAuthorSyntax(c.doc)); diff != "" {
				t.Errorf("rewriteAuthorSyntax(%q) (-want +got):\n%s", c.doc, diff)
			}
		})
	}
}

// TestHugoSafeAuthorSyntax: a doc with MkDocs syntax is copied, a doc's
// other shortcodes stay escaped beside its tabs, and a doc with neither is
// built as it is.
func TestHugoSafeAuthorSyntax(t *testing.T) {
	doc := "# T\n\n!!! note\n    {{< x >}}\n\n{{< tabs >}}\n{{< tab \"a\" >}}\nA\n{{< /tab >}}\n{{< /tabs >}}\n"
	want := "# T\n\n> [!NOTE]\n> {{</* x */>}}\n\n{{< tabs >}}\n{{< tab \"a\" >}}\nA\n{{< /tab >}}\n{{< /tabs >}}\n"
	if !misread([]byte(doc)) {
		t.Errorf("misread(%q) = false", doc)
	}
	if diff := cmp.Diff(want, string(hugoSafe([]byte(doc)))); diff != "" {
		t.Errorf("hugoSafe (-want +got):\n%s", diff)
	}
	for _, doc := range []string{"!!! note\n    a\n", "=== \"a\"\n    b\n"} {
		if !misread([]byte(doc)) {
			t.Errorf("misread(%q) = false, want true", doc)
		}
	}
	for _, doc := range []string{"# T\n\nWow!!! Really???\n\nTitle\n===\n"} {
		if misread([]byte(doc)) {
			t.Errorf("misread(%q) = true, want false", doc)
		}
	}
}

// FuzzRewriteAuthorSyntax: any text rewrites without a panic; text with no
// marker is left as it is; the rewrite leaves nothing to rewrite again, and
// keeps every line of text that is no marker (dedented, perhaps quoted).
func FuzzRewriteAuthorSyntax(f *testing.F) {
	for _, s := range []string{
		"=== \"a\"\n    x\n\n=== \"b\"\n    y\n",
		"!!! note \"T\"\n    a\n    ```\n    !!! note\n    ```\n",
		"???+ bug\n\t=== \"a\"\n\t    b\n",
		"{{</* tabs */>}}\n{{</* tab \"a\" */>}}\n{{</* /tab */>}}\n{{</* /tabs */>}}\n",
		"```\n=== \"a\"\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		got := rewriteAuthorSyntax(doc)
		if !authorMarkers([]byte(doc)) && got != doc {
			t.Fatalf("no marker, yet rewritten: %q -> %q", doc, got)
		}
		if again := rewriteAuthorSyntax(got); strings.Count(again, "{{< tabs >}}") != strings.Count(got, "{{< tabs >}}") ||
			strings.Count(again, "> [!") != strings.Count(got, "> [!") {
			t.Fatalf("rewritten twice differs: %q -> %q -> %q", doc, got, again)
		}
		for _, line := range strings.Split(doc, "\n") {
			w := strings.TrimSpace(line)
			if w == "" || tabMarker.MatchString(w) || admonitionMarker.MatchString(w) || escapedTabCode.MatchString(w) {
				continue
			}
			if !strings.Contains(got, w) {
				t.Fatalf("line %q lost: %q -> %q", w, doc, got)
			}
		}
	})
}
