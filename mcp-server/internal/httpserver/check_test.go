package httpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHealthURL(t *testing.T) {
	tests := []struct {
		listen, want, err string
	}{
		{listen: "127.0.0.1:3000", want: "http://127.0.0.1:3000/health"},
		{listen: "0.0.0.0:3000", want: "http://127.0.0.1:3000/health"},
		{listen: ":3000", want: "http://127.0.0.1:3000/health"},
		{listen: "[::]:3000", want: "http://127.0.0.1:3000/health"},
		{listen: "[::1]:8080", want: "http://[::1]:8080/health"},
		{listen: "docs.internal:80", want: "http://docs.internal:80/health"},
		{listen: "3000", err: `listen address "3000": want host:port`},
	}
	for _, tt := range tests {
		got, err := HealthURL(tt.listen)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("HealthURL(%q) error %v, want %q", tt.listen, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("HealthURL(%q) = %q, %v; want %q", tt.listen, got, err, tt.want)
		}
	}
}

// TestCheck asks a real server: healthy while serving, not once stopping,
// and not when something else answers on the port.
func TestCheck(t *testing.T) {
	f := newFixture(t, nil)
	url := f.http.URL + "/health"
	h, err := Check(context.Background(), url)
	if err != nil {
		t.Fatalf("Check while serving: %v", err)
	}
	if diff := cmp.Diff(f.health(t), h); diff != "" {
		t.Errorf("Check's report (-want +got):\n%s", diff)
	}

	f.srv.stopping.Store(true)
	if _, err := Check(context.Background(), url); err == nil || !strings.Contains(err.Error(), `503 Service Unavailable, status "stopping"`) {
		t.Errorf("Check while stopping: %v", err)
	}

	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	if _, err := Check(context.Background(), other.URL+"/health"); err == nil || !strings.Contains(err.Error(), "without a health report") {
		t.Errorf("Check of another server: %v", err)
	}
}
