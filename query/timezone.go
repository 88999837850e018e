package query

import (
	"context"
	"time"

	"github.com/gpusql/gpusql/engine"
)

// A statement runs with its session's TimeZone and its start time in its
// context (stmtClock): the binder reads them for now() and friends, and
// Server.run gives every zone-dependent call of a plan the zone before
// the plan runs (lowerZones), so that backends see each zone as a
// constant argument.

type stmtClockKey struct{}

// stmtClock is what a statement's time functions read.
type stmtClock struct {
	zone *engine.Zone
	// stmt is the statement's start (statement_timestamp()), tx the
	// transaction's (now(), current_timestamp): the BEGIN of a
	// transaction block, else the statement's. Microseconds since 1970
	// UTC.
	stmt, tx int64
}

// withClock returns ctx carrying the session's zone and the statement's
// start time.
func (s *Session) withClock(ctx context.Context) context.Context {
	now := time.Now().UnixMicro()
	c := &stmtClock{zone: s.zone(), stmt: now, tx: now}
	if s.inTx && s.txStart != 0 {
		c.tx = s.txStart
	}
	return context.WithValue(ctx, stmtClockKey{}, c)
}

// clockOf returns the statement's clock; outside a statement (tests,
// embedded binding) the current time in UTC.
func clockOf(ctx context.Context) *stmtClock {
	if ctx != nil {
		if c, ok := ctx.Value(stmtClockKey{}).(*stmtClock); ok {
			return c
		}
	}
	now := time.Now().UnixMicro()
	return &stmtClock{zone: engine.UTCZone, stmt: now, tx: now}
}

// zone is the session's TimeZone.
func (s *Session) zone() *engine.Zone {
	name := s.setting("timezone")
	if s.zoneCache != nil && s.zoneCache.Name == name {
		return s.zoneCache
	}
	z, err := engine.SessionZone(name)
	if err != nil {
		z = engine.UTCZone
	}
	s.zoneCache = z
	return z
}

// canonicalZone checks a TimeZone setting and returns PostgreSQL's
// spelling of it (what SHOW TimeZone says).
func canonicalZone(v string) (string, error) {
	z, err := engine.SessionZone(v)
	if err != nil {
		return "", err
	}
	return z.Name, nil
}

// lowerZones gives every call of the plan tree that reads wall-clock
// time in the session's zone that zone as its last argument, and folds
// what became constant.
func lowerZones(r engine.Rel, zone *engine.Zone) engine.Rel {
	ref := zone.Ref()
	f := func(e engine.Expr) engine.Expr { return lowerExpr(e, ref) }
	switch r := r.(type) {
	case *engine.Plan:
		p := *r
		p.Filter = mapExpr(r.Filter, f)
		p.Having = mapExpr(r.Having, f)
		p.GroupBy = mapExprs(r.GroupBy, f)
		p.Project = mapExprs(r.Project, f)
		if r.Aggs != nil {
			p.Aggs = make([]engine.AggCall, len(r.Aggs))
			for i, a := range r.Aggs {
				a.Arg = mapExpr(a.Arg, f)
				a.Sep = mapExpr(a.Sep, f)
				if a.Order != nil {
					o := make([]engine.AggOrder, len(a.Order))
					for k, x := range a.Order {
						x.Expr = mapExpr(x.Expr, f)
						o[k] = x
					}
					a.Order = o
				}
				p.Aggs[i] = a
			}
		}
		if r.Input != nil {
			p.Input = lowerZones(r.Input, zone)
		}
		return &p
	case *engine.Join:
		j := *r
		j.LeftKeys = mapExprs(r.LeftKeys, f)
		j.RightKeys = mapExprs(r.RightKeys, f)
		j.Residual = mapExpr(r.Residual, f)
		j.Left = lowerZones(r.Left, zone)
		j.Right = lowerZones(r.Right, zone)
		return &j
	case *engine.SetOp:
		s := *r
		s.Left = lowerZones(r.Left, zone)
		s.Right = lowerZones(r.Right, zone)
		return &s
	case *engine.ProjectSet:
		ps := *r
		ps.Input = lowerZones(r.Input, zone)
		return &ps
	}
	return r
}

func mapExpr(e engine.Expr, f func(engine.Expr) engine.Expr) engine.Expr {
	if e == nil {
		return nil
	}
	return f(e)
}

func mapExprs(es []engine.Expr, f func(engine.Expr) engine.Expr) []engine.Expr {
	if es == nil {
		return nil
	}
	out := make([]engine.Expr, len(es))
	for i, e := range es {
		out[i] = f(e)
	}
	return out
}

// lowerExpr is lowerZones for one expression; it returns e itself when
// nothing in it needs the zone.
func lowerExpr(e engine.Expr, zone string) engine.Expr {
	switch x := e.(type) {
	case *engine.Call:
		var args []engine.Expr
		for i, a := range x.Args {
			if la := lowerExpr(a, zone); la != a {
				if args == nil {
					args = append([]engine.Expr(nil), x.Args...)
				}
				args[i] = la
			}
		}
		c := x
		if args != nil {
			cp := *x
			cp.Args = args
			c = &cp
		}
		if engine.NeedsZone(c) {
			c = engine.WithZone(c, zone)
		}
		if c == x {
			return e
		}
		if r, err := fold(c); err == nil {
			return r
		}
		return c // the error is raised when the plan runs, as for any row
	case *engine.Case:
		changed := false
		cp := *x
		cp.Conds = append([]engine.Expr(nil), x.Conds...)
		cp.Results = append([]engine.Expr(nil), x.Results...)
		for i := range cp.Conds {
			cp.Conds[i] = lowerExpr(x.Conds[i], zone)
			cp.Results[i] = lowerExpr(x.Results[i], zone)
			changed = changed || cp.Conds[i] != x.Conds[i] || cp.Results[i] != x.Results[i]
		}
		cp.Else = lowerExpr(x.Else, zone)
		if !changed && cp.Else == x.Else {
			return e
		}
		return &cp
	case *engine.HostFunc:
		var args []engine.Expr
		for i, a := range x.Args {
			if la := lowerExpr(a, zone); la != a {
				if args == nil {
					args = append([]engine.Expr(nil), x.Args...)
				}
				args[i] = la
			}
		}
		if args == nil {
			return e
		}
		h := *x
		h.Args = args
		return &h
	}
	return e
}

// lowerConst is lowerExpr with the session's zone for the binder, where
// a value must be constant while binding (generate_series' bounds).
func (b *binder) lowerConst(e engine.Expr) engine.Expr {
	return lowerExpr(e, b.clock().zone.Ref())
}

// clock is the statement's clock.
func (b *binder) clock() *stmtClock {
	if b.st != nil {
		if c, ok := b.st.ctx.Value(stmtClockKey{}).(*stmtClock); ok {
			return c
		}
	}
	c := clockOf(nil)
	c.zone = b.s.zone()
	return c
}
