package engine

import (
	"context"
	"fmt"
	"sync"
)

// A device backend runs a HostFunc it has no kernel for as a host step:
// the device computes the function's arguments, the host runs Fn on the
// distinct argument tuples, and the results go back to the device as a
// temporary column (engine/gpu/hoststep.go). Host steps are never silent:
// EXPLAIN names them (Explainer) and EXPLAIN ANALYZE reports what each
// sent to the host (StepLog).

// HostStep is what one host step did: the function, the rows whose
// arguments the device computed, and the distinct tuples the host ran
// the function on.
type HostStep struct {
	Func     string
	Rows     int64
	Distinct int64
}

func (s HostStep) String() string {
	return fmt.Sprintf("Host Step: %s (rows=%d distinct=%d)", s.Func, s.Rows, s.Distinct)
}

// StepLog collects the host steps of one statement.
type StepLog struct {
	mu    sync.Mutex
	steps []HostStep
	notes []string
}

// Note records a line for EXPLAIN ANALYZE about how the backend ran the
// statement (a generated kernel, a predicate evaluated over a
// dictionary).
func (l *StepLog) Note(s string) {
	l.mu.Lock()
	l.notes = append(l.notes, s)
	l.mu.Unlock()
}

// Notes returns the recorded notes in order.
func (l *StepLog) Notes() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.notes...)
}

// Add records a step.
func (l *StepLog) Add(s HostStep) {
	l.mu.Lock()
	l.steps = append(l.steps, s)
	l.mu.Unlock()
}

// Steps returns the recorded steps in the order they ran.
func (l *StepLog) Steps() []HostStep {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]HostStep(nil), l.steps...)
}

type stepLogKey struct{}

// WithStepLog returns a context whose backend records its host steps in
// the returned log.
func WithStepLog(ctx context.Context) (context.Context, *StepLog) {
	l := &StepLog{}
	return context.WithValue(ctx, stepLogKey{}, l), l
}

// StepLogOf returns the context's step log, nil when there is none.
func StepLogOf(ctx context.Context) *StepLog {
	l, _ := ctx.Value(stepLogKey{}).(*StepLog)
	return l
}

// Explainer is a backend that adds lines of its own to EXPLAIN of a plan
// it would run (the GPU backend's host steps).
type Explainer interface {
	Explain(p *Plan) []string
}
