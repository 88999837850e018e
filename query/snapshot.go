package query

import (
	"context"
	"sync"

	"github.com/gpusql/gpusql/engine"
)

// A statement reads one committed version of every user table it names.
// The first time a statement resolves a table name, the table's current
// version is pinned; every later use of that name in the statement (a
// self-join, a subquery, a correlated subquery rebound per row) gets the
// same table and the same version. The pins are released when the
// statement ends (runStatement), so loads, appends and drops that commit
// meanwhile neither change nor free what the statement reads.

// pinSet holds the tables and versions one statement has pinned.
type pinSet struct {
	mu     sync.Mutex
	tables map[string]pinned
	closed bool
}

type pinned struct {
	t    *engine.Table
	snap *engine.Snapshot
}

type pinSetKey struct{}

// withPins gives ctx a pin set for one statement; release unpins
// everything the statement pinned. Nested calls share the outer set.
func withPins(ctx context.Context) (context.Context, func()) {
	if pinsOf(ctx) != nil {
		return ctx, func() {}
	}
	p := &pinSet{tables: map[string]pinned{}}
	return context.WithValue(ctx, pinSetKey{}, p), p.release
}

func pinsOf(ctx context.Context) *pinSet {
	p, _ := ctx.Value(pinSetKey{}).(*pinSet)
	return p
}

// table resolves name to its table and pinned data, through cat the first
// time and from the set afterwards.
func (p *pinSet) table(cat *engine.Catalog, name string) (*engine.Table, engine.TableData, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, nil, engine.Errorf(engine.CodeInternalError, "table %q read after its statement ended", name)
	}
	if e, ok := p.tables[name]; ok {
		return e.t, e.snap.Data(), nil
	}
	t, ok := cat.Lookup(name)
	if !ok {
		return nil, nil, engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", name)
	}
	s := t.Pin()
	p.tables[name] = pinned{t: t, snap: s}
	return t, s.Data(), nil
}

func (p *pinSet) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, e := range p.tables {
		e.snap.Release()
	}
	clear(p.tables)
}
