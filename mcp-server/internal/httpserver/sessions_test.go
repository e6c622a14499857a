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
	s := newSessions(2, DefaultSessionStreams(2), time.Minute, time.Minute)
	s.now = func() time.Time { return now }

	a := s.Generate()
	b := s.Generate()
	for _, id := range []string{a, b} {
		s.live[id].inFlight++ // busy: admit may not make room
	}
	_, _, _, err := s.admit(context.Background(), "")
	full := errors.Is(err, errSessionsFull)
	for _, id := range []string{a, b} {
		s.live[id].inFlight--
	}

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
	_, release, evicted, err := s.admit(context.Background(), "")
	if err != nil || len(evicted) != 0 {
		t.Fatalf("admit after expiry: %v, %d sessions ended to make room, want none", err, len(evicted))
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
	s := newSessions(1, DefaultSessionStreams(1), time.Minute, time.Minute)
	ctx, release, _, err := s.admit(context.Background(), "")
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

// TestSessionsMakeRoom checks the policy at the cap: sessions never used
// since initialize go first (oldest first), then the one unused longest;
// sessions with a stream or a request in flight are never ended; only when
// all are busy is a new session refused. A session never used expires
// after the short initIdle.
func TestSessionsMakeRoom(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	s := newSessions(3, DefaultSessionStreams(3), time.Hour, time.Minute)
	s.now = func() time.Time { return now }
	tick := func() { now = now.Add(time.Second) }
	admit := func() (string, int, error) {
		ctx, release, evicted, err := s.admit(context.Background(), "")
		if err != nil {
			return "", 0, err
		}
		defer release()
		tick()
		return ctx.Value(reservationKey{}).(*reservation).Generate(), len(evicted), nil
	}
	mustAdmit := func() string {
		id, _, err := admit()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}

	used1, used2, idle := mustAdmit(), mustAdmit(), mustAdmit()
	s.touch(used1)
	tick()
	s.touch(used2)
	tick()
	fourth, evicted, err := admit() // idle was never used: it goes
	if err != nil || evicted != 1 {
		t.Fatalf("admit at the cap: %v, ended %d", err, evicted)
	}
	_, idleErr := s.Validate(idle)
	s.touch(fourth)
	tick()
	s.touch(used2)
	tick()
	mustAdmit() // used1 is the one unused longest
	_, used1Err := s.Validate(used1)

	// Now everything is busy: one stream, two requests in flight.
	_, doneStream, err := s.openStream(context.Background(), used2)
	if err != nil {
		t.Fatal(err)
	}
	var dones []func()
	for id := range s.live {
		if id != used2 {
			done, err := s.begin(id, true)
			if err != nil {
				t.Fatal(err)
			}
			dones = append(dones, done)
		}
	}
	_, _, errBusy := admit()
	for _, done := range dones {
		done()
	}
	tick()
	doneStream() // used2 is the one used last
	_, _, errAfter := admit()

	// A session never used expires after initIdle, a used one does not.
	now = now.Add(2 * time.Minute)
	unused := mustAdmit()
	now = now.Add(2 * time.Minute)
	_, unusedErr := s.Validate(unused)

	got := []bool{errors.Is(idleErr, errUnknownSession), errors.Is(used1Err, errUnknownSession),
		errors.Is(errBusy, errSessionsFull), errAfter == nil, errors.Is(unusedErr, errUnknownSession)}
	if diff := cmp.Diff([]bool{true, true, true, true, true}, got); diff != "" {
		t.Errorf("idle ended, used1 ended, refused when busy, admitted after, unused expired (-want +got):\n%s", diff)
	}
	if _, err := s.Validate(used2); err != nil {
		t.Errorf("used2, recently used, was ended: %v", err)
	}
}

// TestSessionsChurnEndsItsOwn fills the sessions with a script's, used
// more recently than a normal client's: at the cap, the script's next
// session ends one of the script's, not the client's idle one.
func TestSessionsChurnEndsItsOwn(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	s := newSessions(4, DefaultSessionStreams(4), time.Hour, time.Minute)
	s.now = func() time.Time { return now }
	open := func(client string) string {
		ctx, release, _, err := s.admit(context.Background(), client)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		id := ctx.Value(reservationKey{}).(*reservation).Generate()
		now = now.Add(time.Second)
		s.touch(id)
		return id
	}
	normal := open("192.0.2.1")
	for range 20 {
		open("192.0.2.66")
	}
	if _, err := s.Validate(normal); err != nil {
		t.Errorf("the normal client's session ended while a script churned: %v", err)
	}
	if n := s.count(); n != 4 {
		t.Errorf("%d sessions live, want the cap of 4", n)
	}
}

// TestSessionStreamsCap holds the sessions with a GET stream to
// --max-session-streams, whatever --max-sessions allows: past it a stream
// is refused, and a stream that closes makes room for another.
func TestSessionStreamsCap(t *testing.T) {
	s := newSessions(4, 1, time.Minute, time.Minute)
	a, b := s.Generate(), s.Generate()
	ctx := context.Background()
	_, doneA, err := s.openStream(ctx, a)
	if err != nil {
		t.Fatalf("first stream: %v", err)
	}
	if _, _, err := s.openStream(ctx, b); !errors.Is(err, errStreamsFull) {
		t.Fatalf("second stream: %v, want %v", err, errStreamsFull)
	}
	doneA()
	_, doneB, err := s.openStream(ctx, b)
	if err != nil {
		t.Fatalf("second stream once the first closed: %v", err)
	}
	doneB()
}
