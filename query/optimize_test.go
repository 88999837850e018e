package query_test

// Planner decisions that matter for speed, read from EXPLAIN over small
// TPC-H-like tables: join order and keys, where conditions go, which
// outer joins run as what.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// planNode is one node of an EXPLAIN tree: its first line and the
// lines of its own steps (Filter, Project, ...).
type planNode struct {
	head  string
	steps []string
	kids  []*planNode
}

// walk calls f on n and every node below it.
func (n *planNode) walk(f func(*planNode)) {
	f(n)
	for _, k := range n.kids {
		k.walk(f)
	}
}

// find returns the nodes whose head starts with prefix.
func (n *planNode) find(prefix string) []*planNode {
	var out []*planNode
	n.walk(func(x *planNode) {
		if strings.HasPrefix(x.head, prefix) {
			out = append(out, x)
		}
	})
	return out
}

// step returns n's step that starts with prefix ("" when none).
func (n *planNode) step(prefix string) string {
	for _, s := range n.steps {
		if strings.HasPrefix(s, prefix) {
			return s
		}
	}
	return ""
}

func (n *planNode) String() string {
	var b strings.Builder
	var write func(x *planNode, d int)
	write = func(x *planNode, d int) {
		fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", d), x.head)
		for _, s := range x.steps {
			fmt.Fprintf(&b, "%s  | %s\n", strings.Repeat("  ", d), s)
		}
		for _, k := range x.kids {
			write(k, d+1)
		}
	}
	write(n, 0)
	return b.String()
}

// parseExplain reads EXPLAIN's lines into a tree: a node's line is the
// first one or starts with "-> " (indented two spaces a level below the
// root); the lines between are its steps.
func parseExplain(lines []string) *planNode {
	root := &planNode{head: lines[0]}
	stack := []*planNode{root} // stack[d] is the current node at depth d
	cur := root
	for _, l := range lines[1:] {
		trimmed := strings.TrimLeft(l, " ")
		if !strings.HasPrefix(trimmed, "-> ") {
			cur.steps = append(cur.steps, trimmed)
			continue
		}
		d := (len(l)-len(trimmed))/2 + 1
		cur = &planNode{head: strings.TrimPrefix(trimmed, "-> ")}
		stack = append(stack[:d], cur)
		stack[d-1].kids = append(stack[d-1].kids, cur)
	}
	return root
}

// newPlannerSession loads small tables shaped as TPC-H's: a fact table
// (lineitem), orders, and dimensions that shrink towards region.
func newPlannerSession(t *testing.T) engine.Session {
	t.Helper()
	srv, root := newTestServer(t)
	sess, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
	if err != nil {
		t.Fatal(err)
	}
	tables := []struct {
		name, cols string
		rows       int
		row        func(i int) string
	}{
		{"region", "r_regionkey int, r_name text", 5, func(i int) string { return fmt.Sprintf("%d,r%d", i, i) }},
		{"nation", "n_nationkey int, n_name text, n_regionkey int", 25, func(i int) string { return fmt.Sprintf("%d,n%d,%d", i, i, i%5+1) }},
		{"supplier", "s_suppkey int, s_nationkey int", 200, func(i int) string { return fmt.Sprintf("%d,%d", i, i%25+1) }},
		{"customer", "c_custkey int, c_nationkey int", 300, func(i int) string { return fmt.Sprintf("%d,%d", i, i%25+1) }},
		{"orders", "o_orderkey int, o_custkey int, o_pri int", 3000, func(i int) string { return fmt.Sprintf("%d,%d,%d", i, i%300+1, i%7) }},
		{"lineitem", "l_orderkey int, l_suppkey int, l_quantity int", 12000, func(i int) string {
			return fmt.Sprintf("%d,%d,%d", i%3000+1, i%200+1, i%50+1)
		}},
	}
	for _, tb := range tables {
		var b strings.Builder
		for i := 1; i <= tb.rows; i++ {
			b.WriteString(tb.row(i) + "\n")
		}
		if err := os.WriteFile(filepath.Join(root, tb.name+".csv"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		var r recorder
		sql := fmt.Sprintf("CREATE TABLE %s (%s) FROM CSV '%s.csv'", tb.name, tb.cols, tb.name)
		if err := sess.Query(context.Background(), sql, &r); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	return sess
}

// explain returns the plan tree of EXPLAIN sql.
func explain(t *testing.T, sess engine.Session, sql string) *planNode {
	t.Helper()
	var r recorder
	if err := sess.Query(context.Background(), "EXPLAIN "+sql, &r); err != nil {
		t.Fatalf("EXPLAIN %s: %v", sql, err)
	}
	return parseExplain(r.rows)
}

func TestPlanner(t *testing.T) {
	sess := newPlannerSession(t)

	t.Run("star join has no cross join", func(t *testing.T) {
		// TPC-H Q5's join graph, written as a comma list in an order
		// whose neighbours do not all connect
		p := explain(t, sess, `SELECT n_name, sum(l_quantity) FROM customer, orders, lineitem, supplier, nation, region
			WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey
			AND c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey
			AND r_name = 'r2' AND o_pri < 3 GROUP BY n_name`)
		if n := len(p.find("Cross Join")); n > 0 {
			t.Errorf("%d cross joins:\n%s", n, p)
		}
		joins := p.find("Hash Inner Join on ")
		if len(joins) != 5 {
			t.Errorf("%d hash joins with keys, want 5:\n%s", len(joins), p)
		}
		// the fact table is probed, not built: it is the left input of
		// the top join
		if len(joins) > 0 && !strings.HasPrefix(joins[0].kids[0].head, "Scan lineitem") {
			t.Errorf("top join's left side is %q, want the lineitem scan:\n%s", joins[0].kids[0].head, p)
		}
	})

	t.Run("WHERE equalities are keys and filters go into scans", func(t *testing.T) {
		p := explain(t, sess, `SELECT o_orderkey, c_nationkey FROM orders, customer
			WHERE o_custkey = c_custkey AND o_pri = 1 AND c_nationkey < 5`)
		joins := p.find("Hash Inner Join")
		if len(joins) != 1 {
			t.Fatalf("want one hash join:\n%s", p)
		}
		j := joins[0]
		if !strings.Contains(j.head, "(o_custkey) = ") || !strings.Contains(j.head, "(c_custkey)") || strings.Contains(j.head, " filter ") {
			t.Errorf("join %q: want key o_custkey = c_custkey and no residual", j.head)
		}
		if p.step("Filter") != "" {
			t.Errorf("a filter stayed above the join:\n%s", p)
		}
		for _, c := range []struct{ scan, cond string }{{"Scan orders", "o_pri"}, {"Scan customer", "c_nationkey"}} {
			s := p.find(c.scan)
			if len(s) != 1 || !strings.Contains(s[0].step("Filter"), c.cond) {
				t.Errorf("%s should filter on %s:\n%s", c.scan, c.cond, p)
			}
		}
	})

	t.Run("LEFT JOIN with a null-rejecting WHERE is inner", func(t *testing.T) {
		p := explain(t, sess, `SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON o_custkey = c_custkey WHERE o_pri = 1`)
		if len(p.find("Hash Left Join")) != 0 || len(p.find("Hash Inner Join on ")) != 1 {
			t.Errorf("want an inner join:\n%s", p)
		}
		if s := p.find("Scan orders"); len(s) != 1 || !strings.Contains(s[0].step("Filter"), "o_pri") {
			t.Errorf("o_pri = 1 should filter the orders scan:\n%s", p)
		}
		// IS NULL keeps the NULL-extended rows: still a left join
		p = explain(t, sess, `SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON o_custkey = c_custkey WHERE o_pri = 1 OR o_pri IS NULL`)
		if len(p.find("Hash Left Join on ")) != 1 {
			t.Errorf("want a left join:\n%s", p)
		}
	})

	t.Run("RIGHT JOIN runs as LEFT JOIN with its sides swapped", func(t *testing.T) {
		p := explain(t, sess, `SELECT c_custkey, o_orderkey FROM orders RIGHT JOIN customer ON o_custkey = c_custkey`)
		j := p.find("Hash Left Join on ")
		if len(j) != 1 || len(p.find("Hash Right Join")) != 0 {
			t.Fatalf("want one left join:\n%s", p)
		}
		if !strings.HasPrefix(j[0].kids[0].head, "Scan customer") || !strings.HasPrefix(j[0].kids[1].head, "Scan orders") {
			t.Errorf("want customer as the left (preserved) side:\n%s", p)
		}
	})

	t.Run("OR branches sharing a key (Q19) join on it", func(t *testing.T) {
		p := explain(t, sess, `SELECT count(*) FROM lineitem, orders
			WHERE (l_orderkey = o_orderkey AND o_pri = 1 AND l_quantity < 10)
			   OR (l_orderkey = o_orderkey AND o_pri = 2 AND l_quantity > 40)`)
		j := p.find("Hash Inner Join on ")
		if len(j) != 1 || len(p.find("Cross Join")) != 0 {
			t.Fatalf("want one hash join on the shared key:\n%s", p)
		}
		if !strings.Contains(j[0].head, "(l_orderkey) = ") || !strings.Contains(j[0].head, " filter or(") {
			t.Errorf("join %q: want key l_orderkey = o_orderkey and the rest of the OR as its filter", j[0].head)
		}
		// each side is filtered by the OR of its own conditions
		for _, c := range []struct{ scan, cond string }{{"Scan lineitem", "l_quantity"}, {"Scan orders", "o_pri"}} {
			s := p.find(c.scan)
			if len(s) != 1 || !strings.HasPrefix(s[0].step("Filter"), "Filter or(") || !strings.Contains(s[0].step("Filter"), c.cond) {
				t.Errorf("%s should filter on an OR of %s:\n%s", c.scan, c.cond, p)
			}
		}
	})

	t.Run("IN and NOT IN subqueries are semi and null-aware anti joins", func(t *testing.T) {
		p := explain(t, sess, `SELECT count(*) FROM orders WHERE o_custkey IN (SELECT c_custkey FROM customer WHERE c_nationkey = 3)
			AND o_orderkey NOT IN (SELECT l_orderkey FROM lineitem WHERE l_quantity > 45)`)
		if len(p.find("Hash Semi Join on ")) != 1 || len(p.find("Hash Anti (NOT IN) Join on ")) != 1 {
			t.Errorf("want a semi join and a NOT IN anti join, both with keys:\n%s", p)
		}
	})

	t.Run("an IN over a grouped subquery filters its member first (Q18)", func(t *testing.T) {
		p := explain(t, sess, `SELECT c_custkey, o_orderkey, sum(l_quantity) FROM customer, orders, lineitem
			WHERE o_orderkey IN (SELECT l_orderkey FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 140)
			AND c_custkey = o_custkey AND o_orderkey = l_orderkey GROUP BY c_custkey, o_orderkey`)
		semi := p.find("Hash Semi Join on ")
		if len(semi) != 1 || !strings.HasPrefix(semi[0].kids[0].head, "Scan orders") {
			t.Errorf("want the semi join directly over the orders scan:\n%s", p)
		}
	})

	t.Run("EXISTS probes with the output of selective joins (Q21)", func(t *testing.T) {
		// lineitem joins one nation's suppliers (an eighth of them) and
		// a seventh of orders: the semi and anti joins over lineitem's
		// columns probe with that output, not with lineitem
		p := explain(t, sess, `SELECT s_suppkey, count(*) FROM supplier, lineitem l1, orders, nation
			WHERE s_suppkey = l1.l_suppkey AND o_orderkey = l1.l_orderkey AND o_pri = 1 AND l1.l_quantity > 10
			AND EXISTS (SELECT * FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey)
			AND NOT EXISTS (SELECT * FROM lineitem l3 WHERE l3.l_orderkey = l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey AND l3.l_quantity > 10)
			AND s_nationkey = n_nationkey AND n_name = 'n3' GROUP BY s_suppkey`)
		semi, anti := p.find("Hash Semi Join on "), p.find("Hash Anti Join on ")
		if len(semi) != 1 || len(anti) != 1 {
			t.Fatalf("want one semi and one anti join:\n%s", p)
		}
		for _, j := range []*planNode{semi[0], anti[0]} {
			if len(j.kids[0].find("Hash Inner Join")) != 3 {
				t.Errorf("%q should be above the three inner joins:\n%s", j.head, p)
			}
		}
	})

	t.Run("a GROUP BY joined to a small scan groups only the scan's keys (Q17)", func(t *testing.T) {
		// lineitem grouped by l_orderkey (3,000 groups) joined to a
		// filtered scan of orders: lineitem is semi-joined with those
		// orders' keys before it is grouped
		p := explain(t, sess, `SELECT o_orderkey, s FROM orders,
			(SELECT l_orderkey AS k, sum(l_quantity) AS s FROM lineitem GROUP BY l_orderkey) g
			WHERE k = o_orderkey AND o_orderkey < 40`)
		semi := p.find("Hash Semi Join on ")
		if len(semi) != 1 || !strings.HasPrefix(semi[0].kids[0].head, "Scan lineitem") || len(semi[0].kids[1].find("Scan orders")) != 1 {
			t.Fatalf("want lineitem semi-joined with the orders scan below the grouping:\n%s", p)
		}
		// ... and when the other side is a scan semi-joined with another
		// (Q20: partsupp of some parts)
		p = explain(t, sess, `SELECT o_orderkey, s FROM orders,
			(SELECT l_orderkey AS k, sum(l_quantity) AS s FROM lineitem GROUP BY l_orderkey) g
			WHERE k = o_orderkey AND o_custkey IN (SELECT c_custkey FROM customer WHERE c_nationkey = 3)`)
		agg := p.find("Pipeline")
		found := false
		for _, a := range agg {
			if a.step("Aggregate") != "" && len(a.kids) == 1 && strings.HasPrefix(a.kids[0].head, "Hash Semi Join on ") &&
				len(a.kids[0].find("Scan customer")) == 1 {
				found = true
			}
		}
		if !found {
			t.Errorf("want lineitem semi-joined with the orders of those customers below the grouping:\n%s", p)
		}
		// ... but not when the other side is an inner join whose scan of
		// the key is as large as the groups (all of orders: it would drop
		// none)
		p = explain(t, sess, `SELECT o_orderkey, s FROM orders, customer,
			(SELECT l_orderkey AS k, sum(l_quantity) AS s FROM lineitem GROUP BY l_orderkey) g
			WHERE k = o_orderkey AND o_custkey = c_custkey AND c_nationkey = 3`)
		if n := len(p.find("Hash Semi Join on ")); n != 0 {
			t.Errorf("%d semi joins, want none:\n%s", n, p)
		}
		// ... and when it is an inner join over a small filtered scan of
		// the key, that scan's keys (Q2: part under supplier, nation and
		// region)
		p = explain(t, sess, `SELECT o_orderkey, s FROM orders, customer,
			(SELECT l_orderkey AS k, sum(l_quantity) AS s FROM lineitem GROUP BY l_orderkey) g
			WHERE k = o_orderkey AND o_custkey = c_custkey AND o_orderkey < 40`)
		semi = p.find("Hash Semi Join on ")
		if len(semi) != 1 || len(semi[0].kids[1].find("Scan orders")) != 1 || len(semi[0].kids[1].find("Scan customer")) != 0 {
			t.Errorf("want lineitem semi-joined with the keys of the orders scan alone:\n%s", p)
		}
	})

	t.Run("a correlated aggregate is a left join on its key", func(t *testing.T) {
		p := explain(t, sess, `SELECT c_custkey, (SELECT count(*) FROM orders WHERE o_custkey = c_custkey) FROM customer`)
		if len(p.find("Hash Left Join on ")) != 1 {
			t.Errorf("want a keyed left join of customer with grouped orders:\n%s", p)
		}
	})
}

func TestSplitDistinct(t *testing.T) {
	sess := newPlannerSession(t)
	for _, c := range []struct {
		sql   string
		split bool
	}{
		{"SELECT l_suppkey, count(DISTINCT l_orderkey) FROM lineitem GROUP BY l_suppkey", true},
		{"SELECT count(DISTINCT l_orderkey), min(l_orderkey), max(DISTINCT l_orderkey) FROM lineitem", true},
		{"SELECT o_pri, count(DISTINCT l_suppkey) FROM lineitem JOIN orders ON l_orderkey = o_orderkey GROUP BY o_pri", true},
		// plain aggregates beside the DISTINCT one, combined from partial
		// ones per pair
		{"SELECT l_suppkey, count(DISTINCT l_orderkey), count(*), sum(l_quantity), avg(l_quantity), max(l_suppkey) FROM lineitem GROUP BY l_suppkey", true},
		// ... but not without GROUP BY (a count over no rows is 0), not
		// float sums; two different x, or no DISTINCT at all: unchanged
		{"SELECT count(DISTINCT l_orderkey), count(*) FROM lineitem", false},
		{"SELECT l_suppkey, count(DISTINCT l_orderkey), sum(l_quantity::float8) FROM lineitem GROUP BY l_suppkey", false},
		{"SELECT count(DISTINCT l_orderkey), count(DISTINCT l_suppkey) FROM lineitem", false},
		{"SELECT l_suppkey, min(l_orderkey) FROM lineitem GROUP BY l_suppkey", false},
		{"SELECT count(DISTINCT l_quantity::float8) FROM lineitem", false},
	} {
		p := explain(t, sess, c.sql)
		// split: the top aggregation has no DISTINCT, and a node below
		// groups too (the distinct pairs)
		got := !strings.Contains(p.step("Aggregate"), "DISTINCT") && strings.Count(p.String(), "Aggregate group=") == 2
		if got != c.split {
			t.Errorf("%s: split %v, want %v:\n%s", c.sql, got, c.split, p)
		}
	}
}

func TestAvgAsSum(t *testing.T) {
	sess := newPlannerSession(t)
	p := explain(t, sess, "SELECT l_suppkey, avg(l_quantity), count(*) FROM lineitem GROUP BY l_suppkey ORDER BY 2 DESC LIMIT 3")
	if a := p.step("Aggregate"); strings.Contains(a, "avg(") || !strings.Contains(a, "sum(#2(l_quantity))") || !strings.Contains(a, "count(#2(l_quantity))") {
		t.Errorf("GROUP BY avg should be a sum and a count: %s\n%s", a, p)
	}
	if pr := p.step("Project"); !strings.Contains(pr, "div(") {
		t.Errorf("the projection should divide: %s", pr)
	}
	// the sum avg became is computed once beside the query's own
	p = explain(t, sess, "SELECT l_suppkey, sum(l_quantity), avg(l_quantity), count(l_quantity) FROM lineitem GROUP BY 1")
	if a := p.step("Aggregate"); strings.Count(a, "sum(#2(l_quantity))") != 1 || strings.Count(a, "count(#2(l_quantity))") != 1 {
		t.Errorf("want one sum and one count of l_quantity: %s", a)
	}
	// without GROUP BY, avg stays
	p = explain(t, sess, "SELECT avg(l_quantity) FROM lineitem")
	if a := p.step("Aggregate"); !strings.Contains(a, "avg(") {
		t.Errorf("a global avg should stay: %s", a)
	}
}

func TestSumPlusConst(t *testing.T) {
	sess := newPlannerSession(t)
	p := explain(t, sess, "SELECT sum(l_quantity::smallint), sum(l_quantity::smallint + 1), sum(l_quantity::smallint - 2), sum(3 + l_quantity::smallint) FROM lineitem")
	if a := p.step("Aggregate"); strings.Count(a, "sum(") != 1 || strings.Count(a, "count(") != 1 || strings.Contains(a, "add(") {
		t.Errorf("want one sum and one count: %s", a)
	}
	// an integer column plus a constant may overflow per row: unchanged
	p = explain(t, sess, "SELECT sum(l_quantity + 1) FROM lineitem")
	if a := p.step("Aggregate"); !strings.Contains(a, "add(") {
		t.Errorf("sum(int + c) should stay: %s", a)
	}
}

// TestEagerAggregation checks where the GROUP BY over a join moves below
// it (optimize_eager.go): TPC-H Q13's count of each customer's orders
// groups orders by o_custkey before the LEFT JOIN; an aggregate of a left
// column, a GROUP BY of a right column, or a right side with few rows a
// key keep the aggregation above the join.
func TestEagerAggregation(t *testing.T) {
	sess := newPlannerSession(t)
	p := explain(t, sess, `SELECT c_custkey, count(o_orderkey), count(*), max(o_pri) FROM customer LEFT JOIN orders ON c_custkey = o_custkey GROUP BY c_custkey`)
	j := p.find("Hash Left Join")
	if len(j) != 1 || len(j[0].kids) != 2 {
		t.Fatalf("want one left join:\n%s", p)
	}
	if a := j[0].kids[1].step("Aggregate"); !strings.Contains(a, "group=[#1(o_custkey)]") || !strings.Contains(a, "count(#0(o_orderkey))") {
		t.Errorf("orders should be grouped by o_custkey under the join: %q\n%s", a, p)
	}
	if a := p.find("Pipeline")[1].step("Aggregate"); !strings.Contains(a, "sum(coalesce(") {
		t.Errorf("the counts above the join should be sums of the partial counts: %q\n%s", a, p)
	}
	for _, sql := range []string{
		`SELECT c_custkey, count(o_orderkey), sum(c_nationkey) FROM customer LEFT JOIN orders ON c_custkey = o_custkey GROUP BY c_custkey`,
		`SELECT o_pri, count(*) FROM customer LEFT JOIN orders ON c_custkey = o_custkey GROUP BY o_pri`,
		`SELECT c_custkey, count(DISTINCT o_pri) FROM customer LEFT JOIN orders ON c_custkey = o_custkey GROUP BY c_custkey`,
		`SELECT o_orderkey, count(c_nationkey) FROM orders LEFT JOIN customer ON c_custkey = o_custkey GROUP BY o_orderkey`,
		`SELECT count(o_orderkey) FROM customer LEFT JOIN orders ON c_custkey = o_custkey`,
	} {
		p := explain(t, sess, sql)
		if len(p.find("Hash Left Join")) != 1 || strings.Contains(p.String(), "sum(coalesce(") {
			t.Errorf("%s: the aggregation should stay above the join:\n%s", sql, p)
		}
	}
}
