package query

import (
	"context"
	"sort"
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
	// deps are the user relations (tables and views) the statement's
	// own text names, not those that views it names read: what a view
	// defined by the statement's query depends on (relations.go).
	deps map[engine.ViewDep]bool
	// inView counts the views being bound, whose relations are not
	// the statement's own.
	inView int
	// sources map the user tables' data the statement reads (pinned, or
	// its block's) to their tables' counters, which the scans that run
	// count into (countScans).
	sources map[engine.TableData]*engine.TableCounters
	// empty are those of tables with no data (never loaded), whose scans
	// name them but have no data to match, by name; nil where two
	// tables of one name (a temporary one and a public one) are empty.
	empty map[string]*engine.TableCounters
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

// table resolves a table name to its table and pinned data, through find
// the first time and from the set afterwards. key identifies the name as
// the statement wrote it (with its schema, if any).
func (p *pinSet) table(key string, find func() (*engine.Table, error)) (*engine.Table, engine.TableData, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, nil, engine.Errorf(engine.CodeInternalError, "table %q read after its statement ended", key)
	}
	if e, ok := p.tables[key]; ok {
		p.noteLocked(e.t.Name, e.t.Ref())
		return e.t, e.snap.Data(), nil
	}
	t, err := find()
	if err != nil {
		return nil, nil, err
	}
	s, live := t.PinLive()
	if !live { // dropped between the lookup and the pin
		return nil, nil, engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", t.Name)
	}
	p.tables[key] = pinned{t: t, snap: s}
	p.noteLocked(t.Name, t.Ref())
	return t, s.Data(), nil
}

// source records that the statement reads data as user table t's.
func (p *pinSet) source(data engine.TableData, t *engine.Table) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if data == nil {
		if p.empty == nil {
			p.empty = map[string]*engine.TableCounters{}
		}
		c, seen := p.empty[t.Name]
		if seen && c != t.Counters() {
			p.empty[t.Name] = nil
		} else {
			p.empty[t.Name] = t.Counters()
		}
		return
	}
	if p.sources == nil {
		p.sources = map[engine.TableData]*engine.TableCounters{}
	}
	p.sources[data] = t.Counters()
}

// countScans counts every scan of a user table's data in tree r, which
// is about to run, into that table's counters: a scan and the rows it
// reads, as pg_stat_user_tables shows them. Both backends run the plans
// the server hands them, so counting here counts on either.
func (p *pinSet) countScans(r engine.Rel) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.sources) == 0 && len(p.empty) == 0 {
		return
	}
	var walk func(r engine.Rel)
	walk = func(r engine.Rel) {
		if pl, ok := r.(*engine.Plan); ok && pl.Input == nil && !pl.Host {
			switch {
			case pl.Data != nil:
				if c := p.sources[pl.Data]; c != nil {
					c.Scanned(pl.Data.Rows())
				}
			case pl.Table != "":
				if c := p.empty[pl.Table]; c != nil {
					c.Scanned(0)
				}
			}
		}
		for _, in := range r.Inputs() {
			walk(in)
		}
	}
	walk(r)
}

// note records that the statement's text names relation r as name.
func (p *pinSet) note(name string, r engine.RelRef) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.noteLocked(name, r)
}

func (p *pinSet) noteLocked(name string, r engine.RelRef) {
	if p.inView > 0 {
		return
	}
	if p.deps == nil {
		p.deps = map[engine.ViewDep]bool{}
	}
	p.deps[engine.ViewDep{Name: name, Rel: r}] = true
}

// enterView and leaveView bracket the binding of a view's query.
func (p *pinSet) enterView() { p.mu.Lock(); p.inView++; p.mu.Unlock() }
func (p *pinSet) leaveView() { p.mu.Lock(); p.inView--; p.mu.Unlock() }

// relations lists the user relations the statement's text named.
func (p *pinSet) relations() []engine.ViewDep {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]engine.ViewDep, 0, len(p.deps))
	for d := range p.deps {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Rel.Schema < b.Rel.Schema
	})
	return out
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
