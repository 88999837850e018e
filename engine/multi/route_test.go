package multi

import (
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// probeLeaf picks the split table a tree is linear in, and only such.
func TestProbeLeaf(t *testing.T) {
	b := New([]engine.Backend{nil, nil}, []string{"a", "b"}, nil, Options{})
	host := func(rows int64) engine.TableData { return &engine.HostTable{N: rows} }
	split := func(rows int64) *engine.Plan {
		tb := b.newTable("t", []segment{newSegment(0, host(rows/2)), newSegment(1, host(rows-rows/2))})
		return &engine.Plan{Table: "t", Data: tb, Limit: -1}
	}
	big, small, whole := split(1000), split(10), &engine.Plan{Table: "w", Data: host(5000), Limit: -1}
	join := func(k engine.JoinKind, l, r engine.Rel) *engine.Join { return &engine.Join{Kind: k, Left: l, Right: r} }
	agg := &engine.Plan{Input: big, Aggregate: true, Limit: -1}
	limited := &engine.Plan{Input: big, Limit: 5}
	for _, c := range []struct {
		name string
		r    engine.Rel
		want *engine.Plan
	}{
		{"inner: the larger side", join(engine.JoinInner, small, big), big},
		{"inner: the split side over a host table", join(engine.JoinInner, whole, small), small},
		{"left: its left", join(engine.JoinLeft, small, big), small},
		{"right: its right", join(engine.JoinRight, big, small), small},
		{"semi: its left", join(engine.JoinSemi, big, small), big},
		{"anti NOT IN: its left", join(engine.JoinAntiNull, small, big), small},
		{"full: none", join(engine.JoinFull, big, small), nil},
		{"left with the split table right: none", join(engine.JoinLeft, whole, big), nil},
		{"through an aggregate: none", join(engine.JoinInner, agg, whole), nil},
		{"through a limit: none", join(engine.JoinInner, limited, whole), nil},
		{"set operation: none", &engine.SetOp{Left: big, Right: small}, nil},
		{"row-wise plan over a join", &engine.Plan{Input: join(engine.JoinInner, big, whole), Limit: -1}, big},
	} {
		if got := probeLeaf(c.r); got != c.want {
			t.Errorf("%s: probe %v, want %v", c.name, got, c.want)
		}
	}
}

// A large probe table splits only with the other tables a quarter of its
// size or less in all; a small one always.
func TestBroadcastable(t *testing.T) {
	b := New([]engine.Backend{nil, nil}, []string{"a", "b"}, nil, Options{})
	leaf := func(rows int64) *engine.Plan {
		tb := b.newTable("t", []segment{newSegment(0, &engine.HostTable{N: rows / 2}), newSegment(1, &engine.HostTable{N: rows - rows/2})})
		return &engine.Plan{Data: tb, Limit: -1}
	}
	for _, c := range []struct {
		probe, other int64
		want         bool
	}{{40 << 20, 10 << 20, true}, {40 << 20, 10<<20 + 1, false}, {1000, 1 << 30, true}} {
		probe := leaf(c.probe)
		p := &engine.Plan{Input: &engine.Join{Left: probe, Right: leaf(c.other)}, Limit: -1}
		if got := broadcastable(p, probe); got != c.want {
			t.Errorf("probe %d rows, other %d: broadcastable %v, want %v", c.probe, c.other, got, c.want)
		}
	}
}
