package gpu_test

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// The helpers here run the same SQL on a CPU-backed and a GPU-backed
// server over the same files and report where the two answers differ.

// twinSessions returns a CPU session and a GPU session (on dev) over the
// files in dir, each after the statements ddl.
func twinSessions(t *testing.T, dev *cuda.Device, dir string, ddl ...string) (cs, gs engine.Session) {
	t.Helper()
	host := loader.NewCPU(loader.Config{})
	cs = newSession(t, dir, cpu.New(host, 0), ddl...)
	gs = newSession(t, dir, gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}), ddl...)
	return cs, gs
}

// twinOpts says how two answers to one query are judged.
type twinOpts struct {
	// noErrors: an error on either side is a failure. Otherwise both
	// must fail alike (the same SQLSTATE), and a 0A000 from the GPU
	// alone is a refusal, which the caller counts.
	noErrors bool
	// sameMessage: failing alike takes the same message too.
	sameMessage bool
	// ordered tells whether q's rows come in a defined order; the rows
	// of the others are sorted before they are compared. nil: the rows
	// are compared as they come.
	ordered func(q string) bool
}

// sameErrors reports whether the CPU's error werr and the GPU's gerr
// agree under o.
func (o twinOpts) sameErrors(werr, gerr error) bool {
	if o.noErrors {
		return werr == nil && gerr == nil
	}
	return engine.Code(werr) == engine.Code(gerr) && (!o.sameMessage || fmt.Sprint(werr) == fmt.Sprint(gerr))
}

// compareRows reports (t.Errorf, with the prefix what) the first row where
// the GPU's rows got differ from the CPU's want, sorting both first when
// the query q has no defined order. It sorts copies: the callers' slices
// are left alone.
func (o twinOpts) compareRows(t *testing.T, what, q string, want, got []string) {
	t.Helper()
	if o.ordered != nil && !o.ordered(q) {
		want, got = sorted(want), sorted(got)
	}
	if d := rowDiff(want, got); d != "" {
		t.Errorf("%s%s\n %s", what, q, d)
	}
}

// compareQuery runs q on cs and gs and reports (t.Errorf) a difference
// in errors or rows. It returns the GPU's error where the GPU refused q
// with 0A000 and the CPU did not, and reports nothing then.
func compareQuery(t *testing.T, cs, gs engine.Session, q string, o twinOpts) (refusal error) {
	t.Helper()
	want, werr := runSQL(t, cs, q)
	got, gerr := runSQL(t, gs, q)
	if !o.noErrors && gerr != nil && engine.Code(gerr) == engine.CodeFeatureNotSupported && engine.Code(werr) != engine.CodeFeatureNotSupported {
		return gerr
	}
	if !o.sameErrors(werr, gerr) {
		t.Errorf("%s\n cpu error %v\n gpu error %v", q, werr, gerr)
		return nil
	}
	o.compareRows(t, "", q, want, got)
	return nil
}

// compareSessions runs compareQuery over queries and returns those the
// GPU refused, each logged.
func compareSessions(t *testing.T, cs, gs engine.Session, queries []string, o twinOpts) (refused []string) {
	t.Helper()
	for _, q := range queries {
		if err := compareQuery(t, cs, gs, q, o); err != nil {
			t.Logf("refused: %s: %v", q, err)
			refused = append(refused, q)
		}
	}
	return refused
}

// sizedTwins is a device test over one table written at several sizes.
// The CPU backend answers first, with each worker count, and its answers
// must agree with each other, so that the queries are checked where no
// GPU exists too; then each query runs on the device, its pool poisoned
// before it, and must answer as the CPU did.
type sizedTwins struct {
	sizes []int
	// write writes the table's file for n rows into dir.
	write   func(t *testing.T, dir string, n int)
	ddl     string
	queries []string
	// workers are the CPU backend's worker counts (default 1 and 8); the
	// first one's answers are the reference.
	workers []int
	// sortWorkers compares the worker counts' rows as sorted lists, for
	// every query.
	sortWorkers bool
	// checkCPU judges the reference's error err (nil or not) for query
	// k at n rows; nil: any error is a failure.
	checkCPU func(t *testing.T, n, k int, q string, err error)
	// how the GPU's answers are judged (noErrors is not used)
	opts twinOpts
	// afterGPU runs after the queries at n rows, on the GPU session.
	afterGPU func(t *testing.T, n int, gs engine.Session)
}

// run runs the test and returns the folders of the sizes' files.
func (c sizedTwins) run(t *testing.T) (dirs []string) {
	t.Helper()
	workers := c.workers
	if workers == nil {
		workers = []int{1, 8}
	}
	host := loader.NewCPU(loader.Config{})
	type result struct {
		rows []string
		err  error
	}
	dirs = make([]string, len(c.sizes))
	want := make([][]result, len(c.sizes))
	for si, n := range c.sizes {
		dirs[si] = t.TempDir()
		c.write(t, dirs[si], n)
		ss := make([]engine.Session, len(workers))
		for i, w := range workers {
			ss[i] = newSession(t, dirs[si], cpu.New(host, w), c.ddl)
		}
		for k, q := range c.queries {
			r, err := runSQL(t, ss[0], q)
			for i := 1; i < len(ss); i++ {
				ri, erri := runSQL(t, ss[i], q)
				a, b := r, ri
				if c.sortWorkers {
					a, b = sorted(a), sorted(b)
				}
				if !c.opts.sameErrors(err, erri) || fmt.Sprint(a) != fmt.Sprint(b) {
					t.Errorf("%d rows: the CPU backend with %d and %d workers differ: %s\n%v\n%v", n, workers[0], workers[i], q, err, erri)
				}
			}
			if c.checkCPU != nil {
				c.checkCPU(t, n, k, q, err)
			} else if err != nil {
				t.Errorf("%d rows: cpu: %s: %v", n, q, err)
			}
			want[si] = append(want[si], result{r, err})
		}
	}
	dev := openDev(t)
	for si, n := range c.sizes {
		gs := newSession(t, dirs[si], gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}), c.ddl)
		for k, q := range c.queries {
			poisonPool(t, dev)
			w := want[si][k]
			got, gerr := runSQL(t, gs, q)
			if !c.opts.sameErrors(w.err, gerr) {
				t.Errorf("%d rows: %s\n cpu error %v\n gpu error %v", n, q, w.err, gerr)
				continue
			}
			c.opts.compareRows(t, fmt.Sprintf("%d rows: ", n), q, w.rows, got)
		}
		if c.afterGPU != nil {
			c.afterGPU(t, n, gs)
		}
	}
	return dirs
}

// csvWriter adapts a writer of one CSV file to sizedTwins.write.
func csvWriter(file string, seed int64, write func(t *testing.T, path string, n int, rng *rand.Rand)) func(t *testing.T, dir string, n int) {
	return func(t *testing.T, dir string, n int) {
		write(t, filepath.Join(dir, file), n, rand.New(rand.NewSource(int64(n)+seed)))
	}
}

// orderedByID: the rows come in order where the query orders by id.
func orderedByID(q string) bool { return strings.Contains(q, "ORDER BY id") }

// orderedByIDOrLimited: ... or where it has a LIMIT (the test orders
// those queries in full).
func orderedByIDOrLimited(q string) bool {
	return strings.Contains(q, "ORDER BY id") || strings.Contains(q, "LIMIT")
}

// orderedUpper: the rows come in order where the query has ORDER BY
// anywhere, in any case.
func orderedUpper(q string) bool { return strings.Contains(strings.ToUpper(q), "ORDER BY") }
