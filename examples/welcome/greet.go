package welcome

import (
	"context"
	"fmt"

	"github.com/docs-mcp/docs-mcp/framework/modkit"
)

// greet handles the event player.joined: it welcomes the player, with a
// longer message on their first visit. An error it returns is reported to
// the game as this mod's failure; other mods' handlers still run.
func (m *Mod) greet(ctx context.Context, e *modkit.Event) error {
	p, err := modkit.ParamAs[Player](e, "player")
	if err != nil {
		return err
	}
	first, err := modkit.ParamAs[bool](e, "first_join")
	if err != nil {
		return err
	}
	if first {
		p.SendMessage(fmt.Sprintf("Welcome to %s, %s! Chat is family-friendly here.", m.server, p.Name()))
	} else {
		p.SendMessage(fmt.Sprintf("Welcome back, %s!", p.Name()))
	}
	return nil
}
