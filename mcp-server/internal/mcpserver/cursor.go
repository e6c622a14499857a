package mcpserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
)

// errBadCursor is wrapped by every refusal of a cursor.
var errBadCursor = errors.New("invalid cursor")

// maxCursorLen bounds what decodeCursor reads from a client.
const maxCursorLen = 4096

// cursor is a position to continue from, opaque to clients. It names the
// last item returned (a path, and a line for search), so it stays meaningful
// when the corpus changes: the next page starts after that item, wherever it
// now is. Query pins the cursor to the arguments it was made for.
type cursor struct {
	Kind  string `json:"k"`
	Query uint64 `json:"q"`
	Path  string `json:"p"`
	Line  int    `json:"l,omitempty"`
}

func (c cursor) encode() string {
	b, err := json.Marshal(c)
	if err != nil {
		panic(fmt.Sprintf("marshal cursor: %v", err)) // a struct of strings and ints always marshals
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor made by encode for the same kind of call and
// the same query.
func decodeCursor(s, kind string, query uint64) (cursor, error) {
	const again = "; call again without a cursor to start over"
	if len(s) > maxCursorLen {
		return cursor{}, fmt.Errorf("%w: it is %d bytes long, more than any cursor this server makes%s", errBadCursor, len(s), again)
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, fmt.Errorf("%w: not one this server made (%v)%s", errBadCursor, err, again)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var c cursor
	if err := dec.Decode(&c); err != nil || dec.More() {
		return cursor{}, fmt.Errorf("%w: not one this server made%s", errBadCursor, again)
	}
	switch {
	case c.Kind != kind:
		return cursor{}, fmt.Errorf("%w: it belongs to another tool%s", errBadCursor, again)
	case c.Query != query:
		return cursor{}, fmt.Errorf("%w: it was made for other arguments; pass the same query, case_sensitive and path_prefix as the call that returned it%s", errBadCursor, again)
	case c.Line < 0:
		return cursor{}, fmt.Errorf("%w: negative line%s", errBadCursor, again)
	}
	return c, nil
}

// fingerprint hashes the arguments a cursor is pinned to.
func fingerprint(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}
