package query

import (
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// Parameters of type timestamptz[] (a list of JavaScript Dates from
// postgres.js, say). An array parameter reaches the statement in text
// form and x = ANY ($1) reads its elements as x's type, which for a
// timestamp x would drop each element's UTC offset. So the elements are
// read as timestamptz here first and written as the wall-clock time of
// their instant in the session's TimeZone: the timestamp PostgreSQL
// compares a timestamp column with. (A scalar timestamptz parameter is of
// type timestamptz, read as any timestamptz value is.)

// zonedParam converts a timestamptz[] parameter value's elements; other
// values are returned as they are.
func (s *Session) zonedParam(oid uint32, p engine.Param) (engine.Param, error) {
	if p.Null || oid != engine.ArrayOID(engine.OIDTimestampTZ) {
		return p, nil
	}
	zone := s.zone()
	els, err := parseTextArray(string(p.Value))
	if err != nil {
		return p, err
	}
	out := []byte{'{'}
	for i, e := range els {
		if i > 0 {
			out = append(out, ',')
		}
		if e == nil {
			out = append(out, "NULL"...)
			continue
		}
		us, st := engine.ParseTimestampTZ([]byte(*e), zone)
		if st != engine.ParseOK {
			err := engine.InputError(engine.Timestamp, st, []byte(*e))
			err.Message = strings.Replace(err.Message, "type timestamp", "type timestamp with time zone", 1)
			return p, err
		}
		v := engine.AppendText(nil, &engine.Vec{T: engine.Timestamp, N: 1, I: []int64{zone.ToLocal(us)}}, 0)
		out = appendArrayElem(out, v)
	}
	return engine.Param{Value: append(out, '}')}, nil
}
