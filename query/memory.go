package query

import (
	"context"

	"github.com/gpusql/gpusql/engine"
)

// The per-statement host memory limit: engine.WithMemoryBudget and
// engine.ChargeMemory (engine/membudget.go). This package charges the
// rows that collect materialises (subqueries folded into constants or IN
// lists, and the inputs the binder runs ahead of the plan); the CPU
// backend charges its own hash tables and sort buffers. Not charged:
// cursors (bounded by maxCursorBytes) and extended-protocol portals
// (bounded by the wire server's MaxPortalBuffer).

// withMemBudget gives ctx a budget of limit bytes (none when limit <= 0).
func withMemBudget(ctx context.Context, limit int64) context.Context {
	return engine.WithMemoryBudget(ctx, limit)
}

// chargeMemory counts n more bytes held by the statement of ctx.
func chargeMemory(ctx context.Context, n int64, what string) error {
	return engine.ChargeMemory(ctx, n, what)
}

// batchBytes estimates the host bytes that bt's rows take once copied.
func batchBytes(bt *engine.Batch) int64 { return engine.BatchBytes(bt) }
