package registry

import (
	"fmt"
	"strings"
)

// TypeInfo is one name of the type vocabulary that parameters and return
// values may use.
type TypeInfo struct {
	Name        string
	Description string
}

// Types returns the type vocabulary of the registry, sorted by name. A
// parameter or return type is one of these names, or a composite built from
// them: []T (a list of T) or map[string]T (T by string key).
//
// The game types (Player, World, ...) name the host game's API as mods see
// it; modkit passes them through untouched.
func Types() []TypeInfo {
	return []TypeInfo{
		{"Block", "A block type with its state, such as an oak log facing north."},
		{"BlockPos", "Integer block coordinates (x, y, z) in a world."},
		{"Chunk", "A 16x16 column of blocks, the unit of world loading and generation."},
		{"CommandSender", "Who ran a command: a player, the console or a command block."},
		{"Config", "The server configuration after defaults and overrides are applied."},
		{"Connection", "A network connection to one client, before or after login."},
		{"DamageSource", "What caused damage: an entity, a block, a fall, fire, and so on."},
		{"DataTag", "A tree of named values, the format of saved player, entity and world data."},
		{"Duration", "A span of time (Go's time.Duration)."},
		{"Entity", "Anything that moves or ticks in a world: mobs, items on the ground, projectiles."},
		{"Hand", "The hand a player used: main or off hand."},
		{"HudElement", "One element of a player's heads-up display: a bar, a counter, a text line."},
		{"ItemStack", "An item type with a count and its data."},
		{"Location", "A precise position in a world with a facing (x, y, z, yaw, pitch)."},
		{"ModInfo", "A mod's manifest: id, name, version and dependencies."},
		{"Packet", "One decoded protocol packet."},
		{"Player", "A connected player; a Player is also an Entity."},
		{"Profile", "A player's account identity (id and name) before they join the world."},
		{"Screen", "A user-interface screen: an inventory, a menu, a dialog."},
		{"Server", "The running game server."},
		{"ServerStatus", "What the server list shows: message of the day, player counts, icon."},
		{"Time", "An instant (Go's time.Time)."},
		{"Weather", "A world's weather: clear, rain or thunder, with its remaining duration."},
		{"World", "A loaded world (a dimension) with its blocks, entities and time."},
		{"bool", "true or false."},
		{"bytes", "Raw bytes."},
		{"float64", "A floating-point number."},
		{"int", "An integer."},
		{"int64", "A 64-bit integer, for ticks and world time."},
		{"string", "UTF-8 text."},
	}
}

// checkType reports whether t is a type of the vocabulary or a composite of
// them.
func checkType(t string) error {
	base := t
	for {
		if rest, ok := strings.CutPrefix(base, "[]"); ok {
			base = rest
			continue
		}
		if rest, ok := strings.CutPrefix(base, "map[string]"); ok {
			base = rest
			continue
		}
		break
	}
	for _, ti := range Types() {
		if ti.Name == base {
			return nil
		}
	}
	if strings.ContainsAny(base, "[]*") {
		return fmt.Errorf("type %q is malformed; write T, []T or map[string]T", t)
	}
	msg := fmt.Sprintf("type %q is not in the type vocabulary", base)
	names := make([]string, 0, len(Types()))
	for _, ti := range Types() {
		names = append(names, ti.Name)
	}
	if s := nearest(base, names, 1); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %q?", s[0])
	}
	return fmt.Errorf("%s", msg)
}
