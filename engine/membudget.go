package engine

import (
	"context"
	"sync/atomic"

	"github.com/dustin/go-humanize"
)

// The per-statement host memory limit (--max-query-memory). A statement's
// budget lives in its context (WithMemoryBudget); whatever builds a large
// structure in host memory for the statement charges it as the structure
// grows (ChargeMemory): the query layer for the rows it materialises, the
// CPU backend for its hash tables (GROUP BY, joins, DISTINCT, set
// operations), the rows it buffers to sort and its sort permutations. A
// charge past the budget fails with 53200; the statement then returns,
// its memory becomes garbage, and the server and the other sessions go
// on. Charges are estimates of what the structures hold (slots, keys,
// copied strings), not allocator statistics, and a statement's charges
// only add up: what a finished step held stays counted to the end of the
// statement.

type memBudget struct {
	limit int64
	used  atomic.Int64
}

type memBudgetKey struct{}

// WithMemoryBudget gives ctx a budget of limit bytes (none when limit <= 0).
func WithMemoryBudget(ctx context.Context, limit int64) context.Context {
	if limit <= 0 {
		return ctx
	}
	return context.WithValue(ctx, memBudgetKey{}, &memBudget{limit: limit})
}

// HasMemoryBudget reports whether ctx carries a budget, so that a caller
// can skip estimating what it would charge.
func HasMemoryBudget(ctx context.Context) bool {
	_, ok := ctx.Value(memBudgetKey{}).(*memBudget)
	return ok
}

// ChargeMemory counts n more bytes held by the statement of ctx, for
// what (a phrase such as "the hash table of a join"); past the budget it
// is 53200. It is safe for concurrent use.
func ChargeMemory(ctx context.Context, n int64, what string) error {
	b, _ := ctx.Value(memBudgetKey{}).(*memBudget)
	if b == nil || n <= 0 {
		return nil
	}
	if b.used.Add(n) > b.limit {
		return Errorf(CodeOutOfMemory, "out of memory").
			WithDetail("%s needs more than the statement's host memory limit of %s (--max-query-memory).",
				what, humanize.IBytes(uint64(b.limit)))
	}
	return nil
}

// SlotBytes is the host bytes one row of a vector of type t takes, not
// counting a string's bytes (its slice header only) and with its NULL
// flag.
func SlotBytes(t Type) int64 {
	switch PhysOf(t.Kind) {
	case PhysDec, PhysInterval:
		return 17
	case PhysStr:
		return 25
	}
	return 9
}

// BatchBytes estimates the host bytes that bt's rows take once copied.
func BatchBytes(bt *Batch) int64 {
	var total int64
	for _, v := range bt.Cols {
		total += SlotBytes(v.T) * int64(bt.N)
		if PhysOf(v.T.Kind) == PhysStr {
			for i := 0; i < bt.N && i < len(v.S); i++ {
				total += int64(len(v.S[i]))
			}
		}
	}
	return total
}
