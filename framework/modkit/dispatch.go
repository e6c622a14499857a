package modkit

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/docs-mcp/docs-mcp/framework/registry"
)

// Event is what a handler receives: the hook being dispatched and its
// parameters. It is valid only while the handler runs and is not safe for
// concurrent use.
type Event struct {
	hook        *registry.Hook
	params      Params
	mod         string // the mod whose handler is running
	cancelled   bool
	cancelledBy string
	reason      string
}

// Hook returns the name of the hook being dispatched.
func (e *Event) Hook() string { return e.hook.Name }

// Param returns the named parameter, or nil when the hook has no such
// parameter. For a filter, its first parameter is the current value.
func (e *Event) Param(name string) any { return e.params[name] }

// Cancel cancels a cancellable event: the handlers after this one do not
// run, and the game does not perform the action. It returns
// ErrNotCancellable for any other hook, so a handler can write
// `return e.Cancel("reason")`.
func (e *Event) Cancel(reason string) error {
	if e.hook.Kind != registry.Event || !e.hook.Cancellable {
		return fmt.Errorf("%w: %s", ErrNotCancellable, e.hook.Name)
	}
	e.cancelled, e.cancelledBy, e.reason = true, e.mod, reason
	return nil
}

// Cancelled reports whether a handler cancelled the event.
func (e *Event) Cancelled() bool { return e.cancelled }

// ParamAs returns the named parameter as a T, or an error when it is missing
// or has another type.
func ParamAs[T any](e *Event, name string) (T, error) {
	var zero T
	v, ok := e.params[name]
	if !ok {
		return zero, fmt.Errorf("%s has no parameter %q", e.hook.Name, name)
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("%s: parameter %q is a %T, not a %s", e.hook.Name, name, v, reflect.TypeFor[T]())
	}
	return t, nil
}

// Typed adapts a filter handler for values of type T. The adapted handler
// fails with ErrFilterType when the value is not a T.
func Typed[T any](fn func(ctx context.Context, e *Event, v T) (T, error)) FilterHandler {
	return func(ctx context.Context, e *Event, v any) (any, error) {
		t, ok := v.(T)
		if !ok {
			return v, fmt.Errorf("%w: got %T, want %s", ErrFilterType, v, reflect.TypeFor[T]())
		}
		return fn(ctx, e, t)
	}
}

// Report tells what one dispatch did.
type Report struct {
	Hook        string
	Called      int             // handlers that ran
	Cancelled   bool            // a handler cancelled the event
	CancelledBy string          // the mod that cancelled it
	Reason      string          // the reason it gave
	Value       any             // filters: the final value
	Failures    []*HandlerError // handlers that failed or panicked, in order
}

// HandlerError is the failure of one handler. Unwrap gives the handler's
// error; a panic unwraps to ErrPanic.
type HandlerError struct {
	Hook     string
	Mod      string
	Priority Priority
	Err      error
	Stack    []byte // the goroutine's stack when the handler panicked
}

func (e *HandlerError) Error() string {
	return fmt.Sprintf("mod %q, handler for %s: %v", e.Mod, e.Hook, e.Err)
}

func (e *HandlerError) Unwrap() error { return e.Err }

// Fire dispatches the event hook to its handlers in priority order and
// reports what happened. params must hold exactly the hook's declared
// parameters.
//
// The returned error joins every handler failure (each a *HandlerError) and,
// when ctx ends mid-dispatch, ctx's error; the Report is returned either
// way. Misuse (an unknown hook, a filter, wrong parameters) returns a nil
// Report and an error matching ErrUnknownHook, ErrKindMismatch or ErrParams.
func (b *Bus) Fire(ctx context.Context, hook string, params Params) (*Report, error) {
	def, err := b.lookup(hook, registry.Event)
	if err != nil {
		return nil, fmt.Errorf("fire: %w", err)
	}
	if err := checkParams(def, def.Params, params); err != nil {
		return nil, fmt.Errorf("fire: %w", err)
	}
	e := &Event{hook: def, params: maps.Clone(params)}
	rep := &Report{Hook: hook}
	err = b.dispatch(ctx, e, rep, func(h *handler) (*HandlerError, bool) {
		herr := b.call(def, h, func() error { return h.event(ctx, e) })
		if e.cancelled {
			rep.Cancelled, rep.CancelledBy, rep.Reason = true, e.cancelledBy, e.reason
		}
		return herr, e.cancelled
	})
	return rep, err
}

// Apply passes value through the handlers of the filter hook in priority
// order and reports the result in Report.Value. value is the hook's first
// declared parameter; params hold the others.
//
// A handler that fails, panics, or returns a value of another type than the
// one it received is skipped: the next handler receives the value it was
// given. Errors are reported as for Fire.
func (b *Bus) Apply(ctx context.Context, hook string, value any, params Params) (*Report, error) {
	def, err := b.lookup(hook, registry.Filter)
	if err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	first := def.Params[0].Name // Validate guarantees filters have one
	if err := checkParams(def, def.Params[1:], params); err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	e := &Event{hook: def, params: maps.Clone(params)}
	if e.params == nil {
		e.params = Params{}
	}
	rep := &Report{Hook: hook, Value: value}
	err = b.dispatch(ctx, e, rep, func(h *handler) (*HandlerError, bool) {
		e.params[first] = rep.Value
		var out any
		herr := b.call(def, h, func() error {
			var err error
			out, err = h.filter(ctx, e, rep.Value)
			if err == nil && rep.Value != nil && reflect.TypeOf(out) != reflect.TypeOf(rep.Value) {
				err = fmt.Errorf("%w: got %T, want %T", ErrFilterType, out, rep.Value)
			}
			return err
		})
		if herr == nil {
			rep.Value = out
		}
		return herr, false
	})
	return rep, err
}

// dispatch hands e to the hook's handlers in priority order, one at a
// time through one, which says whether to stop there. It counts the calls
// and the failures in rep, and stops early when ctx ends. The error joins
// every failure and, when ctx ended, ctx's error.
func (b *Bus) dispatch(ctx context.Context, e *Event, rep *Report, one func(*handler) (*HandlerError, bool)) error {
	var errs []error
	for _, h := range b.snapshot(rep.Hook) {
		if err := ctx.Err(); err != nil {
			errs = append(errs, fmt.Errorf("%s: dispatch stopped after %d handlers: %w", rep.Hook, rep.Called, err))
			break
		}
		e.mod = h.mod
		rep.Called++
		herr, stop := one(h)
		if herr != nil {
			rep.Failures = append(rep.Failures, herr)
			errs = append(errs, herr)
		}
		if stop {
			break
		}
	}
	return errors.Join(errs...)
}

// call runs one handler, turning an error or a panic into a *HandlerError.
func (b *Bus) call(def *registry.Hook, h *handler, run func() error) (herr *HandlerError) {
	defer func() {
		if r := recover(); r != nil {
			herr = &HandlerError{
				Hook: def.Name, Mod: h.mod, Priority: h.prio,
				Err: fmt.Errorf("%w: %v", ErrPanic, r), Stack: debug.Stack(),
			}
			b.log.Error("hook handler panicked", "hook", def.Name, "mod", h.mod, "panic", r, "stack", string(herr.Stack))
		}
	}()
	if err := run(); err != nil {
		b.log.Warn("hook handler failed", "hook", def.Name, "mod", h.mod, "err", err)
		return &HandlerError{Hook: def.Name, Mod: h.mod, Priority: h.prio, Err: err}
	}
	return nil
}

// checkParams reports whether got holds exactly the declared parameters.
func checkParams(def *registry.Hook, want []registry.Param, got Params) error {
	var missing, unknown []string
	for _, p := range want {
		if _, ok := got[p.Name]; !ok {
			missing = append(missing, p.Name)
		}
	}
	for name := range got {
		if !slices.ContainsFunc(want, func(p registry.Param) bool { return p.Name == name }) {
			unknown = append(unknown, name)
		}
	}
	if len(missing) == 0 && len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+strings.Join(missing, ", "))
	}
	if len(unknown) > 0 {
		parts = append(parts, "unknown "+strings.Join(unknown, ", "))
	}
	return fmt.Errorf("%w: %s: %s", ErrParams, def.Name, strings.Join(parts, "; "))
}
