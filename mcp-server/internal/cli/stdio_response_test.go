package cli

import (
	"encoding/json"
	"testing"
)

// TestResponseID checks responseID, which stops reading a line at its
// result, against decoding the whole line.
func TestResponseID(t *testing.T) {
	whole := func(line []byte) (string, bool) {
		var e struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(line, &e) != nil || e.ID == nil || e.Method != "" {
			return "", false
		}
		return idKey(e.ID), true
	}
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"a \"}\" b"}]}}`,
		`{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no"}}`,
		`{"jsonrpc":"2.0","result":{"a":[1,2,{"id":3}]},"id":1.0}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
		`{"jsonrpc":"2.0","id":4}`,
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"id":6}}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","id":8,"params":{"result":1},"method":"sampling/createMessage"}`,
		`[{"jsonrpc":"2.0","id":9,"result":{}}]`,
		`not json`,
		``,
	} {
		id, ok := responseID([]byte(line))
		wantID, wantOK := whole([]byte(line))
		if id != wantID || ok != wantOK {
			t.Errorf("responseID(%s) = %q, %v; decoding it whole gives %q, %v", line, id, ok, wantID, wantOK)
		}
	}
}
