package main

// Scale-out through PostgreSQL (docs/scale-out.md): three gpusql nodes
// on loopback, loaded by the shard command's package from one CSV file
// per table, behind a PostgreSQL 15 coordinator whose partitioned
// tables' partitions are postgres_fdw foreign tables on the nodes, as
// the DDL shard.WriteDDL prints. Every query of testdata/scaleout gives
// the coordinator's answer and a single gpusql node's (holding the whole
// files) alike; entries with "-- remote: TEXT" lines also need each TEXT
// in the coordinator's EXPLAIN VERBOSE, which is how the test proves
// what is pushed down to the nodes.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/shard"
)

const (
	scaleOutDir   = "../../testdata/scaleout"
	scaleOutRows  = 30_000
	scaleOutNodes = 3
)

// scaleOutTable is one table of the test: its file and how it is split.
type scaleOutTable struct {
	name, columns, key string
	rangeBounds        []string // nil: hash
	file               string
}

func scaleOutTables(dir string) []scaleOutTable {
	var li strings.Builder
	for i, c := range loader.LineitemColumns() {
		if i > 0 {
			li.WriteString(", ")
		}
		li.WriteString(c.Name + " " + c.Type.String())
		if c.NotNull {
			li.WriteString(" NOT NULL")
		}
	}
	orders := "o_orderkey bigint NOT NULL, o_custkey integer NOT NULL, o_orderstatus char(1), " +
		"o_totalprice numeric(15,2), o_orderdate date, o_orderpriority varchar(15), o_comment text"
	return []scaleOutTable{
		{name: "lineitem", columns: li.String(), key: "l_orderkey", file: filepath.Join(dir, "lineitem.csv")},
		{name: "orders", columns: orders, key: "o_orderkey", file: filepath.Join(dir, "orders.csv")},
		// the same rows as orders, range-partitioned on the date
		{name: "orders_r", columns: orders, key: "o_orderdate", rangeBounds: []string{"1994-01-01", "1996-07-01"},
			file: filepath.Join(dir, "orders.csv")},
	}
}

// writeScaleOutFiles writes lineitem.csv and an orders.csv whose keys
// cover lineitem's (and a few orders with no lines), with NULLs in the
// nullable columns.
func writeScaleOutFiles(t *testing.T, dir string, rows int) {
	t.Helper()
	path := filepath.Join(dir, "lineitem.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := loader.WriteLineitem(f, rows, 13); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// the largest order key
	f, err = os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var maxKey int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, _, _ := strings.Cut(sc.Text(), ",")
		if v, err := strconv.ParseInt(k, 10, 64); err == nil && v > maxKey {
			maxKey = v
		}
	}
	f.Close()

	out, err := os.Create(filepath.Join(dir, "orders.csv"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(out)
	rng := rand.New(rand.NewPCG(7, 11))
	prios := []string{"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"}
	for k := int64(1); k <= maxKey+50; k++ {
		status := string("OFP"[rng.IntN(3)])
		if rng.IntN(40) == 0 {
			status = ""
		}
		price := ""
		if rng.IntN(50) != 0 {
			price = fmt.Sprintf("%d.%02d", 900+rng.IntN(400000), rng.IntN(100))
		}
		day := 8035 + rng.IntN(2400) // 1992-01-01 on
		comment := fmt.Sprintf("%q", "order, "+strings.Repeat("x", rng.IntN(5)))
		if rng.IntN(30) == 0 {
			comment = ""
		}
		fmt.Fprintf(w, "%d,%d,%s,%s,%s,%s,%s\n", k, 1+rng.IntN(1500), status, price,
			dateText(int32(day)), prios[rng.IntN(len(prios))], comment)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// dateText is days since 1970-01-01 as YYYY-MM-DD.
func dateText(days int32) string {
	y, m, d := engine.CivilFromDays(days)
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

// scaleOutEnv is the cluster: nodes, a single node and the coordinator.
type scaleOutEnv struct {
	nodes  []*gpusqlServer
	single *pgconn.PgConn
	coord  *pgconn.PgConn
	specs  []*shard.Spec
}

// newScaleOut starts n nodes, loads them with shard.Load, a single node
// with the whole files, and a coordinator with shard.WriteDDL's DDL.
func newScaleOut(t *testing.T, n, rows int) *scaleOutEnv {
	t.Helper()
	binDir := requirePG(t)
	dir := t.TempDir()
	writeScaleOutFiles(t, dir, rows)
	ctx := context.Background()
	e := &scaleOutEnv{}
	var addrs []string
	for i := 0; i < n; i++ {
		s := startGpusql(t, t.TempDir())
		e.nodes = append(e.nodes, s)
		addrs = append(addrs, fmt.Sprintf("127.0.0.1:%d", s.port))
	}
	single := startGpusql(t, dir)
	var err error
	if e.single, err = single.connect(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.single.Close(ctx) })
	pg := startPG(t, binDir)
	if e.coord, err = pg.connect(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.coord.Close(ctx) })

	for _, tb := range scaleOutTables(dir) {
		if tb.rangeBounds != nil {
			tb.rangeBounds = tb.rangeBounds[:n-1] // one node: one partition of everything
		}
		spec, err := shard.NewSpec(shard.Config{Table: tb.name, Columns: tb.columns, Key: tb.key, Nodes: addrs,
			Range: tb.rangeBounds, User: "postgres", Database: "postgres"})
		if err != nil {
			t.Fatal(err)
		}
		e.specs = append(e.specs, spec)
		var ddl strings.Builder
		if len(tb.rangeBounds) > 0 {
			// through the command, as a person runs it
			args := []string{"--by", tb.key, "--nodes", strings.Join(addrs, ","), "--table", tb.name, "--columns", tb.columns,
				"--range", strings.Join(tb.rangeBounds, ","), "--user", "postgres", "--dbname", "postgres", "--progress", "0", tb.file}
			o, err := parseShardFlags(args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			var log strings.Builder
			if err := shardCommand(ctx, o, nil, &ddl, &log); err != nil {
				t.Fatalf("gpusql shard %s: %v", strings.Join(args, " "), err)
			}
			if !strings.Contains(log.String(), "loaded ") {
				t.Errorf("gpusql shard printed no summary:\n%s", log.String())
			}
		} else {
			in, err := os.Open(tb.file)
			if err != nil {
				t.Fatal(err)
			}
			stats, err := shard.Load(ctx, spec, in, nil)
			in.Close()
			if err != nil {
				t.Fatalf("shard %s: %v", tb.name, err)
			}
			for _, s := range stats {
				if s.Rows == 0 {
					t.Errorf("shard %s: node %s got no rows", tb.name, s.Node)
				}
			}
			if err := shard.WriteDDL(&ddl, spec); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.single.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (%s) FROM CSV %s", tb.name, tb.columns,
			quoteLiteral(filepath.Base(tb.file)))).ReadAll(); err != nil {
			t.Fatalf("single node: %s: %v", tb.name, err)
		}
		if _, err := e.coord.Exec(ctx, ddl.String()).ReadAll(); err != nil {
			if strings.Contains(err.Error(), "postgres_fdw") && strings.Contains(err.Error(), "not available") {
				requireClient(t, "/usr/share/postgresql/15/extension/postgres_fdw.control", "postgresql-15 (postgres_fdw)")
			}
			t.Fatalf("coordinator DDL:\n%s\n%s", ddl.String(), pgErrText(err))
		}
	}
	return e
}

// scaleOutQuery is an entry of testdata/scaleout.
type scaleOutQuery struct {
	*diffQuery
	remote []string // texts the coordinator's EXPLAIN VERBOSE must hold
}

var scaleOutRemoteRe = regexp.MustCompile(`^--\s*remote:\s*(.*\S)\s*$`)

// loadScaleOut reads testdata/scaleout/*.sql: the differential corpus's
// format (testdata/diff/README.md) plus "-- remote: TEXT" header lines.
func loadScaleOut(t *testing.T) []scaleOutQuery {
	t.Helper()
	qs, err := loadDiffCorpus(scaleOutDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []scaleOutQuery
	for _, q := range qs {
		b, err := os.ReadFile(filepath.Join(scaleOutDir, q.File))
		if err != nil {
			t.Fatal(err)
		}
		sq := scaleOutQuery{diffQuery: q}
		lines := strings.Split(string(b), "\n")
		for _, l := range lines[q.Line:] {
			l = strings.TrimSpace(l)
			if !strings.HasPrefix(l, "--") {
				break
			}
			if m := scaleOutRemoteRe.FindStringSubmatch(l); m != nil {
				sq.remote = append(sq.remote, m[1])
			}
		}
		out = append(out, sq)
	}
	return out
}

func TestScaleOut(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL and four gpusql servers")
	}
	queries := loadScaleOut(t)
	if len(queries) < 30 {
		t.Fatalf("testdata/scaleout has %d queries, want at least 30", len(queries))
	}
	e := newScaleOut(t, scaleOutNodes, scaleOutRows)
	ctx := context.Background()
	pushed := 0
	for _, q := range queries {
		t.Run(q.Name, func(t *testing.T) {
			plan, err := pgExec(ctx, e.coord, "EXPLAIN VERBOSE "+q.SQL)
			if err != nil {
				t.Fatalf("coordinator: EXPLAIN VERBOSE: %s", pgErrText(err))
			}
			for _, want := range q.remote {
				if !strings.Contains(plan, want) {
					t.Errorf("the coordinator's EXPLAIN VERBOSE lacks %q:\n%s", want, plan)
				}
			}
			if len(q.remote) > 0 {
				pushed++
			}
			got := runDiffQuery(ctx, e.coord, q.SQL)
			want := runDiffQuery(ctx, e.single, q.SQL)
			if got.Err != nil {
				t.Fatalf("coordinator: %s\nplan:\n%s", pgErrText(got.Err), plan)
			}
			if want.Err != nil {
				t.Fatalf("single node: %s", pgErrText(want.Err))
			}
			for _, d := range diffCompare(q.diffQuery, want, got) {
				t.Errorf("%s (\"PostgreSQL\" is the single node, \"gpusql\" the coordinator)", d)
			}
			if t.Failed() || testing.Verbose() {
				t.Logf("plan:\n%s", plan)
			}
		})
	}
	if pushed == 0 {
		t.Errorf("no entry checks what is pushed down")
	}
}

// runDiffQuery runs sql on c.
func runDiffQuery(ctx context.Context, c *pgconn.PgConn, sql string) *diffOutcome {
	res, err := c.Exec(ctx, sql).ReadAll()
	o := &diffOutcome{Err: err}
	for _, r := range res {
		if r.Err != nil && o.Err == nil {
			o.Err = r.Err
		}
		o.Results = append(o.Results, r)
	}
	return o
}

// TestScaleOutTimes times testdata/scaleout on the coordinator over 1, 2
// and 3 nodes (and on a single node directly) for docs/scale-out.md. It
// measures, so it runs only when GPUSQL_SCALEOUT_ROWS gives lineitem's
// rows; each query runs three times and the best time is kept.
func TestScaleOutTimes(t *testing.T) {
	rows, _ := strconv.Atoi(os.Getenv("GPUSQL_SCALEOUT_ROWS"))
	if rows <= 0 {
		t.Skip("set GPUSQL_SCALEOUT_ROWS to time the scale-out queries")
	}
	queries := loadScaleOut(t)
	ctx := context.Background()
	best := func(c *pgconn.PgConn, sql string) time.Duration {
		var b time.Duration
		for i := 0; i < 3; i++ {
			start := time.Now()
			if _, err := c.Exec(ctx, sql).ReadAll(); err != nil {
				t.Fatalf("%s: %s", sql, pgErrText(err))
			}
			if d := time.Since(start); i == 0 || d < b {
				b = d
			}
		}
		return b
	}
	times := map[string][]time.Duration{}
	var single []time.Duration
	for n := 1; n <= 3; n++ {
		e := newScaleOut(t, n, rows)
		for _, q := range queries {
			times[q.Name] = append(times[q.Name], best(e.coord, q.SQL))
			if n == 1 {
				single = append(single, best(e.single, q.SQL))
			}
		}
	}
	var b strings.Builder
	b.WriteString("| query | one gpusql, direct | 1 node | 2 nodes | 3 nodes |\n|---|---|---|---|---|\n")
	var sums [4]time.Duration
	for i, q := range queries {
		ts := times[q.Name]
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", q.Name, ms(single[i]), ms(ts[0]), ms(ts[1]), ms(ts[2]))
		sums[0] += single[i]
		for k := range ts {
			sums[k+1] += ts[k]
		}
	}
	fmt.Fprintf(&b, "| total | %s | %s | %s | %s |\n", ms(sums[0]), ms(sums[1]), ms(sums[2]), ms(sums[3]))
	t.Logf("%d lineitem rows:\n%s", rows, b.String())
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
