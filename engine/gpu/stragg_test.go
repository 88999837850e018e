package gpu_test

import (
	"math/rand"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// stringAggQueries run over the nasty table st (writeNastyCSV), with c
// as char(12): NULL values (nullif), NULL and per-row delimiters, empty
// strings, multibyte text, DISTINCT with and without ORDER BY, keys of
// every kind, no rows, groups whose values are all NULL, many groups,
// errors in the arguments and keys.
var stringAggQueries = []string{
	`SELECT string_agg(s, ',') FROM st`,
	`SELECT string_agg(nullif(s, 'x'), ', ') FROM st WHERE id % 3 = 1`,
	`SELECT i, string_agg(s, c) FROM st GROUP BY i`,
	`SELECT i, string_agg(s, nullif(s, 'aaaa')) FROM st GROUP BY i`,
	`SELECT b, string_agg(s, '|' ORDER BY id DESC) FROM st GROUP BY b`,
	`SELECT d, string_agg(DISTINCT s, ';') FROM st GROUP BY d`,
	`SELECT string_agg(DISTINCT c, ',' ORDER BY c DESC) FROM st WHERE id % 3 = 0`,
	`SELECT string_agg(DISTINCT s, c) FROM st`,
	`SELECT n, string_agg(DISTINCT nullif(s, ''), nullif(c, 'x')) FROM st GROUP BY n`,
	`SELECT string_agg(c, '' ORDER BY n NULLS FIRST, id) FROM st`,
	`SELECT string_agg(c, '/' ORDER BY n DESC, ts, id) FROM st WHERE id < 300`,
	`SELECT string_agg(s, ',') FROM st WHERE id < 0`,
	`SELECT i, string_agg(s, ',' ORDER BY s), count(*), string_agg(DISTINCT s, c), sum(n) FROM st WHERE id % 7 <> 2 GROUP BY i HAVING count(*) > 3`,
	`SELECT string_agg(upper(s) || '!', '-' ORDER BY f DESC NULLS LAST, ts, id) FROM st`,
	`SELECT id % 5, length(string_agg(s, '#' ORDER BY d, id)), string_agg(i::text, '+' ORDER BY i NULLS FIRST, id) FROM st GROUP BY 1`,
	`SELECT id % 4, string_agg(CASE WHEN id % 4 = 0 THEN NULL ELSE s END, ',') FROM st GROUP BY 1`,
	`SELECT id / 3, string_agg(s, ',' ORDER BY id DESC), string_agg(s, ',') FROM st GROUP BY 1`,
	`SELECT b, string_agg(s, ',' ORDER BY b, s DESC NULLS FIRST, id) FROM st GROUP BY b`,
	`SELECT string_agg(s, ',' ORDER BY 100 / (id - 5)) FROM st`,
	`SELECT string_agg(substring(s, 1, id % 4 - 2), ',') FROM st`,
	`SELECT string_agg(s, ',' ORDER BY ts::text DESC, id) FROM st WHERE id % 11 = 0`,
	`SELECT string_agg(DISTINCT s, '' ORDER BY s) FROM st WHERE id = 3`,
}

// scaledMinMaxQueries: min/max over numerics whose scale varies by row
// (quotients, CASE over scales): compared by value, the first row of the
// best value wins with its own scale (1.5 against 1.50).
var scaledMinMaxQueries = []string{
	`SELECT min(n / i), max(n / i), count(*) FROM st WHERE i <> 0`,
	`SELECT b, max(CASE WHEN id % 2 = 0 THEN n ELSE 1.5 END), min(CASE WHEN id % 3 = 0 THEN 0.50 ELSE n END) FROM st GROUP BY b`,
	`SELECT id % 3, max(CASE WHEN id % 2 = 0 THEN 1.5 ELSE 1.50 END), min(CASE WHEN id % 2 = 1 THEN 2.500 ELSE 2.5 END) FROM st GROUP BY 1`,
	`SELECT id % 7, max(n / 7), min(100 / n), sum(n) FROM st WHERE n <> 0 GROUP BY 1`,
	`SELECT max(CASE WHEN id < 0 THEN n / 3 END), min(n / 3) FROM st WHERE id % 2 = 0`,
	`SELECT i, max(DISTINCT n / 3) FROM st GROUP BY i`,
}

// TestStringAggMatchesCPU compares string_agg (and min/max over numerics
// whose scale varies by row) on the device with the CPU
// backend (1 and 8 workers) over nasty values at sizes around the scan's
// 4,096-row chunks and the radix sort's 16,384-row tiles.
func TestStringAggMatchesCPU(t *testing.T) {
	dev := openDev(t)
	for _, size := range []int{1, 5000, 70_000} {
		dir := t.TempDir()
		writeNastyCSV(t, filepath.Join(dir, "st.csv"), size, rand.New(rand.NewSource(int64(size))))
		host := loader.NewCPU(loader.Config{})
		mk := func(b engine.Backend) engine.Session {
			return newSession(t, dir, b, `CREATE TABLE st (id bigint, s text, c char(12), i bigint, n numeric(18,3), d date, ts timestamp, b boolean, f double precision) FROM CSV 'st.csv'`)
		}
		c1, c8 := mk(cpu.New(host, 1)), mk(cpu.New(host, 8))
		gs := mk(gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}))
		for _, q := range append(stringAggQueries[:len(stringAggQueries):len(stringAggQueries)], scaledMinMaxQueries...) {
			want, werr := runSQL(t, c1, q)
			want8, werr8 := runSQL(t, c8, q)
			got, gerr := runSQL(t, gs, q)
			if engine.Code(werr) != engine.Code(gerr) || engine.Code(werr) != engine.Code(werr8) {
				t.Errorf("%d rows: %s\n cpu error %v (8 workers: %v)\n gpu error %v", size, q, werr, werr8, gerr)
				continue
			}
			sort.Strings(want)
			sort.Strings(want8)
			sort.Strings(got)
			for k := 0; k < max(len(want), len(got), len(want8)); k++ {
				w, w8, g := "<none>", "<none>", "<none>"
				if k < len(want) {
					w = want[k]
				}
				if k < len(want8) {
					w8 = want8[k]
				}
				if k < len(got) {
					g = got[k]
				}
				if w != g || w != w8 {
					t.Errorf("%d rows: %s\n row %d (of %d/%d)\n cpu %.300q\n cpu8 %.300q\n gpu %.300q", size, q, k, len(want), len(got), w, w8, g)
					break
				}
			}
		}
	}
}
