package modkit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/docs-mcp/docs-mcp/framework/registry"
)

func newBus(t testing.TB) *Bus {
	t.Helper()
	b, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func must(t testing.TB) func(func(), error) func() {
	return func(remove func(), err error) func() {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return remove
	}
}

var joinParams = Params{"player": "steve", "first_join": true}

// TestOrder checks priority order and registration order for ties.
func TestOrder(t *testing.T) {
	b := newBus(t)
	var got []string
	reg := func(mod string, p Priority) {
		must(t)(b.Mod(mod).On(PlayerJoined, p, func(context.Context, *Event) error {
			got = append(got, mod)
			return nil
		}))
	}
	reg("late", PriorityLate)
	reg("normal-1", PriorityNormal)
	reg("first", PriorityFirst)
	reg("normal-2", PriorityNormal)
	reg("early", PriorityEarly)
	reg("normal-3", PriorityNormal)
	reg("last", PriorityLast)

	rep, err := b.Fire(context.Background(), PlayerJoined, joinParams)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"first", "early", "normal-1", "normal-2", "normal-3", "late", "last"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("handler order mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&Report{Hook: PlayerJoined, Called: 7}, rep); diff != "" {
		t.Errorf("report mismatch (-want +got):\n%s", diff)
	}
}

// TestIsolation checks that failing and panicking handlers are reported and
// do not stop the others.
func TestIsolation(t *testing.T) {
	b := newBus(t)
	var ran []string
	boom := errors.New("boom")
	handlers := []struct {
		mod string
		fn  EventHandler
	}{
		{"ok-1", func(context.Context, *Event) error { ran = append(ran, "ok-1"); return nil }},
		{"fails", func(context.Context, *Event) error { ran = append(ran, "fails"); return boom }},
		{"panics", func(context.Context, *Event) error { ran = append(ran, "panics"); panic("nil map") }},
		{"ok-2", func(context.Context, *Event) error { ran = append(ran, "ok-2"); return nil }},
	}
	for _, h := range handlers {
		must(t)(b.Mod(h.mod).On(PlayerJoined, PriorityNormal, h.fn))
	}
	rep, err := b.Fire(context.Background(), PlayerJoined, joinParams)

	if diff := cmp.Diff([]string{"ok-1", "fails", "panics", "ok-2"}, ran); diff != "" {
		t.Errorf("handlers run mismatch (-want +got):\n%s", diff)
	}
	if !errors.Is(err, boom) || !errors.Is(err, ErrPanic) {
		t.Errorf("Fire error = %v; want it to wrap boom and ErrPanic", err)
	}
	var herr *HandlerError
	if !errors.As(err, &herr) || herr.Mod != "fails" {
		t.Errorf("errors.As(err, *HandlerError) = %v; want the failure of mod fails", herr)
	}
	want := []*HandlerError{
		{Hook: PlayerJoined, Mod: "fails", Err: boom},
		{Hook: PlayerJoined, Mod: "panics", Err: fmt.Errorf("%w: nil map", ErrPanic)},
	}
	opts := cmp.Options{
		cmpopts.IgnoreFields(HandlerError{}, "Stack"),
		cmp.Comparer(func(a, b error) bool { return a.Error() == b.Error() }),
	}
	if diff := cmp.Diff(want, rep.Failures, opts); diff != "" {
		t.Errorf("failures mismatch (-want +got):\n%s", diff)
	}
	if rep.Called != 4 {
		t.Errorf("Called = %d, want 4", rep.Called)
	}
	if !strings.Contains(string(rep.Failures[1].Stack), "bus_test.go") {
		t.Errorf("panic stack does not show the handler:\n%s", rep.Failures[1].Stack)
	}
}

func TestCancel(t *testing.T) {
	tests := []struct {
		name    string
		hook    string
		params  Params
		want    *Report
		wantErr error
	}{
		{
			name:   "cancellable event stops the dispatch",
			hook:   PlayerConnecting,
			params: Params{"profile": "steve", "address": "10.0.0.7"},
			want:   &Report{Hook: PlayerConnecting, Called: 2, Cancelled: true, CancelledBy: "bans", Reason: "banned"},
		},
		{
			name:    "cancelling a plain event fails that handler only",
			hook:    PlayerJoined,
			params:  joinParams,
			want:    &Report{Hook: PlayerJoined, Called: 3},
			wantErr: ErrNotCancellable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBus(t)
			noop := func(context.Context, *Event) error { return nil }
			var (
				hook          string
				before, after bool
			)
			must(t)(b.Mod("audit").On(tt.hook, PriorityEarly, noop))
			must(t)(b.Mod("bans").On(tt.hook, PriorityNormal, func(_ context.Context, e *Event) error {
				hook, before = e.Hook(), e.Cancelled()
				err := e.Cancel("banned")
				after = e.Cancelled()
				return err
			}))
			must(t)(b.Mod("greeter").On(tt.hook, PriorityLate, noop))

			rep, err := b.Fire(context.Background(), tt.hook, tt.params)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Errorf("Fire error = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, rep, cmpopts.IgnoreFields(Report{}, "Failures")); diff != "" {
				t.Errorf("report mismatch (-want +got):\n%s", diff)
			}
			if hook != tt.hook {
				t.Errorf("Event.Hook() = %q, want %q", hook, tt.hook)
			}
			if before || after != tt.want.Cancelled {
				t.Errorf("Event.Cancelled() = %v before Cancel and %v after, want false and %v", before, after, tt.want.Cancelled)
			}
		})
	}
}

func TestApply(t *testing.T) {
	upper := Typed(func(_ context.Context, _ *Event, s string) (string, error) { return strings.ToUpper(s), nil })
	exclaim := Typed(func(_ context.Context, _ *Event, s string) (string, error) { return s + "!", nil })
	fails := func(context.Context, *Event, any) (any, error) { return "ignored", errors.New("db down") }
	wrongType := func(context.Context, *Event, any) (any, error) { return 42, nil }
	panics := func(context.Context, *Event, any) (any, error) { panic("oops") }
	seesCurrent := func(_ context.Context, e *Event, v any) (any, error) {
		if e.Param("message") != v {
			return v, fmt.Errorf("Param(message) = %v, want the current value %v", e.Param("message"), v)
		}
		return v, nil
	}

	tests := []struct {
		name     string
		handlers []FilterHandler // registered in order, priority by position
		value    any
		want     any
		failures []string
	}{
		{name: "no handlers", value: "hi", want: "hi"},
		{name: "chain in priority order", handlers: []FilterHandler{upper, exclaim}, value: "hi", want: "HI!"},
		{name: "failing handler is skipped", handlers: []FilterHandler{fails, upper}, value: "hi", want: "HI",
			failures: []string{`mod "m0", handler for chat.message_sending: db down`}},
		{name: "wrong type is skipped", handlers: []FilterHandler{upper, wrongType, exclaim}, value: "hi", want: "HI!",
			failures: []string{`mod "m1", handler for chat.message_sending: filter value has the wrong type: got int, want string`}},
		{name: "panic is skipped", handlers: []FilterHandler{panics, exclaim}, value: "hi", want: "hi!",
			failures: []string{`mod "m0", handler for chat.message_sending: handler panicked: oops`}},
		{name: "typed handler rejects other types", handlers: []FilterHandler{upper}, value: 7, want: 7,
			failures: []string{`mod "m0", handler for chat.message_sending: filter value has the wrong type: got int, want string`}},
		{name: "event sees the current value", handlers: []FilterHandler{upper, seesCurrent}, value: "hi", want: "HI"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBus(t)
			for i, h := range tt.handlers {
				must(t)(b.Mod(fmt.Sprintf("m%d", i)).Filter(ChatMessageSending, Priority(i), h))
			}
			rep, err := b.Apply(context.Background(), ChatMessageSending, tt.value, Params{"sender": "steve"})
			if rep == nil {
				t.Fatalf("Apply returned no report: %v", err)
			}
			if diff := cmp.Diff(tt.want, rep.Value); diff != "" {
				t.Errorf("value mismatch (-want +got):\n%s", diff)
			}
			var got []string
			for _, f := range rep.Failures {
				got = append(got, f.Error())
			}
			if diff := cmp.Diff(tt.failures, got); diff != "" {
				t.Errorf("failures mismatch (-want +got):\n%s", diff)
			}
			if (err != nil) != (len(tt.failures) > 0) {
				t.Errorf("Apply error = %v with %d failures", err, len(tt.failures))
			}
		})
	}
}

// TestMisuse covers calls that are the caller's mistake.
func TestMisuse(t *testing.T) {
	b := newBus(t)
	noop := func(context.Context, *Event) error { return nil }
	id := func(_ context.Context, _ *Event, v any) (any, error) { return v, nil }
	ctx := context.Background()
	tests := []struct {
		name    string
		call    func() error
		wantIs  error
		wantMsg string
	}{
		{"unknown hook", func() error { _, err := b.Mod("m").On("player.joind", 0, noop); return err },
			ErrUnknownHook, `mod "m": unknown hook "player.joind" (did you mean "player.joined"?)`},
		{"unknown hook, nothing close", func() error { _, err := b.Fire(ctx, "nope.nothing_here", nil); return err },
			ErrUnknownHook, `fire: unknown hook "nope.nothing_here"`},
		{"On for a filter", func() error { _, err := b.Mod("m").On(ChatMessageSending, 0, noop); return err },
			ErrKindMismatch, `mod "m": wrong hook kind: chat.message_sending is a filter, not an event; use Apply and Mod.Filter`},
		{"Filter for an event", func() error { _, err := b.Mod("m").Filter(PlayerJoined, 0, id); return err },
			ErrKindMismatch, `mod "m": wrong hook kind: player.joined is an event, not a filter; use Fire and Mod.On`},
		{"Fire a filter", func() error { _, err := b.Fire(ctx, ChatMessageSending, nil); return err },
			ErrKindMismatch, `fire: wrong hook kind: chat.message_sending is a filter, not an event; use Apply and Mod.Filter`},
		{"Apply an event", func() error { _, err := b.Apply(ctx, PlayerJoined, "x", nil); return err },
			ErrKindMismatch, `apply: wrong hook kind: player.joined is an event, not a filter; use Fire and Mod.On`},
		{"missing and unknown params", func() error { _, err := b.Fire(ctx, PlayerJoined, Params{"player": 1, "plyer": 2, "x": 3}); return err },
			ErrParams, `fire: parameters do not match the registry: player.joined: missing first_join; unknown plyer, x`},
		{"filter value passed as a param", func() error {
			_, err := b.Apply(ctx, ChatMessageSending, "hi", Params{"sender": 1, "message": "hi"})
			return err
		}, ErrParams, `apply: parameters do not match the registry: chat.message_sending: unknown message`},
		{"nil handler", func() error { _, err := b.Mod("m").On(PlayerJoined, 0, nil); return err },
			nil, `mod "m": on player.joined: nil handler`},
		{"mod without id", func() error { _, err := b.Mod("").On(PlayerJoined, 0, noop); return err },
			nil, `register player.joined: a mod needs an id`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if err == nil {
				t.Fatal("no error")
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v does not match %v", err, tt.wantIs)
			}
			if err.Error() != tt.wantMsg {
				t.Errorf("error = %q\nwant    %q", err.Error(), tt.wantMsg)
			}
		})
	}
	if n := b.Handlers(PlayerJoined) + b.Handlers(ChatMessageSending); n != 0 {
		t.Errorf("failed registrations left %d handlers", n)
	}
}

func TestRemove(t *testing.T) {
	b := newBus(t)
	var got []string
	add := func(mod string) func() {
		return must(t)(b.Mod(mod).On(PlayerJoined, 0, func(context.Context, *Event) error {
			got = append(got, mod)
			return nil
		}))
	}
	add("a")
	removeB := add("b")
	add("c")
	removeB()
	removeB() // harmless
	if _, err := b.Fire(context.Background(), PlayerJoined, joinParams); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "c"}, got); diff != "" {
		t.Errorf("handlers after remove (-want +got):\n%s", diff)
	}
}

// TestRegisterDuringDispatch: a handler that registers another handler does
// not change the dispatch in progress and does not deadlock.
func TestRegisterDuringDispatch(t *testing.T) {
	b := newBus(t)
	calls := 0
	must(t)(b.Mod("a").On(PlayerJoined, 0, func(context.Context, *Event) error {
		calls++
		_, err := b.Mod("late").On(PlayerJoined, PriorityLast, func(context.Context, *Event) error { calls++; return nil })
		return err
	}))
	rep, err := b.Fire(context.Background(), PlayerJoined, joinParams)
	if err != nil || rep.Called != 1 || calls != 1 {
		t.Errorf("first Fire: called %d handlers (%d calls), err %v; want 1, 1, nil", rep.Called, calls, err)
	}
	if got := b.Handlers(PlayerJoined); got != 2 {
		t.Errorf("Handlers = %d after registering during dispatch, want 2", got)
	}
}

func TestContextCancelled(t *testing.T) {
	b := newBus(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	called := 0
	for _, mod := range []string{"a", "b", "c"} {
		must(t)(b.Mod(mod).On(PlayerJoined, 0, func(context.Context, *Event) error {
			called++
			if called == 2 {
				cancel()
			}
			return nil
		}))
	}
	rep, err := b.Fire(ctx, PlayerJoined, joinParams)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Fire error = %v, want context.Canceled", err)
	}
	if rep.Called != 2 || called != 2 {
		t.Errorf("Called = %d (%d calls), want 2", rep.Called, called)
	}
}

// TestConcurrent registers, removes and fires from many goroutines; run it
// with -race.
func TestConcurrent(t *testing.T) {
	b := newBus(t)
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			mod := b.Mod(fmt.Sprintf("mod-%d", g))
			for i := range 50 {
				remove, err := mod.On(PlayerJoined, Priority(i%3), func(context.Context, *Event) error {
					mu.Lock()
					total++
					mu.Unlock()
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := b.Fire(context.Background(), PlayerJoined, joinParams); err != nil {
					t.Error(err)
				}
				if i%2 == 0 {
					remove()
				}
			}
		})
	}
	wg.Wait()
	if got := b.Handlers(PlayerJoined); got != 8*25 {
		t.Errorf("Handlers = %d, want %d", got, 8*25)
	}
	if total == 0 {
		t.Error("no handler ran")
	}
}

func TestNewRejectsInvalidRegistry(t *testing.T) {
	reg := &registry.Registry{Version: "1.0.0", Framework: "modkit", Hooks: []registry.Hook{{Name: "Bad"}}}
	_, err := New(WithRegistry(reg))
	if err == nil || !strings.Contains(err.Error(), `invalid hook registry: hook "Bad": category is missing`) {
		t.Errorf("New with an invalid registry: err = %v", err)
	}
}

// TestWithLogger checks what a Bus logs: a handler registered for a
// deprecated hook, a handler that fails, and one that panics.
func TestWithLogger(t *testing.T) {
	var out bytes.Buffer
	b, err := New(WithLogger(slog.New(slog.NewJSONHandler(&out, nil))))
	if err != nil {
		t.Fatal(err)
	}
	must(t)(b.Mod("old").On(PlayerQuit, PriorityNormal, func(context.Context, *Event) error { return nil }))
	must(t)(b.Mod("fails").On(PlayerJoined, PriorityNormal, func(context.Context, *Event) error { return errors.New("boom") }))
	must(t)(b.Mod("panics").On(PlayerJoined, PriorityLate, func(context.Context, *Event) error { panic("kaboom") }))
	if _, err := b.Fire(context.Background(), PlayerJoined, joinParams); err == nil {
		t.Fatal("Fire: no error from a failing and a panicking handler")
	}

	type record struct {
		Level, Msg, Mod, Hook, Since, Replacement, Err, Panic string
	}
	var got []record
	for line := range strings.Lines(out.String()) {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		got = append(got, r)
	}
	want := []record{
		{Level: "WARN", Msg: "handler registered for a deprecated hook", Mod: "old", Hook: PlayerQuit, Since: "0.4.0", Replacement: PlayerLeft},
		{Level: "WARN", Msg: "hook handler failed", Mod: "fails", Hook: PlayerJoined, Err: "boom"},
		{Level: "ERROR", Msg: "hook handler panicked", Mod: "panics", Hook: PlayerJoined, Panic: "kaboom"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log mismatch (-want +got):\n%s", diff)
	}
}

// TestRegistryAndModID checks that a Bus says which registry it dispatches
// for, and a Mod its id.
func TestRegistryAndModID(t *testing.T) {
	reg := embedded(t)
	b, err := New(WithRegistry(reg))
	if err != nil {
		t.Fatal(err)
	}
	if b.Registry() != reg {
		t.Error("Registry() is not the registry given by WithRegistry")
	}
	if _, ok := newBus(t).Registry().Lookup(PlayerJoined); !ok {
		t.Errorf("the default Bus's Registry() lacks %s: not the embedded registry", PlayerJoined)
	}
	if id := b.Mod("bans").ID(); id != "bans" {
		t.Errorf(`Mod("bans").ID() = %q`, id)
	}
}

func TestParamAs(t *testing.T) {
	b := newBus(t)
	var gotFirst bool
	var errs []string
	must(t)(b.Mod("m").On(PlayerJoined, 0, func(_ context.Context, e *Event) error {
		var err error
		gotFirst, err = ParamAs[bool](e, "first_join")
		if err != nil {
			return err
		}
		if _, err := ParamAs[int](e, "player"); err != nil {
			errs = append(errs, err.Error())
		}
		if _, err := ParamAs[string](e, "nope"); err != nil {
			errs = append(errs, err.Error())
		}
		return nil
	}))
	if _, err := b.Fire(context.Background(), PlayerJoined, joinParams); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`player.joined: parameter "player" is a string, not a int`,
		`player.joined has no parameter "nope"`,
	}
	if !gotFirst {
		t.Error(`ParamAs[bool](e, "first_join") = false, want true`)
	}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("ParamAs errors (-want +got):\n%s", diff)
	}
}

func BenchmarkFire(b *testing.B) {
	bus := newBus(b)
	for i := range 10 {
		if _, err := bus.Mod(fmt.Sprintf("m%d", i)).On(PlayerJoined, Priority(i), func(context.Context, *Event) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bus.Fire(ctx, PlayerJoined, joinParams); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApply(b *testing.B) {
	bus := newBus(b)
	for i := range 10 {
		h := Typed(func(_ context.Context, _ *Event, s string) (string, error) { return s, nil })
		if _, err := bus.Mod(fmt.Sprintf("m%d", i)).Filter(ChatMessageSending, Priority(i), h); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	params := Params{"sender": "steve"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bus.Apply(ctx, ChatMessageSending, "hello", params); err != nil {
			b.Fatal(err)
		}
	}
}
