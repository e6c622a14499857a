package httpserver

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSessionsLifecycle walks one session through its states on a fake
// clock and checks what each id is worth at every step.
func TestSessionsLifecycle(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	s := newSessions(2, time.Minute)
	s.now = func() time.Time { return now }

	a := s.Generate()
	b := s.Generate()
	_, _, err := s.admit(context.Background())
	full := errors.Is(err, errSessionsFull)

	now = now.Add(50 * time.Second)
	aAlive := s.touch(a) == nil // b stays idle
	_, doneStream, err := s.openStream(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Minute) // b has expired; a has an open stream
	bAfter := s.touch(b)
	aStreaming := s.touch(a) == nil
	doneStream()
	now = now.Add(2 * time.Minute) // a idle since its stream closed
	aAfter := s.touch(a)
	_, release, err := s.admit(context.Background())
	if err != nil {
		t.Fatalf("admit after expiry: %v", err)
	}
	release()

	type states struct {
		FullAtCap, AAlive, AStreaming bool
		BExpired, AExpired            bool
		Live                          int
	}
	got := states{full, aAlive, aStreaming, errors.Is(bAfter, errUnknownSession), errors.Is(aAfter, errUnknownSession), s.count()}
	want := states{FullAtCap: true, AAlive: true, AStreaming: true, BExpired: true, AExpired: true, Live: 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if s.admitting != 0 {
		t.Errorf("admitting %d after release, want 0", s.admitting)
	}
}

// TestReservation checks that the id minted for an admitted request fills
// its own slot: live plus admitting never counts a session twice.
func TestReservation(t *testing.T) {
	s := newSessions(1, time.Minute)
	ctx, release, err := s.admit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r := s.ResolveSessionIdManager(nil)
	if r != s {
		t.Fatalf("without a request the manager is %T, want the sessions", r)
	}
	res := ctx.Value(reservationKey{}).(*reservation)
	id := res.Generate()
	release()
	release() // idempotent
	if diff := cmp.Diff([]int{1, 0}, []int{len(s.live), s.admitting}); diff != "" {
		t.Errorf("live, admitting (-want +got):\n%s", diff)
	}
	if _, err := s.Terminate(id); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate(id); !errors.Is(err, errUnknownSession) {
		t.Errorf("terminated id: %v, want errUnknownSession", err)
	}
}
