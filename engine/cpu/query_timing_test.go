package cpu_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// The TPC-H queries over the loader's lineitem-like data, as the
// differential corpus writes them.
const (
	q1 = `SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
	sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
	avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order
	FROM lineitem WHERE l_shipdate <= date '1998-12-01' - interval '90 day'
	GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus`
	q6 = `SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem
	WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1994-01-01' + interval '1 year'
	AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24`
)

type discard struct{ rows int }

func (d *discard) Describe([]engine.ResultColumn) error { return nil }
func (d *discard) Row([][]byte) error                   { d.rows++; return nil }
func (d *discard) Complete(string) error                { return nil }
func (d *discard) Notice(engine.Notice) error           { return nil }
func (d *discard) EmptyQuery() error                    { return nil }

var (
	benchOnce sync.Once
	benchDir  string
)

// benchSession loads rows of lineitem into a fresh server with the given
// number of executor workers.
func benchSession(b *testing.B, rows, workers int) engine.Session {
	benchOnce.Do(func() {
		benchDir, _ = os.MkdirTemp("", "gpusql-bench")
		f, _ := os.Create(filepath.Join(benchDir, "lineitem.csv"))
		loader.WriteLineitem(f, rows, 1)
		f.Close()
	})
	srv, err := query.NewServer(query.Options{FileRoot: benchDir, Backend: cpu.New(loader.NewCPU(loader.Config{}), workers),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	s, _ := srv.NewSession(engine.SessionParams{})
	create := "CREATE TABLE lineitem (l_orderkey bigint, l_partkey int, l_suppkey int, l_linenumber int, l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_discount numeric(15,2), l_tax numeric(15,2), l_returnflag char(1), l_linestatus char(1), l_shipdate date, l_commitdate date, l_receiptdate date, l_shipinstruct char(25), l_shipmode char(10), l_comment varchar(44)) FROM CSV 'lineitem.csv'"
	if err := s.Query(context.Background(), create, &discard{}); err != nil {
		b.Fatal(err)
	}
	return s
}

func benchQuery(b *testing.B, sql string, workers int) {
	rows := benchRows()
	s := benchSession(b, rows, workers)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if err := s.Query(context.Background(), sql, &discard{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
	// the process's CPU time, less sensitive than the elapsed time to
	// other loads of a shared machine
	b.ReportMetric((cpuTime()-cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkQ1Workers1(b *testing.B) { benchQuery(b, q1, 1) }
func BenchmarkQ1Workers2(b *testing.B) { benchQuery(b, q1, 2) }
func BenchmarkQ6Workers1(b *testing.B) { benchQuery(b, q6, 1) }
func BenchmarkQ6Workers2(b *testing.B) { benchQuery(b, q6, 2) }

// benchRows is the number of rows of the benchmarks' lineitem:
// $GPUSQL_BENCH_ROWS, or a million.
func benchRows() int {
	if n, err := strconv.Atoi(os.Getenv("GPUSQL_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

// High-cardinality grouping and DISTINCT aggregates (issue 11).
const (
	gTwoCols  = `SELECT l_partkey, l_suppkey, count(*), sum(l_extendedprice) FROM lineitem GROUP BY l_partkey, l_suppkey ORDER BY 3 DESC, 1, 2 LIMIT 10`
	gPartkey  = `SELECT l_partkey, count(*), avg(l_quantity) FROM lineitem GROUP BY l_partkey ORDER BY 2 DESC, 1 LIMIT 10`
	dGlobal   = `SELECT count(DISTINCT l_orderkey), count(DISTINCT l_partkey) FROM lineitem`
	dPerGroup = `SELECT l_suppkey, count(DISTINCT l_partkey) FROM lineitem GROUP BY l_suppkey ORDER BY 2 DESC, 1 LIMIT 10`
	gOrderkey = `SELECT l_orderkey, sum(l_quantity) FROM lineitem GROUP BY l_orderkey ORDER BY 2 DESC, 1 LIMIT 10`
	dString   = `SELECT l_returnflag, count(DISTINCT l_comment) FROM lineitem GROUP BY l_returnflag ORDER BY 1`
)

func BenchmarkGroupOrderkeyWorkers2(b *testing.B)    { benchQuery(b, gOrderkey, 2) }
func BenchmarkGroupTwoColsWorkers2(b *testing.B)     { benchQuery(b, gTwoCols, 2) }
func BenchmarkGroupPartkeyWorkers2(b *testing.B)     { benchQuery(b, gPartkey, 2) }
func BenchmarkDistinctGlobalWorkers2(b *testing.B)   { benchQuery(b, dGlobal, 2) }
func BenchmarkDistinctPerGroupWorkers2(b *testing.B) { benchQuery(b, dPerGroup, 2) }
func BenchmarkDistinctStringWorkers2(b *testing.B)   { benchQuery(b, dString, 2) }
