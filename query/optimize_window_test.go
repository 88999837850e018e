package query_test

import (
	"strings"
	"testing"
)

// The Window node in plans (query/window.go, optimize_window.go).
func TestPlannerWindows(t *testing.T) {
	sess := newPlannerSession(t)

	t.Run("window over a join: WHERE below, a filter on its result above", func(t *testing.T) {
		p := explain(t, sess, `SELECT * FROM (SELECT o_orderkey, c_nationkey,
				rank() OVER (PARTITION BY c_nationkey ORDER BY o_pri DESC) AS r
			FROM orders, customer WHERE o_custkey = c_custkey AND o_pri > 2) t WHERE r <= 3`)
		w := p.find("Window [rank() OVER (PARTITION BY ")
		if len(w) != 1 {
			t.Fatalf("want one window:\n%s", p)
		}
		if len(w[0].find("Hash Inner Join on ")) != 1 {
			t.Errorf("want the join below the window:\n%s", p)
		}
		if s := w[0].find("Scan orders"); len(s) != 1 || !strings.Contains(s[0].step("Filter"), "o_pri") {
			t.Errorf("o_pri > 2 should filter the orders scan:\n%s", p)
		}
		above := p.find("Pipeline")
		found := false
		for _, n := range above {
			if strings.Contains(n.step("Filter"), "(rank)") && len(n.find("Window")) == 1 {
				found = true
			}
		}
		if !found {
			t.Errorf("r <= 3 should filter above the window:\n%s", p)
		}
	})

	t.Run("the window's input keeps only what is read", func(t *testing.T) {
		p := explain(t, sess, `SELECT l_orderkey, sum(l_quantity) OVER (PARTITION BY l_orderkey) FROM lineitem`)
		s := p.find("Scan lineitem")
		if len(s) != 1 || strings.Contains(s[0].step("Project"), "l_suppkey") || strings.Count(s[0].step("Project"), "l_orderkey") != 1 {
			t.Errorf("the scan should read l_orderkey once and l_quantity, not l_suppkey:\n%s", p)
		}
	})

	t.Run("windows over GROUP BY read the grouped rows", func(t *testing.T) {
		p := explain(t, sess, `SELECT o_pri, count(*), rank() OVER (ORDER BY count(*) DESC) FROM orders GROUP BY o_pri`)
		w := p.find("Window")
		if len(w) != 1 || len(w[0].kids) != 1 || !strings.HasPrefix(w[0].kids[0].step("Aggregate"), "Aggregate group=[") {
			t.Errorf("want the window over the aggregate:\n%s", p)
		}
	})
}
