package registry

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/docs-mcp/docs-mcp/framework"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"joined", "joined", 0},
		{"jionde", "joined", 2}, // two swaps
		{"player.jioned", "player.joined", 1},
		{"héllo", "hello", 1}, // runes, not bytes
		{"ca", "abc", 3},      // optimal string alignment, not full Damerau
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := distance(tt.b, tt.a); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d (not symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	r, err := Parse(framework.RegistryJSON())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		n     int
		want  []string
	}{
		{"player.joined", 3, nil}, // exists: nothing to suggest
		{"player.joind", 3, []string{"player.joined"}},
		{"player.jioned", 3, []string{"player.joined"}},
		{"Player.Joined", 3, []string{"player.joined"}},
		{"PlayerJoined", 3, []string{"player.joined"}},
		{"player_joined", 3, []string{"player.joined"}},
		{"joined", 3, []string{"player.joined"}},
		{"server_started", 3, []string{"lifecycle.server_started"}},
		{"chunk", 0, []string{"world.chunk_generated", "world.chunk_loaded"}},
		{"entity.damage", 2, []string{"entity.damage_amount"}},
		{"entity.damagng", 2, []string{"entity.damaging"}},
		{"ui", 3, nil}, // too short to guess
		{"player.lef", 1, []string{"player.left"}},
		{"zzzzzz", 3, nil},
		{"", 3, nil},
		{"  ", 3, nil},
	}
	for _, tt := range tests {
		got := r.Suggest(tt.query, tt.n)
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Suggest(%q, %d) mismatch (-want +got):\n%s", tt.query, tt.n, diff)
		}
	}
}

func BenchmarkSuggest(b *testing.B) {
	r, err := Parse(framework.RegistryJSON())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if s := r.Suggest("player.jioned", 3); len(s) == 0 {
			b.Fatal("no suggestion")
		}
	}
}
