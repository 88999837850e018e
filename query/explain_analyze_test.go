package query_test

import (
	"context"
	"regexp"
	"strconv"
	"testing"
)

// EXPLAIN ANALYZE prints the tree that ran, each node with the rows it
// produced and its time. The server rewrites a plan just before running
// it, so the tree printed must be that rewritten one, or no node matches
// what the backend recorded.
func TestExplainAnalyzeNodeRows(t *testing.T) {
	sess := newPlannerSession(t)
	var r recorder
	sql := `EXPLAIN ANALYZE SELECT c_nationkey, count(*) FROM orders, customer
		WHERE o_custkey = c_custkey AND o_pri = 1 GROUP BY c_nationkey`
	if err := sess.Query(context.Background(), sql, &r); err != nil {
		t.Fatal(err)
	}
	p := parseExplain(r.rows)
	actual := regexp.MustCompile(`\(actual rows=(\d+) time=[0-9.]+ ms\)$`)
	rows := func(n *planNode) int {
		m := actual.FindStringSubmatch(n.head)
		if m == nil {
			t.Fatalf("node %q has no actual rows and time:\n%s", n.head, p)
		}
		v, _ := strconv.Atoi(m[1])
		return v
	}
	joins := p.find("Hash Inner Join")
	if len(joins) != 1 {
		t.Fatalf("want one hash join:\n%s", p)
	}
	// o_pri = i%7 = 1 for 429 of orders' 3000 rows; each has a customer
	if got := rows(joins[0]); got != 429 {
		t.Errorf("join: actual rows=%d, want 429:\n%s", got, p)
	}
	if s := p.find("Scan orders"); len(s) != 1 || rows(s[0]) != 429 {
		t.Errorf("orders scan after its filter: want 429 rows:\n%s", p)
	}
	if s := p.find("Scan customer"); len(s) != 1 || rows(s[0]) != 300 {
		t.Errorf("customer scan: want 300 rows:\n%s", p)
	}
}
