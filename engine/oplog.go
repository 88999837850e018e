package engine

import (
	"context"
	"sync"
	"time"
)

// OpLog records, for EXPLAIN ANALYZE, the rows each node of a plan tree
// produced and the time it took (on the GPU, until its output was on the
// device). A backend records each node it runs into the log that the
// statement's context carries, if any.
type OpLog struct {
	mu   sync.Mutex
	ops  map[Rel]OpStat
	root *Plan // the tree as executed, after the server's last rewrites
}

// OpStat is what one node did; a node run more than once adds up.
type OpStat struct {
	Rows  int64
	Time  time.Duration
	Loops int
}

type opLogKey struct{}

// WithOpLog returns a context whose backend records into the returned log.
func WithOpLog(ctx context.Context) (context.Context, *OpLog) {
	l := &OpLog{ops: map[Rel]OpStat{}}
	return context.WithValue(ctx, opLogKey{}, l), l
}

// OpLogOf returns the context's log; nil (which records nothing) when
// there is none.
func OpLogOf(ctx context.Context) *OpLog {
	l, _ := ctx.Value(opLogKey{}).(*OpLog)
	return l
}

// Record adds a run of node r.
func (l *OpLog) Record(r Rel, rows int64, d time.Duration) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.ops[r]
	s.Rows += rows
	s.Time += d
	s.Loops++
	l.ops[r] = s
}

// Stat returns what node r did, and whether it ran.
func (l *OpLog) Stat(r Rel) (OpStat, bool) {
	if l == nil {
		return OpStat{}, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.ops[r]
	return s, ok
}

// SetRoot records the tree the backend was given. The server rewrites a
// plan just before running it (time zones, the optimizer), so the nodes
// Record sees are that tree's, and EXPLAIN ANALYZE prints it.
func (l *OpLog) SetRoot(p *Plan) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.root = p
}

// Root returns the tree SetRoot recorded, or nil.
func (l *OpLog) Root() *Plan {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.root
}
