package loader

import (
	"bytes"
	"sort"
	"time"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
)

// ResidentResult is what ParseResident measured.
type ResidentResult struct {
	Bytes   int64           // CSV bytes parsed per pass
	Rows    int64           // rows loaded per pass
	Batches int             // batches per pass
	Times   []time.Duration // wall time of each pass, sorted
	// Stages is the device time between the stage marks of one more pass
	// (not in Times: recording the marks costs host time), summed over its
	// batches, in the order first seen. Gaps where the device waited for
	// the host fall into the stage that follows.
	Stages []StageTime
}

// StageTime is one stage's share of a pass.
type StageTime struct {
	Name string
	Time time.Duration
}

// ParseResident measures the on-GPU parse rate without transfers: data
// (cut after its last newline) is copied to the device once, then parsed
// reps times exactly as Load parses a file (the same batches of
// GPUConfig.BatchSize, the same stages, host round trips and host re-checks,
// and the final concatenation into one table), except that each batch is
// read in place from the resident copy instead of being copied in. The
// table is released after each pass. For the benchmark program.
func (g *GPU) ParseResident(data []byte, cols []engine.ColumnDef, o engine.CSVOptions, reps int) (*ResidentResult, error) {
	g.once.Do(func() { g.k, g.kerr = loadKernels(g.dev) })
	if g.kerr != nil {
		return nil, g.kerr
	}
	data = data[:bytes.LastIndexByte(data, '\n')+1]
	res := &ResidentResult{Bytes: int64(len(data))}
	db := &devBufs{dev: g.dev, owner: "bench", bufs: map[string]*cuda.Buffer{}}
	defer db.free()
	size := int64(len(data)+gpuChunk-1)/gpuChunk*gpuChunk + gpuChunk
	base, err := g.dev.Alloc("bench", size)
	if err != nil {
		return nil, err
	}
	defer base.Free()
	if err := g.dev.CopyHtoD(base.Ptr(), data, nil); err != nil {
		return nil, err
	}
	var streams [2]*cuda.Stream
	for i := range streams {
		if streams[i], err = g.dev.NewStream(); err != nil {
			return nil, err
		}
		defer streams[i].Close()
	}
	for i := 0; i <= reps; i++ { // the last pass is timed by stage only
		req := &engine.LoadRequest{Table: "bench", Columns: cols, Options: o, Size: int64(len(data))}
		ld, err := newLoad(Config{Workers: 1}.withDefaults(), req)
		if err != nil {
			return nil, err
		}
		gl := &gpuLoad{g: g, k: g.k, dev: g.dev, ld: ld, req: req, db: db, streams: streams,
			widths: make([]int, len(ld.cols)), nulls: make([]bool, len(ld.cols)), nul: []byte(o.Null)}
		if i == reps {
			gl.prof = &stageProf{dev: g.dev}
		}
		t0 := time.Now()
		t, nb, err := gl.resident(data, base)
		el := time.Since(t0)
		if err != nil {
			return nil, err
		}
		if gl.prof == nil {
			res.Times = append(res.Times, el)
		}
		res.Rows, res.Batches = t.N, nb
		t.Release()
		if gl.prof != nil {
			if res.Stages, err = gl.prof.sum(); err != nil {
				return nil, err
			}
			gl.prof.close()
		}
	}
	sort.Slice(res.Times, func(i, j int) bool { return res.Times[i] < res.Times[j] })
	return res, nil
}

// resident is run's loop over a batch sequence read in place from base.
func (gl *gpuLoad) resident(data []byte, base *cuda.Buffer) (*gpu.Table, int, error) {
	block := int64(gl.g.cfg.BatchSize)
	n := int64(len(data))
	var lo int64
	nb := 0
	grow := int64(0)
	for {
		hi := min(lo+block+grow, n)
		p := &pending{hv: data[lo:hi], base: base, lo: lo, hi: hi, eof: hi == n}
		nb++
		gl.prof.mark(gl.streams[0], "start")
		err := gl.streams[1].Sync() // as run waits for a batch's copy
		var ix *indexed
		if err == nil {
			ix, err = gl.index(p)
		}
		if err == nil && ix.nrec > 0 {
			err = gl.rows(p, ix)
		}
		if err != nil {
			_ = gl.streams[0].Sync()
			gl.freeOut()
			return nil, 0, err
		}
		gl.lineBase += ix.lf - int64(bytes.Count(p.hv[ix.consumed:], []byte{'\n'}))
		gl.recBase += int64(ix.nrec)
		gl.bytesDone += int64(ix.consumed)
		if p.eof {
			break
		}
		grow = 0
		if ix.consumed == 0 {
			grow = hi - lo
		}
		lo += int64(ix.consumed)
	}
	gl.prof.mark(gl.streams[0], "start")
	t, err := gl.finish(gl.streams[0])
	gl.prof.mark(gl.streams[0], "finish")
	return t, nb, err
}

// stageProf times the stages of a load with events (nil: off). Marks are
// recorded on the batch's stream; a stage's time is the device time from
// the previous mark to its own.
type stageProf struct {
	dev    *cuda.Device
	events []*cuda.Event
	names  []string
	err    error
}

func (p *stageProf) mark(s *cuda.Stream, name string) {
	if p == nil || p.err != nil {
		return
	}
	e, err := p.dev.NewEvent()
	if err == nil {
		err = e.Record(s)
	}
	if err != nil {
		p.err = err
		return
	}
	p.events = append(p.events, e)
	p.names = append(p.names, name)
}

func (p *stageProf) sum() ([]StageTime, error) {
	if p.err != nil {
		return nil, p.err
	}
	var out []StageTime
	at := map[string]int{}
	for i := 1; i < len(p.events); i++ {
		if p.names[i] == "start" {
			continue
		}
		if err := p.events[i].Sync(); err != nil {
			return nil, err
		}
		d, err := cuda.Elapsed(p.events[i-1], p.events[i])
		if err != nil {
			return nil, err
		}
		k, ok := at[p.names[i]]
		if !ok {
			k = len(out)
			at[p.names[i]] = k
			out = append(out, StageTime{Name: p.names[i]})
		}
		out[k].Time += d
	}
	return out, nil
}

func (p *stageProf) close() {
	for _, e := range p.events {
		_ = e.Close()
	}
}
