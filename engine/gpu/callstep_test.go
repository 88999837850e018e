package gpu

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/query"
)

// CallStepDDL is the table of CallStepQueries.
const CallStepDDL = `CREATE TABLE cs (id bigint, f double precision, i integer, n numeric(10,3), ts timestamp, tz timestamptz, d date, s text) FROM CSV 'cs.csv'`

// CallStepQueries are calls the kernels refuse, run as host steps
// (hoststep.go's hostCall), and date_part's integer fields and exp, ln,
// log, cbrt and power of doubles, which have kernels (OP_FMATH). Steps: the query runs host steps on the device; otherwise it
// compiles to kernels alone. Err: the query fails on both backends (at
// the same row, with the same message).
var CallStepQueries = []struct {
	Zone  string
	SQL   string
	Steps bool
	Err   bool
}{
	{"UTC", `SELECT id, exp(sign(f) * sqrt(abs(f))), ln(abs(f) + 1), log(abs(f) + 1), log10(abs(f) + 0.5), power(abs(f), 0.5), cbrt(f), power(abs(f) + 1, 1.5) FROM cs ORDER BY id`, false, false},
	{"UTC", `SELECT id, ln(f) FROM cs ORDER BY id`, false, true},
	{"UTC", `SELECT id, power(f, 0.5) FROM cs ORDER BY id`, false, true},
	{"UTC", `SELECT id, exp(f * 10) FROM cs ORDER BY id`, false, true},
	{"UTC", `SELECT id, power(f, 3), power(2, f / 100), power(f, i % 5 - 2) FROM cs WHERE abs(f) > 1e-100 AND abs(f) < 1e10 ORDER BY id`, false, false},
	{"UTC", `SELECT id, CASE WHEN f <> 'NaN' THEN width_bucket(f, -100, 100, 8) END, width_bucket(i, 1000000, -1000000, 7), width_bucket(n, -1000, 1000, 10) FROM cs ORDER BY id`, true, false},
	{"Europe/Berlin", `SELECT id, to_char(ts, 'YYYY-MM-DD HH24:MI:SS.US Dy Mon IW'), to_char(tz, 'YYYY-MM-DD"T"HH24:MI:SSOF TZ'), to_char(d, 'FMDay, DDth FMMonth YYYY'),
		to_char(n, 'FM999G990D000'), to_char(i, 'S0000000') FROM cs ORDER BY id`, true, false},
	{"Europe/Berlin", `SELECT id, date_part('year', ts), date_part('mon', tz), extract(hours FROM ts), date_part('dow', d), date_part('microseconds', ts),
		date_part('isoyear', tz), date_part('doy', ts), date_part('week', d), date_part('hour', tz) FROM cs ORDER BY id`, false, false},
	{"America/New_York", `SELECT id, date_part('epoch', ts), date_part('second', tz), date_part('milliseconds', ts), date_part('julian', d), date_part('epoch', tz) FROM cs ORDER BY id`, true, false},
	{"UTC", `SELECT date_bin('15 minutes', ts, timestamp '2001-01-01'), count(*) FROM cs GROUP BY 1 ORDER BY 1`, true, false},
	{"Europe/Berlin", `SELECT id, date_bin('1 hour', tz, timestamptz '2024-01-01 00:07+00'), date_bin('36 hours', ts, timestamp '1999-12-31 23:00') FROM cs ORDER BY id`, true, false},
	{"Europe/Berlin", `SELECT id, age(ts, d)::text, age(tz, timestamptz '2024-03-31 00:00+00')::text, justify_hours(ts - d)::text FROM cs ORDER BY id`, true, false},
	{"UTC", `SELECT id, make_date(2000 + i % 30, 1 + abs(i) % 12, 1 + abs(i) % 28), make_timestamp(2024, 2, 29, abs(i) % 24, 30, 1.5) FROM cs WHERE i IS NOT NULL ORDER BY id`, true, false},
	{"America/New_York", `SELECT id, tz + interval '1 day', tz - interval '1 month 2 hours', tz::text FROM cs ORDER BY id`, true, false},
	{"UTC", `SELECT to_char(ts, 'YYYY-MM') AS m, count(*), sum(ln(abs(f) + 1)), max(exp(sqrt(abs(f)) / 10)) FROM cs WHERE date_part('epoch', ts) > 1e9 GROUP BY 1 ORDER BY 1`, true, false},
	{"UTC", `SELECT id, CASE WHEN f > 0 THEN ln(f) ELSE 0 END FROM cs WHERE id % 3 = 0 LIMIT 9`, false, false},
	{"Europe/Berlin", `SELECT id, to_char(tz, 'Day HH12 AM') FROM cs ORDER BY to_char(tz, 'Day HH12 AM'), id`, true, false},
	{"UTC", `SELECT count(*) FROM cs WHERE f > 0 AND ln(f) > 2`, false, false},
	// numeric results of one scale (numericStep)
	{"UTC", `SELECT id, extract(julian FROM d), extract(epoch FROM age(ts, d)), extract(hour FROM ts::time), extract(second FROM ts::time),
		round(extract(epoch FROM age(ts, d)) / 3600, 2) FROM cs ORDER BY id`, true, false},
}

// WriteCallStepCSV writes cs's rows: about a tenth of each column NULL,
// doubles with NaN, infinities, -0, subnormals and negatives, instants
// around DST changes and leap days.
func WriteCallStepCSV(t testing.TB, path string, n int, rng *rand.Rand) {
	floats := []string{"NaN", "Infinity", "-Infinity", "-0", "0", "1e-300", "5e-324", "-1e-300", "1", "-1", "2.5"}
	instants := []string{"2024-03-31 01:59:59.999999", "2024-03-31 02:30:00", "2024-10-27 02:30:00", "2024-02-29 23:59:59", "2000-02-29 00:00:00",
		"1999-12-31 23:59:59.5", "1970-01-01 00:00:00"}
	var b strings.Builder
	for k := 0; k < n; k++ {
		null := func(s string) string {
			if rng.Intn(10) == 0 {
				return ""
			}
			return s
		}
		f := fmt.Sprintf("%g", rng.NormFloat64()*100)
		if rng.Intn(8) == 0 {
			f = floats[rng.Intn(len(floats))]
		}
		ts := fmt.Sprintf("%04d-%02d-%02d %02d:%02d:%02d.%06d", 1990+rng.Intn(40), rng.Intn(12)+1, rng.Intn(28)+1, rng.Intn(24), rng.Intn(60), rng.Intn(60), rng.Intn(1000000))
		if rng.Intn(4) == 0 {
			ts = instants[rng.Intn(len(instants))]
		}
		tz := ts + fmt.Sprintf("%+03d", rng.Intn(25)-12)
		if rng.Intn(3) == 0 {
			tz = instants[rng.Intn(len(instants))] + "+00"
		}
		d := fmt.Sprintf("%04d-%02d-%02d", 1960+rng.Intn(80), rng.Intn(12)+1, rng.Intn(28)+1)
		if rng.Intn(6) == 0 {
			d = []string{"2000-02-29", "2024-02-29", "1900-02-28", "2024-03-31", "2024-10-27"}[rng.Intn(5)]
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s\n", k,
			null(f),
			null(fmt.Sprint(rng.Intn(2000001)-1000000)),
			null(fmt.Sprintf("%d.%03d", rng.Intn(2001)-1000, rng.Intn(1000))),
			null(ts),
			null(tz),
			null(d),
			null([]string{"a", "", "zz", "é"}[rng.Intn(4)]))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCallStepsCompile binds CallStepQueries (no device) and checks that
// the device plan of each compiles once its refused calls are host steps,
// and that it has steps exactly where the query says.
func TestCallStepsCompile(t *testing.T) {
	rec, exec := recordingSession(t, "", strings.Split(CallStepDDL, " FROM CSV")[0])
	cols := []*Column{{Type: engine.Int64}, {Type: engine.Float64}, {Type: engine.Int32}, {Type: engine.NumericType(10, 3)},
		{Type: engine.Timestamp}, {Type: engine.TimestampTZ}, {Type: engine.Date}, {Type: engine.Text, Width: 2}}
	for _, tc := range CallStepQueries {
		if err := exec(`SET TIME ZONE '` + tc.Zone + `'`); err != nil {
			t.Fatal(err)
		}
		rec.plan = nil
		if err := exec(tc.SQL); err != nil { // the table is empty: no row raises an error
			t.Fatalf("%s: %v", tc.SQL, err)
		}
		p := rec.plan
		if p == nil {
			t.Fatalf("%s: no plan ran", tc.SQL)
		}
		var steps []string
		st := &stepper{cols: cols}
		st.step = func(h *engine.HostFunc, guard engine.Expr) (engine.Expr, error) {
			steps = append(steps, h.String())
			ref := &engine.ColRef{Idx: len(st.cols), Name: h.Name, T: h.T}
			st.cols = append(st.cols[:len(st.cols):len(st.cols)], &Column{Type: h.T})
			return ref, nil
		}
		q, err := st.rewrite(p)
		if err != nil {
			t.Errorf("%s: %v", tc.SQL, err)
			continue
		}
		c := &compiler{p: newProgram(), cols: st.cols}
		if _, err := c.compileOutputs(deviceExprs(q), 0); err != nil {
			t.Errorf("%s: after the steps %q: %v", tc.SQL, steps, err)
		}
		if (len(steps) > 0) != tc.Steps {
			t.Errorf("%s: host steps %q", tc.SQL, steps)
		}
	}
}

// TestHostCallRefuses checks what never becomes a step: a refused call
// over random() (a value per row: the kernels compute random() itself,
// intv2.go), and a refused call whose result a step cannot hold.
func TestHostCallRefuses(t *testing.T) {
	s := &stepper{cols: []*Column{{Type: engine.Float64}, {Type: engine.NumericType(10, 3)}, {Type: engine.Int32}}}
	f := &engine.ColRef{Idx: 0, T: engine.Float64}
	n := &engine.ColRef{Idx: 1, T: engine.NumericType(10, 3)}
	i := &engine.ColRef{Idx: 2, T: engine.Int32}
	rnd := &engine.Call{Op: engine.OpRandom, T: engine.Float64}
	for _, e := range []*engine.Call{
		{Op: engine.OpWidthBucket, Args: []engine.Expr{rnd, f, f, i}, T: engine.Int32},
		{Op: engine.OpMakeInterval, Args: []engine.Expr{i, i, i, i, i, i, f}, T: engine.Interval},
	} {
		if !s.refused(e) {
			t.Errorf("%s compiles", e)
		}
		if h, ok := s.hostCall(e); ok {
			t.Errorf("%s became the step %s", e, h)
		}
	}
	// a numeric result: a step, whose results must share a scale
	if _, ok := s.hostCall(&engine.Call{Op: engine.OpLn, Args: []engine.Expr{n}, T: engine.Numeric}); !ok {
		t.Error("ln(numeric) is no step")
	}
	e := &engine.Call{Op: engine.OpExp, Args: []engine.Expr{&engine.Call{Op: engine.OpAdd, Args: []engine.Expr{f, f}, T: engine.Float64}}, T: engine.Float64}
	h, ok := s.hostCall(e)
	if !ok || len(h.Args) != 1 || h.Args[0].String() != e.Args[0].String() {
		t.Fatalf("exp(f + f): %v %v", h, ok)
	}
	v, err := h.Fn([]*engine.Vec{{T: engine.Float64, F: []float64{0, 1}}}, 2)
	if err != nil || v.F[0] != 1 || v.F[1] != engine.FExp(1) {
		t.Errorf("exp over the argument: %v %v", v, err)
	}
}

// hostCallBackend runs plans on the CPU backend after turning the calls
// the kernels refuse into the host functions hostCall makes, so that
// their results can be compared with the CPU's own without a device.
type hostCallBackend struct {
	engine.Backend
	steps int
}

func (b *hostCallBackend) Execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	if p.Input == nil && !p.Host {
		var cols []*Column
		for _, c := range p.Schema {
			cols = append(cols, &Column{Type: c.Type, Width: 16})
		}
		s := &stepper{cols: cols}
		s.step = func(h *engine.HostFunc, guard engine.Expr) (engine.Expr, error) {
			b.steps++
			return h, nil
		}
		q, err := s.rewrite(p)
		if err != nil {
			return err
		}
		p = q
	}
	return b.Backend.Execute(ctx, p, sink)
}

// csSessions returns a session per backend over cs holding the rows of
// WriteCallStepCSV (n rows, inserted: this package cannot import the
// loader).
func csSessions(t *testing.T, n int, backends ...engine.Backend) []engine.Session {
	dir := t.TempDir()
	WriteCallStepCSV(t, dir+"/cs.csv", n, rand.New(rand.NewSource(5)))
	csv, err := os.ReadFile(dir + "/cs.csv")
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, line := range strings.Split(strings.TrimSpace(string(csv)), "\n") {
		fields := strings.Split(line, ",")
		for k, f := range fields {
			fields[k] = "NULL"
			if f != "" {
				fields[k] = "'" + f + "'"
			}
		}
		values = append(values, "("+strings.Join(fields, ", ")+")")
	}
	insert := "INSERT INTO cs VALUES " + strings.Join(values, ", ")
	var out []engine.Session
	for _, b := range backends {
		srv, err := query.NewServer(query.Options{FileRoot: dir, DataDir: t.TempDir(), Backend: b})
		if err != nil {
			t.Fatal(err)
		}
		s, err := srv.NewSession(engine.SessionParams{User: "t", Database: "t"})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{strings.Split(CallStepDDL, " FROM CSV")[0], insert} {
			if err := s.Query(context.Background(), q, discard{}); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, s)
	}
	return out
}

// TestHostCallsMatchCPU runs CallStepQueries on the CPU backend as they
// are and with hostCall's host functions in place of the refused calls:
// the same rows and errors.
func TestHostCallsMatchCPU(t *testing.T) {
	hb := &hostCallBackend{Backend: cpu.New(nil, 1)}
	ss := csSessions(t, 3000, cpu.New(nil, 1), hb)
	cs, hs := ss[0], ss[1]
	for _, tc := range CallStepQueries {
		var out [2]textRowsOf
		var errs [2]error
		for k, s := range []engine.Session{cs, hs} {
			if err := s.Query(context.Background(), `SET TIME ZONE '`+tc.Zone+`'`, discard{}); err != nil {
				t.Fatal(err)
			}
			before := hb.steps
			errs[k] = s.Query(context.Background(), tc.SQL, &out[k])
			if k == 1 && (hb.steps > before) != tc.Steps {
				t.Errorf("%s: %d host functions", tc.SQL, hb.steps-before)
			}
		}
		if fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) || (errs[0] != nil) != tc.Err {
			t.Errorf("%s:\n cpu %v\n host functions %v", tc.SQL, errs[0], errs[1])
			continue
		}
		if fmt.Sprint(out[0].rows) != fmt.Sprint(out[1].rows) {
			t.Errorf("%s: rows differ", tc.SQL)
		}
		if len(out[0].rows) == 0 && !tc.Err {
			t.Errorf("%s: no rows", tc.SQL)
		}
	}
}

// textRowsOf keeps the rows of a result as text.
type textRowsOf struct {
	discard
	rows []string
}

func (r *textRowsOf) Row(v [][]byte) error {
	parts := make([]string, len(v))
	for i, b := range v {
		parts[i] = "NULL"
		if b != nil {
			parts[i] = string(b)
		}
	}
	r.rows = append(r.rows, strings.Join(parts, "|"))
	return nil
}

func (b *hostCallBackend) Store(h *engine.HostTable, o engine.StoreOptions) (engine.TableData, error) {
	return b.Backend.(engine.TableStore).Store(h, o)
}

func (b *hostCallBackend) Materialize(ctx context.Context, p *engine.Plan, o engine.StoreOptions) (engine.TableData, error) {
	return b.Backend.(engine.TableStore).Materialize(ctx, p, o)
}
