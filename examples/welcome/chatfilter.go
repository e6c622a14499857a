package welcome

import (
	"context"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/docs-mcp/docs-mcp/framework/modkit"
)

// filterChat handles the filter chat.message_sending: it receives the
// message as the handlers before it left it, and returns the text the
// handlers after it receive; the game broadcasts what the last one returns.
// It trims spaces and masks blocked words. A message left empty is dropped:
// an empty result tells the game not to send it.
func (m *Mod) filterChat(ctx context.Context, e *modkit.Event, msg string) (string, error) {
	msg = strings.TrimSpace(msg)
	if m.blocked == nil {
		return msg, nil
	}
	return m.blocked.ReplaceAllStringFunc(msg, func(word string) string {
		return strings.Repeat("*", utf8.RuneCountInString(word))
	}), nil
}

// wordsPattern matches any of words, whole and in any case; it is nil when
// words is empty.
func wordsPattern(words []string) *regexp.Regexp {
	if len(words) == 0 {
		return nil
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(`(?i)\b(` + strings.Join(quoted, "|") + `)\b`)
}
