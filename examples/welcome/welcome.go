// Package welcome is an example mod for the modkit framework. It greets
// players when they join and keeps chat polite: one event handler
// (player.joined, in greet.go) and one filter (chat.message_sending, in
// chatfilter.go). A game loads it with New and Register.
package welcome

import (
	"regexp"

	"github.com/docs-mcp/docs-mcp/framework/modkit"
)

// ID names the mod in the bus's reports and logs.
const ID = "welcome"

// Player is what this mod uses of the game's Player, the registry's type of
// the "player" parameter of player.joined. The value the game passes has
// these methods (and more, which this mod does not need).
type Player interface {
	Name() string
	SendMessage(text string)
}

// Config is what a server owner can set.
type Config struct {
	Server  string   // the server's name, in the greeting for newcomers
	Blocked []string // words masked in chat: whole words, in any case
}

// Mod is the welcome mod. Make one with New.
type Mod struct {
	server  string
	blocked *regexp.Regexp // nil when no word is blocked
}

// New returns the mod with the settings of cfg.
func New(cfg Config) *Mod {
	return &Mod{server: cfg.Server, blocked: wordsPattern(cfg.Blocked)}
}

// Register attaches the mod's handlers to the game's bus. The game calls it
// once, when it loads the mod.
func (m *Mod) Register(bus *modkit.Bus) error {
	mod := bus.Mod(ID)
	if _, err := mod.On(modkit.PlayerJoined, modkit.PriorityNormal, m.greet); err != nil {
		return err
	}
	_, err := mod.Filter(modkit.ChatMessageSending, modkit.PriorityNormal, modkit.Typed(m.filterChat))
	return err
}
