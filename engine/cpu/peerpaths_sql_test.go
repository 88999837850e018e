package cpu_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// TestDistinctAndExtractPathsMatchGeneral: a global DISTINCT aggregate of
// a stored integer column (its values kept by value where the column's
// zone maps bound them) and a GROUP BY of extract(…) from a date column
// (computed into reused vectors) give the answers of the general paths,
// reached by writing the same values as expressions: columns with NULLs,
// negative values, a narrow and a wide range, many distinct values, a
// table of several batches read by two workers, and an empty table.
func TestDistinctAndExtractPathsMatchGeneral(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(17))
	var b strings.Builder
	for i := 0; i < 30000; i++ {
		narrow := fmt.Sprint(rng.Intn(300) - 150)
		if rng.Intn(13) == 0 {
			narrow = ""
		}
		many := fmt.Sprint(rng.Intn(25000))
		wide := fmt.Sprint(rng.Int63n(1<<40) - 1<<39)
		if rng.Intn(17) == 0 {
			wide = ""
		}
		date := fmt.Sprintf("%04d-%02d-%02d", 1890+rng.Intn(220), 1+rng.Intn(12), 1+rng.Intn(28))
		if rng.Intn(11) == 0 {
			date = ""
		}
		ship := fmt.Sprintf("%04d-%02d-%02d", 1995+rng.Intn(2), 1+rng.Intn(12), 1+rng.Intn(28))
		if i > 28000 && rng.Intn(50) == 0 {
			ship = ""
		}
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s\n", narrow, many, wide, date, ship)
	}
	if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "e.csv"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := query.NewServer(query.Options{FileRoot: dir, Backend: cpu.New(loader.NewCPU(loader.Config{}), 2),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s, err := srv.NewSession(engine.SessionParams{})
	if err != nil {
		t.Fatal(err)
	}
	q := func(sql string) string {
		t.Helper()
		var c collect
		if err := s.Query(context.Background(), sql, &c); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return strings.Join(c.rows, ",")
	}
	q("CREATE TABLE d (narrow int, many int, wide bigint, day date, ship date) FROM CSV 'd.csv'")
	q("CREATE TABLE e (narrow int, many int, wide bigint, day date, ship date) FROM CSV 'e.csv'")
	for _, tab := range []string{"d", "e"} {
		for _, c := range []string{"narrow", "many", "wide"} {
			for _, agg := range []string{"count(DISTINCT %s)", "sum(DISTINCT %s)", "min(DISTINCT %s)", "avg(DISTINCT %s)", "count(DISTINCT %s), count(%s), count(*)"} {
				fast := fmt.Sprintf("SELECT "+strings.ReplaceAll(agg, "%s", "%[1]s")+" FROM %[2]s", c, tab)
				slow := fmt.Sprintf("SELECT "+strings.ReplaceAll(agg, "%s", "(%[1]s + 0)")+" FROM %[2]s", c, tab)
				got, want := q(fast), q(slow)
				if got != want {
					t.Errorf("%s: %s, general path %s", fast, got, want)
				}
			}
		}
		// the keys of ship, whose range is small, are served by value
		// (keyMemo) after their first batches, NULLs coming late
		pairs := [][2]string{}
		for _, c := range []string{"day", "ship"} {
			for _, keys := range []string{"extract(year FROM %s), extract(month FROM %s)", "extract(quarter FROM %s)", "extract(day FROM %s), narrow"} {
				pairs = append(pairs, [2]string{strings.ReplaceAll(keys, "%s", c), strings.ReplaceAll(keys, "%s", c+"::timestamp")})
			}
			pairs = append(pairs, [2]string{c + ", extract(year FROM " + c + ")", c + " + 0, extract(year FROM " + c + "::timestamp)"})
		}
		for _, pair := range pairs {
			k, kt := pair[0], pair[1]
			fast := fmt.Sprintf("SELECT %s, count(*), sum(many) FROM %s GROUP BY %s ORDER BY %s", k, tab, k, k)
			slow := fmt.Sprintf("SELECT %s, count(*), sum(many) FROM %s GROUP BY %s ORDER BY %s", kt, tab, kt, kt)
			got, want := q(fast), q(slow)
			if got != want {
				t.Errorf("%s: %s, general path %s", fast, got, want)
			}
			if tab == "d" && strings.Count(got, ",") < 4 {
				t.Errorf("%s: too few groups: %s", fast, got)
			}
		}
	}
}
