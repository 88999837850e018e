package gpu

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// WideQueries are expressions BI tools generate that need more than the
// interpreter's 64 in-thread registers or 512 shared instructions: long
// CASE chains, wide sums, deep coalesce and long || chains. They run over
// table tw (WideDDL); TestWideMatchesCPU runs them on the device.
func WideQueries() []string {
	var b strings.Builder
	b.WriteString("SELECT id, CASE")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, " WHEN c = %d THEN 'b%d' || s", i, i)
	}
	b.WriteString(" ELSE 'other' END FROM tw")
	caseStr := b.String()
	b.Reset()
	b.WriteString("SELECT id, CASE")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, " WHEN c < %d THEN a * %d + %d / (c + %d)", i*5, i, i, i+2000)
	}
	b.WriteString(" ELSE a END FROM tw")
	caseNum := b.String()
	var terms []string
	for i := 0; i < 100; i++ {
		switch i % 4 {
		case 0:
			terms = append(terms, fmt.Sprintf("a * %d", i))
		case 1:
			terms = append(terms, fmt.Sprintf("(c + %d) * (c - %d)", i, i))
		case 2:
			terms = append(terms, fmt.Sprintf("coalesce(a, %d.5)", i))
		default:
			terms = append(terms, fmt.Sprintf("abs(c - %d)", i))
		}
	}
	sum := "SELECT id, " + strings.Join(terms, " + ") + " FROM tw"
	var fterms []string
	for i := 0; i < 100; i++ {
		fterms = append(fterms, fmt.Sprintf("f * %d.25", i))
	}
	fsum := "SELECT id, " + strings.Join(fterms, " + ") + " FROM tw"
	var co []string
	for i := 0; i < 120; i++ {
		co = append(co, fmt.Sprintf("CASE WHEN c = %d THEN NULL ELSE s || '%d' END", i, i))
	}
	coal := "SELECT id, coalesce(" + strings.Join(co, ", ") + ", 'none') FROM tw"
	nested := "NULL"
	for i := 0; i < 80; i++ {
		nested = fmt.Sprintf("coalesce(nullif(c, %d) * 2, %s)", i, nested)
	}
	deep := "SELECT id, " + nested + " FROM tw"
	var cat []string
	for i := 0; i < 100; i++ {
		if i%3 == 0 {
			cat = append(cat, "upper(v)")
		} else {
			cat = append(cat, fmt.Sprintf("'%d'", i))
		}
	}
	concat := "SELECT id, " + strings.Join(cat, " || ") + " FROM tw"
	var parts []string
	for i := 0; i < 100; i++ {
		parts = append(parts, fmt.Sprintf("(c %% %d)", i+1))
	}
	where := "SELECT id FROM tw WHERE " + strings.Join(parts, " + ") + " > 150"
	agg := "SELECT c % 7, sum(" + strings.Join(terms[:60], " + ") + "), max(length(" + strings.Join(cat[:40], " || ") + ")) FROM tw GROUP BY 1"
	return []string{caseStr, caseNum, sum, fsum, coal, deep, concat, where, agg}
}

const WideDDL = `CREATE TABLE tw (id bigint, c integer, a numeric(12,2), f double precision, s text, v varchar(6))`

var wideCols = []*Column{{Type: engine.Int64}, {Type: engine.Int32}, {Type: engine.NumericType(12, 2)},
	{Type: engine.Float64}, {Type: engine.Text, Width: 16}, {Type: engine.Type{Kind: engine.KindVarchar, Len: 6}, Width: 6}}

// TestWideCompiles checks (no device needed) that the wide expressions
// compile, and that some of them do need more than the in-thread
// register file or the shared instruction list.
func TestWideCompiles(t *testing.T) {
	rec, exec := recordingSession(t, "", WideDDL)
	wideRegs, longProgs := 0, 0
	for _, q := range WideQueries() {
		rec.plan = nil
		if err := exec(q); err != nil {
			t.Fatalf("%.60s: %v", q, err)
		}
		p := rec.plan
		exprs := append([]engine.Expr{}, p.Project...)
		if p.Filter != nil {
			exprs = append(exprs, p.Filter)
		}
		if p.Aggregate {
			exprs = append([]engine.Expr{}, p.GroupBy...)
			for _, ag := range p.Aggs {
				if ag.Arg != nil {
					exprs = append(exprs, ag.Arg)
				}
			}
		}
		c := &compiler{p: newProgram(), cols: wideCols}
		if _, err := c.compileOutputs(exprs, 0); err != nil {
			t.Errorf("%.60s: %v", q, err)
			continue
		}
		if c.p.nreg > inRegs {
			wideRegs++
		}
		if len(c.p.ins) > sharedIns {
			longProgs++
		}
		t.Logf("%.40s: %d registers, %d instructions", q, c.p.nreg, len(c.p.ins))
	}
	if wideRegs == 0 || longProgs == 0 {
		t.Errorf("%d queries past %d registers, %d past %d instructions: the test no longer tests the slab", wideRegs, inRegs, longProgs, sharedIns)
	}
}
