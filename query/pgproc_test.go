package query_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// Every function pg_proc lists (what psql's \df and IDEs show) binds: it is
// called once with NULL arguments of its argument types (an aggregate over
// a one-row table, a window function over (), an ordered-set aggregate
// WITHIN GROUP) and must not fail as undefined or unsupported.
func TestProcsBind(t *testing.T) {
	srv, _ := newTestServer(t)
	s := testSession(t, srv, engine.SessionParams{})
	rows := queryRows(t, s, "SELECT proname, prokind, proretset, proargtypes::text, pg_get_function_arguments(oid) FROM pg_catalog.pg_proc ORDER BY oid")
	if len(rows) < 300 {
		t.Fatalf("pg_proc lists %d functions", len(rows))
	}
	typeName := map[string]string{"16": "boolean", "20": "bigint", "21": "smallint", "23": "integer", "25": "text",
		"700": "real", "701": "double precision", "1700": "numeric", "1042": "character", "1043": "character varying",
		"1082": "date", "1083": "time", "1114": "timestamp", "1184": "timestamptz", "1186": "interval", "19": "name",
		"26": "oid", "18": `"char"`, "2276": "integer", "2283": "integer", "5077": "integer", "2277": "integer[]", "5078": "integer[]",
		"1009": "text[]", "1007": "integer[]", "1016": "bigint[]", "194": "text", "2205": "oid", "2206": "oid"}
	kinds := map[string]int{}
	for _, row := range rows {
		f := strings.Split(row, "|")
		name, kind, retset, args, shown := f[0], f[1], f[2], strings.Fields(f[3]), f[4]
		if slices.Contains(args, "2281") {
			// The types' receive functions (int4recv, array_recv, ...)
			// take an internal argument, which no SQL expression makes:
			// PostgreSQL cannot call them from SQL either.
			continue
		}
		kinds[kind]++
		vals := make([]string, len(args))
		for i, a := range args {
			tn, ok := typeName[a]
			if !ok {
				t.Fatalf("%s(%s): argument type %s has no test value", name, shown, a)
			}
			vals[i] = "NULL::" + tn
			if a == "25" {
				vals[i] = "'day'::text"
			}
		}
		var sql string
		switch {
		case kind == "w":
			sql = fmt.Sprintf("SELECT %s(%s) OVER () FROM (SELECT 1) s", name, strings.Join(vals, ", "))
		case kind == "a" && strings.Contains(shown, "ORDER BY"):
			direct := strings.Count(strings.SplitN(shown, "ORDER BY", 2)[0], ",") + 1
			if strings.HasPrefix(shown, "ORDER BY") {
				direct = 0
			}
			sql = fmt.Sprintf("SELECT %s(%s) WITHIN GROUP (ORDER BY x) FROM (SELECT %s AS x) s", name,
				strings.Join(vals[:direct], ", "), vals[direct])
		case kind == "a" && len(vals) == 0:
			sql = fmt.Sprintf("SELECT %s(*) FROM (SELECT 1) s", name)
		case kind == "a":
			cols := make([]string, len(vals))
			refs := make([]string, len(vals))
			for i, v := range vals {
				cols[i], refs[i] = fmt.Sprintf("%s AS x%d", v, i), fmt.Sprintf("x%d", i)
			}
			sql = fmt.Sprintf("SELECT %s(%s) FROM (SELECT %s) s", name, strings.Join(refs, ", "), strings.Join(cols, ", "))
		case retset == "t":
			sql = fmt.Sprintf("SELECT * FROM %s(%s) s LIMIT 0", name, strings.Join(vals, ", "))
		default:
			sql = fmt.Sprintf("SELECT %s(%s)", name, strings.Join(vals, ", "))
		}
		var out recorder
		err := s.Query(context.Background(), sql, &out)
		var pe *engine.Error
		if errors.As(err, &pe) && (pe.Code == "42883" || pe.Code == "0A000" || pe.Code == "42601" || pe.Code == "XX000") {
			t.Errorf("pg_proc lists %s(%s), but %s: %v", name, shown, sql, err)
		}
	}
	if kinds["a"] < 50 || kinds["w"] < 10 || kinds["f"] < 150 {
		t.Errorf("pg_proc lists %v functions by kind", kinds)
	}
}
