package modkit_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/docs-mcp/docs-mcp/framework/modkit"
)

// A mod greets players; the game fires the event when one joins.
func Example() {
	bus, err := modkit.New() // the hooks of mod_hooks.json
	if err != nil {
		log.Fatal(err)
	}

	greeter := bus.Mod("greeter")
	_, err = greeter.On(modkit.PlayerJoined, modkit.PriorityNormal, func(ctx context.Context, e *modkit.Event) error {
		name, err := modkit.ParamAs[string](e, "player")
		if err != nil {
			return err
		}
		fmt.Println("Welcome,", name+"!")
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}

	// The game's side.
	report, err := bus.Fire(context.Background(), modkit.PlayerJoined, modkit.Params{"player": "Alex", "first_join": true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("handlers called:", report.Called)
	// Output:
	// Welcome, Alex!
	// handlers called: 1
}

// Filters pass a value through every handler in priority order.
func ExampleBus_Apply() {
	bus, err := modkit.New()
	if err != nil {
		log.Fatal(err)
	}
	censor := modkit.Typed(func(ctx context.Context, e *modkit.Event, msg string) (string, error) {
		return strings.ReplaceAll(msg, "darn", "d***"), nil
	})
	shout := modkit.Typed(func(ctx context.Context, e *modkit.Event, msg string) (string, error) {
		return strings.ToUpper(msg), nil
	})
	// Priorities, not registration order, decide: censor runs first.
	if _, err := bus.Mod("loud").Filter(modkit.ChatMessageSending, modkit.PriorityLate, shout); err != nil {
		log.Fatal(err)
	}
	if _, err := bus.Mod("clean-chat").Filter(modkit.ChatMessageSending, modkit.PriorityEarly, censor); err != nil {
		log.Fatal(err)
	}

	report, err := bus.Apply(context.Background(), modkit.ChatMessageSending, "darn creepers", modkit.Params{"sender": "Alex"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(report.Value)
	// Output: D*** CREEPERS
}

// A handler cancels a cancellable event; the handlers after it do not run.
func ExampleEvent_Cancel() {
	bus, err := modkit.New()
	if err != nil {
		log.Fatal(err)
	}
	banned := map[string]bool{"griefer42": true}
	_, err = bus.Mod("bans").On(modkit.PlayerConnecting, modkit.PriorityFirst, func(ctx context.Context, e *modkit.Event) error {
		name, err := modkit.ParamAs[string](e, "profile")
		if err != nil {
			return err
		}
		if banned[name] {
			return e.Cancel("You are banned from this server.")
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}

	report, err := bus.Fire(context.Background(), modkit.PlayerConnecting, modkit.Params{"profile": "griefer42", "address": "203.0.113.9"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("cancelled by %s: %s\n", report.CancelledBy, report.Reason)
	// Output: cancelled by bans: You are banned from this server.
}

// A failing or panicking handler does not stop the others; the error says
// which mod failed.
func ExampleHandlerError() {
	bus, err := modkit.New()
	if err != nil {
		log.Fatal(err)
	}
	bus.Mod("buggy").On(modkit.WorldLoaded, modkit.PriorityNormal, func(ctx context.Context, e *modkit.Event) error {
		var m map[string]int
		m["boom"]++ // panics: assignment to entry in nil map
		return nil
	})
	bus.Mod("minimap").On(modkit.WorldLoaded, modkit.PriorityNormal, func(ctx context.Context, e *modkit.Event) error {
		fmt.Println("minimap ready")
		return nil
	})

	report, err := bus.Fire(context.Background(), modkit.WorldLoaded, modkit.Params{"world": "overworld"})
	fmt.Println("handlers called:", report.Called)
	fmt.Println(err)
	var herr *modkit.HandlerError
	if errors.As(err, &herr) && errors.Is(herr, modkit.ErrPanic) {
		fmt.Println("disable mod", herr.Mod)
	}
	// Output:
	// minimap ready
	// handlers called: 2
	// mod "buggy", handler for world.loaded: handler panicked: assignment to entry in nil map
	// disable mod buggy
}

// Mistyped hook names are caught at registration, with a suggestion.
func ExampleMod_On_unknownHook() {
	bus, err := modkit.New()
	if err != nil {
		log.Fatal(err)
	}
	_, err = bus.Mod("greeter").On("player.joind", modkit.PriorityNormal, func(ctx context.Context, e *modkit.Event) error {
		return nil
	})
	fmt.Println(err)
	fmt.Println(errors.Is(err, modkit.ErrUnknownHook))
	// Output:
	// mod "greeter": unknown hook "player.joind" (did you mean "player.joined"?)
	// true
}
