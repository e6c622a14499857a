package cli

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

func TestLogFieldsAreCapped(t *testing.T) {
	for _, format := range []string{"json", "text"} {
		var buf bytes.Buffer
		log := newLogger(&buf, slog.LevelInfo, format)
		huge := strings.Repeat("é", 2<<20) // 4 MiB, two bytes a character
		log.With("session", huge).Info("http", "method", huge, "err", errors.New(huge),
			slog.Group("g", "path", huge), "short", "kept", "n", 42)
		out := buf.String()
		if len(out) > 8*maxLogField {
			t.Errorf("%s: a line of %d bytes for four 4 MiB values, want a few hundred a value", format, len(out))
		}
		if n := strings.Count(out, "…[cut: 4194304 bytes]"); n != 4 {
			t.Errorf("%s: %d values marked as cut, want 4:\n%s", format, n, out)
		}
		if !strings.Contains(out, "kept") || !strings.Contains(out, "42") {
			t.Errorf("%s: short values lost:\n%s", format, out)
		}
	}
}
