package cli

import (
	"context"
	"fmt"
	"log/slog"
	"unicode/utf8"
)

// maxLogField is the most bytes of one logged value (a method name, a
// session id, a path, an error's text): a client that sends a 4 MB method
// name or a 60 KB session id gets a line of a few hundred bytes in the log,
// not its input copied there.
const maxLogField = 256

// capped is a slog.Handler that cuts every string value, and the text of
// every other value that is not a number, time or bool, to maxLogField
// bytes, marking the cut with the size it had. Every log line of the
// process goes through it, mcp-go's included.
type capped struct{ next slog.Handler }

func (h capped) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h capped) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, capString(r.Message, 4*maxLogField), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(capAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h capped) WithAttrs(as []slog.Attr) slog.Handler {
	for i, a := range as {
		as[i] = capAttr(a)
	}
	return capped{h.next.WithAttrs(as)}
}

func (h capped) WithGroup(name string) slog.Handler { return capped{h.next.WithGroup(name)} }

func capAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, capString(v.String(), maxLogField))
	case slog.KindGroup:
		as := v.Group()
		capped := make([]slog.Attr, len(as))
		for i, g := range as {
			capped[i] = capAttr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(capped...)}
	case slog.KindAny:
		if s := fmt.Sprint(v.Any()); len(s) > maxLogField {
			return slog.String(a.Key, capString(s, maxLogField))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// capString cuts s to at most n bytes, at a character boundary, and says
// how long it was.
func capString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…[cut: %d bytes]", s[:cut], len(s))
}
