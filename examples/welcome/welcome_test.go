package welcome_test

import (
	"testing"

	"github.com/docs-mcp/docs-mcp/examples/welcome"
	"github.com/docs-mcp/docs-mcp/framework/modkit"
	"github.com/google/go-cmp/cmp"
)

// player stands in for the game's Player: it keeps what it is sent.
type player struct {
	name string
	got  []string
}

func (p *player) Name() string            { return p.name }
func (p *player) SendMessage(text string) { p.got = append(p.got, text) }

// loaded returns a bus with the mod registered, as the game would have it.
func loaded(t *testing.T) *modkit.Bus {
	t.Helper()
	bus, err := modkit.New()
	if err != nil {
		t.Fatal(err)
	}
	mod := welcome.New(welcome.Config{Server: "Blocktown", Blocked: []string{"darn", "heck"}})
	if err := mod.Register(bus); err != nil {
		t.Fatal(err)
	}
	return bus
}

func TestGreet(t *testing.T) {
	tests := []struct {
		name      string
		firstJoin bool
		want      []string
	}{
		{"first visit", true, []string{"Welcome to Blocktown, Alex! Chat is family-friendly here."}},
		{"returning", false, []string{"Welcome back, Alex!"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bus := loaded(t)
			alex := &player{name: "Alex"}
			params := modkit.Params{"player": alex, "first_join": tt.firstJoin}
			if _, err := bus.Fire(t.Context(), modkit.PlayerJoined, params); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, alex.got); diff != "" {
				t.Errorf("messages to Alex (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFilterChat(t *testing.T) {
	tests := []struct {
		name, msg, want string
	}{
		{"clean", "nice build!", "nice build!"},
		{"blocked word", "what a darn creeper", "what a **** creeper"},
		{"any case", "HECK no", "**** no"},
		{"whole words only", "darned hecklers", "darned hecklers"},
		{"spaces trimmed", "  gg  ", "gg"},
		{"blank is dropped", "   ", ""},
	}
	bus := loaded(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params := modkit.Params{"sender": &player{name: "Alex"}}
			report, err := bus.Apply(t.Context(), modkit.ChatMessageSending, tt.msg, params)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, report.Value); diff != "" {
				t.Errorf("message broadcast (-want +got):\n%s", diff)
			}
		})
	}
}
