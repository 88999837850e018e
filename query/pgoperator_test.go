package query_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// typeWriter keeps the result's column types.
type typeWriter struct {
	recorder
	types []uint32
}

func (w *typeWriter) Describe(cols []engine.ResultColumn) error {
	w.types = w.types[:0]
	for _, c := range cols {
		w.types = append(w.types, c.TypeOID)
	}
	return w.recorder.Describe(cols)
}

// Every operator pg_operator lists binds in gpusql over NULL operands of
// its types and gives its result type, so that \do cannot advertise
// what gpusql cannot run.
func TestOperatorsBind(t *testing.T) {
	srv, _ := newTestServer(t)
	s := testSession(t, srv, engine.SessionParams{})
	rows := queryRows(t, s, "SELECT oprkind, format_type(oprleft, NULL), format_type(oprright, NULL), oprresult, oprname FROM pg_operator ORDER BY oid")
	if len(rows) < 200 {
		t.Fatalf("pg_operator lists %d operators", len(rows))
	}
	for _, row := range rows {
		f := strings.SplitN(row, "|", 5) // the name last: it may hold "|"
		kind, left, right, name := f[0], f[1], f[2], f[4]
		result, _ := strconv.ParseUint(f[3], 10, 32)
		sql := fmt.Sprintf("SELECT NULL::%s %s NULL::%s", left, name, right)
		if kind == "l" {
			sql = fmt.Sprintf("SELECT %s NULL::%s", name, right)
		}
		var w typeWriter
		if err := s.Query(context.Background(), sql, &w); err != nil {
			t.Errorf("pg_operator lists %s, but %s: %v", row, sql, err)
			continue
		}
		if len(w.types) != 1 || w.types[0] != uint32(result) {
			t.Errorf("%s: result type %v, pg_operator says %d", sql, w.types, result)
		}
	}
}
