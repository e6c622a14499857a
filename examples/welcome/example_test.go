package welcome_test

import (
	"context"
	"fmt"
	"log"

	"github.com/docs-mcp/docs-mcp/examples/welcome"
	"github.com/docs-mcp/docs-mcp/framework/modkit"
)

// printer is a Player that prints what it is sent.
type printer string

func (p printer) Name() string            { return string(p) }
func (p printer) SendMessage(text string) { fmt.Printf("to %s: %s\n", p, text) }

// The game loads the mod once, then fires hooks as things happen.
func Example() {
	bus, err := modkit.New()
	if err != nil {
		log.Fatal(err)
	}
	mod := welcome.New(welcome.Config{Server: "Blocktown", Blocked: []string{"darn"}})
	if err := mod.Register(bus); err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	alex := printer("Alex")
	if _, err := bus.Fire(ctx, modkit.PlayerJoined, modkit.Params{"player": alex, "first_join": true}); err != nil {
		log.Fatal(err)
	}
	report, err := bus.Apply(ctx, modkit.ChatMessageSending, "darn creepers!", modkit.Params{"sender": alex})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(report.Value)
	// Output:
	// to Alex: Welcome to Blocktown, Alex! Chat is family-friendly here.
	// **** creepers!
}
