package query

import (
	"context"
	"sync/atomic"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql/engine"
)

// The per-statement host memory limit (Options.MaxQueryMemory,
// --max-query-memory). A statement's budget lives in its context; the
// places in this package that materialise rows in host memory charge it
// as they grow, and a statement over its budget fails with 53200 and
// frees what it held, while the server and the other sessions go on.
//
// What is charged today: the rows that collect materialises (subqueries
// folded into constants or IN lists, and the inputs the binder runs
// ahead of the plan). Not charged: the backends' own working memory
// (hash tables of joins and aggregates, sort buffers), cursors (bounded
// by maxCursorBytes) and extended-protocol portals (bounded by the wire
// server's MaxPortalBuffer).

type memBudget struct {
	limit int64
	used  atomic.Int64
}

type memBudgetKey struct{}

// withMemBudget gives ctx a budget of limit bytes (none when limit <= 0).
func withMemBudget(ctx context.Context, limit int64) context.Context {
	if limit <= 0 {
		return ctx
	}
	return context.WithValue(ctx, memBudgetKey{}, &memBudget{limit: limit})
}

// chargeMemory counts n more bytes held by the statement of ctx.
func chargeMemory(ctx context.Context, n int64, what string) error {
	b, _ := ctx.Value(memBudgetKey{}).(*memBudget)
	if b == nil {
		return nil
	}
	if b.used.Add(n) > b.limit {
		return engine.Errorf(engine.CodeOutOfMemory, "out of memory").
			WithDetail("%s needs more than the statement's host memory limit of %s (--max-query-memory).",
				what, humanize.IBytes(uint64(b.limit)))
	}
	return nil
}

// batchBytes estimates the host bytes that rows [0, n) of bt's columns
// take once copied.
func batchBytes(bt *engine.Batch) int64 {
	var total int64
	for _, v := range bt.Cols {
		per := int64(8)
		switch engine.PhysOf(v.T.Kind) {
		case engine.PhysDec:
			per = 16
		case engine.PhysInterval:
			per = 16
		case engine.PhysStr:
			per = 24 // the slice header
			for i := 0; i < bt.N && i < len(v.S); i++ {
				total += int64(len(v.S[i]))
			}
		}
		if v.Null != nil {
			per++
		}
		total += per * int64(bt.N)
	}
	return total
}
