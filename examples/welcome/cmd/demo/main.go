// Command demo runs the welcome mod as a game would: it loads the mod into
// a hook bus, fires a few hooks and prints what the mod did. modkit has no
// game of its own; this stands in for one.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/docs-mcp/docs-mcp/examples/welcome"
	"github.com/docs-mcp/docs-mcp/framework/modkit"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// player is the demo's Player: it prints what it is sent.
type player struct {
	name string
	out  io.Writer
}

func (p player) Name() string            { return p.name }
func (p player) SendMessage(text string) { fmt.Fprintf(p.out, "  to %s: %s\n", p.name, text) }

func run(ctx context.Context, out io.Writer) error {
	bus, err := modkit.New()
	if err != nil {
		return fmt.Errorf("new hook bus: %w", err)
	}
	mod := welcome.New(welcome.Config{Server: "Blocktown", Blocked: []string{"darn", "heck"}})
	if err := mod.Register(bus); err != nil {
		return fmt.Errorf("load mod %s: %w", welcome.ID, err)
	}
	fmt.Fprintf(out, "loaded mod %s\n", welcome.ID)

	alex, sam := player{"Alex", out}, player{"Sam", out}
	joins := []struct {
		player player
		first  bool
	}{{alex, true}, {sam, false}}
	for _, j := range joins {
		fmt.Fprintf(out, "%s: %s, first_join=%t\n", modkit.PlayerJoined, j.player.name, j.first)
		params := modkit.Params{"player": j.player, "first_join": j.first}
		if _, err := bus.Fire(ctx, modkit.PlayerJoined, params); err != nil {
			return fmt.Errorf("fire %s: %w", modkit.PlayerJoined, err)
		}
	}

	chats := []struct {
		sender player
		text   string
	}{{alex, "what a darn creeper"}, {sam, "   "}}
	for _, c := range chats {
		fmt.Fprintf(out, "%s: %s says %q\n", modkit.ChatMessageSending, c.sender.name, c.text)
		report, err := bus.Apply(ctx, modkit.ChatMessageSending, c.text, modkit.Params{"sender": c.sender})
		if err != nil {
			return fmt.Errorf("apply %s: %w", modkit.ChatMessageSending, err)
		}
		if text, _ := report.Value.(string); text != "" {
			fmt.Fprintf(out, "  broadcast %q\n", text)
		} else {
			fmt.Fprintln(out, "  dropped")
		}
	}
	return nil
}
