package query_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/query"
)

type rec struct {
	b    strings.Builder
}

func (r *rec) Describe(cols []engine.ResultColumn) error {
	for _, c := range cols {
		fmt.Fprintf(&r.b, "%s:%d ", c.Name, c.TypeOID)
	}
	r.b.WriteString("\n")
	return nil
}
func (r *rec) Row(v [][]byte) error {
	for _, x := range v {
		if x == nil {
			r.b.WriteString("NULL|")
		} else {
			r.b.WriteString(string(x) + "|")
		}
	}
	r.b.WriteString("\n")
	return nil
}
func (r *rec) Complete(tag string) error      { r.b.WriteString(tag + "\n"); return nil }
func (r *rec) Notice(n engine.Notice) error     { r.b.WriteString("NOTICE " + n.Message + "\n"); return nil }
func (r *rec) EmptyQuery() error                { return nil }

func TestSmoke(t *testing.T) {
	srv, err := query.NewServer(query.Options{FileRoot: t.TempDir(), Backend: cpu.New(nil, 1)})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := srv.NewSession(engine.SessionParams{User: "u", Database: "d"})
	for _, q := range []string{
		"SELECT 1", "SELECT 1.50 * 2, 7/2, 7.0/2, 1/3.0, 2.5::int, 'a' || 'b', length('héllo')",
		"SELECT date '1998-12-01' - interval '90 day', date '1995-03-15' + 1, extract(year from date '1995-03-15')",
		"SELECT 1e20::float8, 0.1::float8 + 0.2::float8, 1.5::real, CAST(12.345 AS numeric(5,2))",
		"SELECT CASE WHEN 1 > 2 THEN 'x' ELSE 'y' END, NULL IS NULL, 3 BETWEEN 1 AND 5, 2 IN (1, NULL)",
		"SELECT version()", "SELECT 1/0", "SELECT upper('abc'), substring('hello' from 2 for 3), 'abc' LIKE 'a%'",
		"CREATE TABLE t (a int, b text)", "SELECT count(*), sum(a), avg(a) FROM t", "SELECT * FROM t",
	} {
		var r rec
		err := s.Query(context.Background(), q, &r)
		t.Logf("%s\n%s err=%v", q, r.b.String(), err)
	}
}
