// Package modkit is the hook layer of the modkit modding framework.
//
// The game declares its hooks in mod_hooks.json (see package registry); mods
// attach handlers to them through a Bus, and the game fires them. Two kinds of
// hook exist:
//
//   - events notify handlers (Mod.On, Bus.Fire); a cancellable event can be
//     cancelled by a handler with Event.Cancel, which stops the dispatch;
//   - filters pass a value through every handler in turn, each returning the
//     value the next receives (Mod.Filter, Bus.Apply).
//
// Handlers run in ascending priority order; handlers with equal priority run
// in registration order. A handler that returns an error or panics does not
// stop the others: its failure is recorded in the dispatch's Report and joined
// into the returned error. Registering for a hook the registry does not
// declare, or using a filter as an event, is an error.
//
// A Bus is safe for concurrent use: handlers may be registered and removed
// while hooks fire, and hooks may fire from several goroutines.
package modkit

//go:generate go run ../internal/hookgen -o hooks_gen.go

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/docs-mcp/docs-mcp/framework"
	"github.com/docs-mcp/docs-mcp/framework/registry"
)

// Errors a Bus reports; test for them with errors.Is.
var (
	ErrUnknownHook    = errors.New("unknown hook")
	ErrKindMismatch   = errors.New("wrong hook kind")
	ErrParams         = errors.New("parameters do not match the registry")
	ErrNotCancellable = errors.New("hook is not cancellable")
	ErrPanic          = errors.New("handler panicked")
	ErrFilterType     = errors.New("filter value has the wrong type")
)

// Priority orders handlers: lower values run first.
type Priority int

// Common priorities. Any int works; these leave room on either side.
const (
	PriorityFirst  Priority = -1000
	PriorityEarly  Priority = -100
	PriorityNormal Priority = 0
	PriorityLate   Priority = 100
	PriorityLast   Priority = 1000
)

// Params are the named parameters of one dispatch, as declared by the hook
// in the registry.
type Params map[string]any

// EventHandler handles an event. Returning an error records a failure; it
// does not cancel the event (use Event.Cancel for that).
type EventHandler func(ctx context.Context, e *Event) error

// FilterHandler transforms the value v of a filter hook and returns the value
// the next handler receives. When it returns an error, its result is
// discarded and the next handler receives v.
type FilterHandler func(ctx context.Context, e *Event, v any) (any, error)

// Bus holds the registered handlers and dispatches hooks to them.
type Bus struct {
	reg *registry.Registry
	log *slog.Logger

	mu       sync.RWMutex
	handlers map[string][]*handler // by hook; sorted; replaced, never mutated
	seq      uint64
}

type handler struct {
	mod    string
	prio   Priority
	seq    uint64
	event  EventHandler
	filter FilterHandler
}

// Option configures a Bus.
type Option func(*config)

type config struct {
	reg *registry.Registry
	log *slog.Logger
}

// WithRegistry makes the Bus use reg instead of the registry embedded in
// package framework. The registry must be valid.
func WithRegistry(reg *registry.Registry) Option {
	return func(c *config) { c.reg = reg }
}

// WithLogger sends the Bus's warnings (deprecated hooks) and handler failures
// to l. By default they are only reported to the caller.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.log = l }
}

// New returns a Bus for the hooks of the registry embedded in package
// framework (mod_hooks.json), or of the one given by WithRegistry.
func New(opts ...Option) (*Bus, error) {
	c := config{log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(&c)
	}
	if c.reg == nil {
		reg, err := registry.Parse(framework.RegistryJSON())
		if err != nil {
			return nil, fmt.Errorf("load embedded registry: %w", err)
		}
		c.reg = reg
	}
	if problems := c.reg.Validate(); len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.String()
		}
		return nil, fmt.Errorf("invalid hook registry: %s", strings.Join(msgs, "; "))
	}
	return &Bus{reg: c.reg, log: c.log, handlers: map[string][]*handler{}}, nil
}

// Registry returns the registry the Bus dispatches for.
func (b *Bus) Registry() *registry.Registry { return b.reg }

// Mod returns the handle through which the mod with the given id registers
// handlers. The id names the mod in reports and logs.
func (b *Bus) Mod(id string) *Mod { return &Mod{bus: b, id: id} }

// Mod registers handlers on behalf of one mod.
type Mod struct {
	bus *Bus
	id  string
}

// ID returns the mod's id.
func (m *Mod) ID() string { return m.id }

// On registers h for the event hook. It returns a function that removes the
// handler again (calling it more than once is harmless).
func (m *Mod) On(hook string, p Priority, h EventHandler) (remove func(), err error) {
	if h == nil {
		return nil, fmt.Errorf("mod %q: on %s: nil handler", m.id, hook)
	}
	return m.bus.add(m.id, hook, registry.Event, &handler{mod: m.id, prio: p, event: h})
}

// Filter registers h for the filter hook. It returns a function that removes
// the handler again.
func (m *Mod) Filter(hook string, p Priority, h FilterHandler) (remove func(), err error) {
	if h == nil {
		return nil, fmt.Errorf("mod %q: filter %s: nil handler", m.id, hook)
	}
	return m.bus.add(m.id, hook, registry.Filter, &handler{mod: m.id, prio: p, filter: h})
}

func (b *Bus) add(mod, hook string, kind registry.Kind, h *handler) (func(), error) {
	if mod == "" {
		return nil, fmt.Errorf("register %s: a mod needs an id", hook)
	}
	def, err := b.lookup(hook, kind)
	if err != nil {
		return nil, fmt.Errorf("mod %q: %w", mod, err)
	}
	if d := def.Deprecated; d != nil {
		b.log.Warn("handler registered for a deprecated hook",
			"mod", mod, "hook", hook, "since", d.Since, "replacement", d.Replacement)
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	h.seq = b.seq
	old := b.handlers[hook]
	i, _ := slices.BinarySearchFunc(old, h, func(a, t *handler) int {
		return cmp.Or(cmp.Compare(a.prio, t.prio), cmp.Compare(a.seq, t.seq))
	})
	b.handlers[hook] = slices.Insert(slices.Clip(old), i, h)

	var once sync.Once
	return func() { once.Do(func() { b.remove(hook, h) }) }, nil
}

func (b *Bus) remove(hook string, h *handler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	hs := b.handlers[hook]
	if i := slices.Index(hs, h); i >= 0 {
		b.handlers[hook] = slices.Delete(slices.Clone(hs), i, i+1)
	}
}

// lookup finds a hook and checks its kind.
func (b *Bus) lookup(name string, kind registry.Kind) (*registry.Hook, error) {
	def, ok := b.reg.Lookup(name)
	if !ok {
		msg := fmt.Sprintf("%q", name)
		if s := b.reg.Suggest(name, 3); len(s) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", quoteList(s))
		}
		return nil, fmt.Errorf("%w %s", ErrUnknownHook, msg)
	}
	if def.Kind != kind {
		use := "Fire and Mod.On"
		if def.Kind == registry.Filter {
			use = "Apply and Mod.Filter"
		}
		return nil, fmt.Errorf("%w: %s is a%s %s, not a%s %s; use %s",
			ErrKindMismatch, name, article(def.Kind), def.Kind, article(kind), kind, use)
	}
	return def, nil
}

func article(k registry.Kind) string {
	if k == registry.Event {
		return "n"
	}
	return ""
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// snapshot returns the handlers of a hook at this moment; the slice is never
// modified afterwards.
func (b *Bus) snapshot(hook string) []*handler {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.handlers[hook]
}

// Handlers returns the number of handlers registered for hook.
func (b *Bus) Handlers(hook string) int { return len(b.snapshot(hook)) }
