package gpu

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"time"
	"unsafe"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

const (
	fusedTPB      = 256            // threads per block of a fused kernel
	fusedShared   = 40 << 10       // shared bytes a grouped fused kernel may use per block
	fusedMaxSlots = 256            // per-block hash slots at most
	emptyKey      = ^uint64(0)     // an empty hash slot; no packed key equals it
	fusedMaxRows  = int64(1) << 31 // shared split sums are exact below 2^32 rows per block
)

// fusedKernel is one generated kernel and how to call it.
type fusedKernel struct {
	ptx    string
	cols   []int // columns whose pointers are passed, in order
	keys   []keyPart
	slots  int    // per-block hash slots (grouped), 0 without GROUP BY
	shared int    // dynamic shared bytes per block
	gslots int    // global hash slots (1 without GROUP BY)
	entry  string // the kernel's name in ptx: "fused" when empty
	// preArgs: the arguments of precomputed values, after the columns'
	preArgs []preArg
	// fitScale, by aggregate: the scale a sum over numerics whose scale
	// varies by row adds at (its values extended by opDFitR)
	fitScale map[int]int32
}

// fusedAggregate runs p as one generated kernel. ok is false when the plan
// is outside what the generator proves exact (see ptxgen.go) or when the
// groups overflow the hash tables; the caller then runs the interpreter.
func (r *run) fusedAggregate(ctx context.Context, p *engine.Plan) (res *engine.Batch, ok bool, err error) {
	why := "" // for EXPLAIN ANALYZE: why the interpreter runs p
	defer func() {
		if l := engine.StepLogOf(ctx); l != nil && !ok && err == nil && why != "" {
			l.Note("Interpreter: no fused kernel: " + why)
		}
	}()
	if r.n == 0 || r.n >= fusedMaxRows || len(p.Aggs) == 0 || len(p.Aggs) > maxAggs {
		if r.n > 0 {
			why = fmt.Sprintf("%d aggregates over %d rows", len(p.Aggs), r.n)
		}
		return nil, false, nil
	}
	for _, ag := range p.Aggs {
		if isDistinctPass(ag) {
			why = "an aggregate over DISTINCT values"
			return nil, false, nil // the interpreter path's distinctAggs
		}
	}
	if est := r.keyDistinct(p); est > 8*fusedMaxSlots {
		// the kernel would run, overflow its tables and leave the work
		// to the interpreter: a pass over every row for nothing
		why = fmt.Sprintf("about %.0f groups expected, more than the fused kernel's hash tables hold", est)
		return nil, false, nil
	}
	orig := p
	if p, err = r.precompute(p); err != nil {
		return nil, false, err
	}
	prog := newProgram()
	c := &compiler{p: prog, cols: r.t.Cols, fitMax: true}
	mask, filter := int32(0), int32(-1)
	if p.Filter != nil {
		f, err := c.compile(p.Filter, 0)
		if err != nil {
			why = "the filter: " + err.Error()
			return nil, false, nil // the interpreter gives the error
		}
		filter = f.reg
		if mask, err = prog.emit(opIsTrue, f.reg, 0, 0, 0, 0); err != nil {
			why = "the filter: " + err.Error()
			return nil, false, nil
		}
	}
	keyVals := make([]val, len(p.GroupBy))
	for k, e := range p.GroupBy {
		v, err := c.compile(e, mask)
		if err != nil || v.scaleReg != 0 {
			why = "a GROUP BY key whose numeric scale varies by row"
			if err != nil {
				why = "a GROUP BY key: " + err.Error()
			}
			return nil, false, nil
		}
		keyVals[k] = v
	}
	qa, argv, err := compileAggs(c, p, mask)
	if err != nil {
		why = "an aggregate: " + err.Error()
		return nil, false, nil
	}
	for _, in := range prog.ins {
		if in.Op == opCol && r.t.Cols[in.A].Data == nil {
			why = "a column of no stored bytes"
			return nil, false, nil
		}
	}
	sms := int64(r.b.dev.Props().SMs)
	grid := sms * 8
	if len(keyVals) > 0 {
		grid = sms * 2
	}
	grid = min(grid, (r.n+fusedTPB-1)/fusedTPB)
	perThread := (r.n + grid*fusedTPB - 1) / (grid * fusedTPB)
	argKeys := make([]string, len(qa))
	for k, ag := range orig.Aggs {
		if ag.Arg != nil {
			argKeys[k] = ag.Arg.String()
		}
	}
	for k := len(orig.Aggs); k < len(qa); k++ {
		argKeys[k] = fmt.Sprintf("\x00scale of %d", k) // the hidden max of a scale
	}
	key, err := r.fusedKey(prog, filter, keyVals, qa, argKeys, perThread)
	if err != nil {
		return nil, false, err
	}
	fk, f, err := r.b.fusedKernel(key, func() (*fusedKernel, error) {
		return genFused(prog, filter, keyVals, qa, argKeys, perThread, r.t.Cols, r.stats)
	})
	if errors.Is(err, errNotFused) {
		why = err.Error()
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	na := len(qa)
	// one buffer: flag (16 bytes), global keys, global accumulators
	const accSize = int(unsafe.Sizeof(qAcc{}))
	size := 16 + fk.gslots*8 + fk.gslots*na*accSize
	host := make([]byte, size)
	keys := unsafe.Slice((*uint64)(unsafe.Pointer(&host[16])), fk.gslots)
	accs := unsafe.Slice((*qAcc)(unsafe.Pointer(&host[16+fk.gslots*8])), fk.gslots*na)
	for s := range keys {
		keys[s] = emptyKey
		if fk.slots == 0 {
			keys[s] = 0
		}
	}
	for i := range accs {
		accs[i] = accInit(qa[i%na])
	}
	buf, err := r.s.alloc(int64(size))
	if err != nil {
		return nil, false, err
	}
	base := buf.Ptr()
	args := r.kernelArgs(fk, prog.pres, uint64(r.n), uint64(base)+16+uint64(fk.gslots*8), uint64(base)+16, uint64(base))
	shared := uint32(fk.shared)
	t0 := time.Now()
	err = r.b.dev.Do(func() error {
		if err := r.b.dev.CopyHtoD(base, host, nil); err != nil {
			return err
		}
		if err := r.b.dev.Launch(f, cuda.Dim3{X: uint32(grid), Y: 1, Z: 1}, cuda.Dim3{X: fusedTPB, Y: 1, Z: 1}, shared, nil, args...); err != nil {
			return err
		}
		return r.b.dev.CopyDtoH(host, base, nil)
	})
	took := time.Since(t0)
	if err != nil {
		return nil, false, err
	}
	if host[0] != 0 {
		why = "more groups than the fused kernel's hash tables hold"
		return nil, false, nil // a hash table overflowed
	}
	var keyCols []*engine.Vec
	ng := 1
	if fk.slots > 0 {
		var used []int
		for s, k := range keys {
			if k != emptyKey {
				used = append(used, s)
			}
		}
		ng = len(used)
		compact := make([]qAcc, ng*na)
		packed := make([]uint64, ng)
		for g, s := range used {
			copy(compact[g*na:(g+1)*na], accs[s*na:(s+1)*na])
			packed[g] = keys[s]
		}
		accs = compact
		for _, kp := range fk.keys {
			keyCols = append(keyCols, kp.decode(packed, prog.pres))
		}
	}
	scales := fitScales(orig, qa, fk, accs, ng, na)
	res, err = r.aggResult(orig, keyCols, argv, accs, ng, na, nil, nil, scales)
	if l := engine.StepLogOf(ctx); l != nil && err == nil {
		l.Note(r.fusedNote(fk, prog.pres, took))
		for _, p := range prog.pres {
			l.Note(p.note())
		}
	}
	return res, err == nil, err
}

// accInit is an accumulator's starting value.
func accInit(q qAgg) qAcc {
	var a qAcc
	if q.Cls == accMinMaxS {
		a.S0 = ^uint64(0)
	} else if q.Cls >= accMinMaxI {
		if q.Fn == int32(engine.AggMin) {
			a.S0 = math.MaxInt64
		} else {
			a.S0 = 1 << 63
		}
	}
	return a
}

// fusedNote describes a fused kernel's run for EXPLAIN ANALYZE: the rows,
// the bytes of the columns, codes and bitmaps it read, and the rate over
// the time of its launch and copies, with the fraction of the device's
// memory bandwidth (where the driver reports its clock).
func (r *run) fusedNote(fk *fusedKernel, pres []*pre, took time.Duration) string {
	var b int64
	bitmap := (r.n + 7) / 8
	for _, k := range fk.cols {
		c := r.t.Cols[k]
		w := int64(c.Width)
		if !c.Type.IsString() {
			w = int64(c.Type.StorageWidth())
		}
		b += r.n * w
		if c.Valid != nil {
			b += bitmap
		}
	}
	codes := map[int]bool{}
	for _, p := range pres {
		switch {
		case p.kind == preBits:
			b += bitmap
			if r.t.Cols[p.col].Valid != nil {
				b += bitmap
			}
		case p.dict != nil && !codes[p.col]:
			codes[p.col] = true
			b += r.n * int64(p.dict.cw)
		}
	}
	rate := float64(b) / max(took.Seconds(), 1e-9)
	s := fmt.Sprintf("Fused Kernel: one generated kernel over %s rows read %s in %.3f ms (%s/s",
		humanize.Comma(r.n), humanize.Bytes(uint64(b)), float64(took.Microseconds())/1000, humanize.Bytes(uint64(rate)))
	if pr := r.b.dev.Props(); pr.MemClockKHz > 0 && pr.BusWidthBits > 0 {
		peak := 2 * float64(pr.MemClockKHz) * 1000 * float64(pr.BusWidthBits) / 8
		s += fmt.Sprintf(", %.0f%% of the memory bandwidth", 100*rate/peak)
	}
	return s + ")"
}

// fitScales finishes the sums over numerics whose scale varies by row:
// the kernel added every value at scale S (fk.fitScale), and the hidden
// max after the plan's aggregates holds each group's largest scale S_g;
// each group's sum is divided by 10^(S-S_g), exactly, since every term is
// a multiple of it: the CPU backend's sum at S_g (as accumulateScaled
// does for the interpreter). It returns the scales by aggregate, nil
// when there are none.
func fitScales(p *engine.Plan, qa []qAgg, fk *fusedKernel, accs []qAcc, ng, na int) map[int][]int32 {
	var scales map[int][]int32
	h := len(p.Aggs)
	for k := range p.Aggs {
		s, ok := fk.fitScale[k]
		if !ok {
			continue
		}
		sc := make([]int32, ng)
		for g := 0; g < ng; g++ {
			x, hx := &accs[g*na+k], accs[g*na+h]
			sc[g] = s
			if hx.Cnt == 0 {
				continue
			}
			sc[g] = int32(int64(hx.S0))
			if sc[g] != s {
				b := new(big.Int).Quo(sum192(*x), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s-sc[g])), nil))
				set192(x, b)
			}
		}
		if scales == nil {
			scales = map[int][]int32{}
		}
		scales[k] = sc
		h++
	}
	return scales
}

// decode turns packed group keys back into the key's values; pres are
// the run's precomputed values (a dictionary code's key reads its values).
func (kp keyPart) decode(packed []uint64, pres []*pre) *engine.Vec {
	out := engine.NewVec(kp.v.t, len(packed))
	for g, k := range packed {
		code := k >> kp.shift
		if kp.bits < 64 {
			code &= 1<<kp.bits - 1
		}
		if kp.str {
			if kp.nullable {
				if code&1 != 0 {
					out.SetNull(g)
					continue
				}
				code >>= 1
			}
			var b []byte
			for code != 0 && len(b) < 8 {
				b = append(b, byte(code))
				code >>= 8
			}
			if b == nil {
				b = []byte{}
			}
			out.S[g] = b
			continue
		}
		if code == 0 {
			out.SetNull(g)
			continue
		}
		v := new(big.Int).SetUint64(code - 1)
		x := v.Add(v, kp.lo).Int64()
		if kp.preKey > 0 {
			p := pres[kp.preKey-1]
			vals := p.dict.vals // the code of a column's value, or NULL's past them
			if p.keyVals != nil {
				vals = p.keyVals // the number of an expression's result
			}
			if x >= int64(vals.N) || vals.IsNull(int(x)) {
				out.SetNull(g)
			} else {
				out.S[g] = vals.S[x]
			}
			continue
		}
		switch engine.PhysOf(kp.v.t.Kind) {
		case engine.PhysDec:
			out.D[g] = engine.DecFromScaled(x, int(kp.v.scale))
		default:
			out.I[g] = x
		}
	}
	return out
}

// fusedEntry is a cached generation: the kernel, or why there is none.
type fusedEntry struct {
	fk  *fusedKernel
	f   *cuda.Function
	err error
}

// fusedKey identifies what a generated kernel depends on: the program, the
// registers it reads, the aggregates, and the used columns' types, NULL
// bitmaps and value ranges. Generating PTX text costs far more than this.
func (r *run) fusedKey(prog *program, filter int32, keyVals []val, qa []qAgg, argKeys []string, perThread int64) (string, error) {
	b := make([]byte, 0, 1024)
	b = append(b, sliceBytes(prog.ins)...)
	b = append(b, sliceBytes(prog.consts)...)
	b = fmt.Appendf(b, "|%q|%v|%d|%v|%d|", prog.strPool, prog.strConst, filter, qa, perThread)
	for _, v := range keyVals {
		b = fmt.Appendf(b, "%d,%d,%d,%d,%s;", v.reg, v.cls, v.scale, v.width, v.t)
	}
	for _, k := range argKeys {
		b = fmt.Appendf(b, "%q;", k)
	}
	seen := map[int32]bool{}
	for _, in := range prog.ins {
		if in.Op != opCol || seen[in.A] {
			continue
		}
		seen[in.A] = true
		c := r.t.Cols[in.A]
		b = fmt.Appendf(b, "c%d:%s,%d,%v", in.A, c.Type, c.Width, c.Valid != nil)
		if cls, err := clsOf(c.Type); err == nil && statable(cls) {
			st, err := r.stats(int(in.A))
			if err != nil {
				return "", err
			}
			b = fmt.Appendf(b, ",%d,%d,%d", st.lo, st.hi, st.count)
		}
		b = append(b, ';')
	}
	for _, p := range prog.pres {
		b = append(b, p.key(r.t.Cols)...)
	}
	return string(b), nil
}

// fusedKernel returns the cached kernel for key, generating and
// JIT-compiling it with gen the first time. Refusals are cached too.
func (b *Backend) fusedKernel(key string, gen func() (*fusedKernel, error)) (*fusedKernel, *cuda.Function, error) {
	b.jitMu.Lock()
	defer b.jitMu.Unlock()
	if e, ok := b.jit[key]; ok {
		return e.fk, e.f, e.err
	}
	e := fusedEntry{}
	e.fk, e.err = gen()
	if e.err != nil && !errors.Is(e.err, errNotFused) {
		return nil, nil, e.err
	}
	if e.err == nil {
		m, err := b.dev.LoadModule([]byte(e.fk.ptx))
		if err != nil {
			return nil, nil, err
		}
		entry := e.fk.entry
		if entry == "" {
			entry = "fused"
		}
		if e.f, err = m.Function(entry); err != nil {
			return nil, nil, err
		}
	}
	if b.jit == nil || len(b.jit) >= 256 { // a bound on the cache: start over
		b.jit = map[string]fusedEntry{}
	}
	b.jit[key] = e
	return e.fk, e.f, e.err
}

// embeddedKernel returns kernel fn of the embedded PTX module (cuda/<module>.ptx),
// loaded the first time and then kept in the kernel cache beside the
// generated ones.
func (b *Backend) embeddedKernel(module, fn string) (*cuda.Function, error) {
	m, _, err := b.dev.LoadKernels(module) // shipped machine code, or the PTX
	if err != nil {
		return nil, err
	}
	return m.Function(fn)
}

// genFused generates the kernel for a compiled program over cols; stats
// gives a column's value range, argKeys names each aggregate's argument
// (equal names: equal values), rowsPerThread bounds the rows one thread
// reads.
func genFused(prog *program, filter int32, keyVals []val, qa []qAgg, argKeys []string, rowsPerThread int64,
	cols []*Column, stats func(int) (colStats, error)) (*fusedKernel, error) {
	return genKernel(prog, filter, keyVals, qa, argKeys, rowsPerThread, cols, stats, false)
}

// genFilterKernel generates a kernel that writes filter's pass bitmap and
// per-1024-row counts, as q_filter does (filter.go).
func genFilterKernel(prog *program, filter int32, cols []*Column, stats func(int) (colStats, error)) (*fusedKernel, error) {
	return genKernel(prog, filter, nil, nil, nil, 1, cols, stats, true)
}

// genKernel is genFused, or with bitmap set genFilterKernel: p_acc is then
// the bitmap and p_keys the counts.
func genKernel(prog *program, filter int32, keyVals []val, qa []qAgg, argKeys []string, rowsPerThread int64,
	cols []*Column, stats func(int) (colStats, error), bitmap bool) (*fusedKernel, error) {
	nreg := int(prog.nreg)
	g := &ptxGen{
		val: make([]string, nreg), nul: make([]string, nreg), rng: make([]ival, nreg),
		strCol: make([]int, nreg), colPtr: map[int][2]string{}, cols: cols, stats: stats,
	}
	for i := range g.strCol {
		g.strCol[i] = -1
	}
	for _, q := range qa {
		if q.Cls == accFloat || q.Cls == accMinMaxF || q.Cls == accMinMaxS {
			return nil, notFused("floating-point aggregates")
		}
	}
	fk := &fusedKernel{gslots: 1}
	na := len(qa)
	grouped := len(keyVals) > 0
	// parameters
	pn := g.param("p_n")
	pacc := g.param("p_acc")
	pkeys := g.param("p_keys")
	pflag := g.param("p_flag")
	seen := map[int]bool{}
	for _, in := range prog.ins {
		if in.Op != opCol || seen[int(in.A)] {
			continue
		}
		k := int(in.A)
		seen[k] = true
		ptr := [2]string{g.param(fmt.Sprintf("p_c%d", k)), ""}
		if cols[k].Valid != nil {
			ptr[1] = g.param(fmt.Sprintf("p_v%d", k))
		}
		g.colPtr[k] = ptr
		fk.cols = append(fk.cols, k)
	}
	g.preParams(fk, prog.pres)
	// thread indices
	tid, cta, ntid, ncta := g.r32(), g.r32(), g.r32(), g.r32()
	g.f("mov.u32 %s, %%tid.x;", tid)
	g.f("mov.u32 %s, %%ctaid.x;", cta)
	g.f("mov.u32 %s, %%ntid.x;", ntid)
	g.f("mov.u32 %s, %%nctaid.x;", ncta)
	row, stride, t := g.r64(), g.r64(), g.r64()
	g.f("mul.wide.u32 %s, %s, %s;", row, cta, ntid)
	g.f("cvt.u64.u32 %s, %s;", t, tid)
	g.f("add.u64 %s, %s, %s;", row, row, t)
	g.f("mul.wide.u32 %s, %s, %s;", stride, ncta, ntid)
	zero := g.imm(0)
	ptrue := g.pred()
	g.f("setp.eq.s64 %s, %s, 0;", ptrue, zero)
	pre := g.body.String()
	g.body.Reset()

	// the row loop, written before the accumulators' set-up, which depends
	// on what the program's registers turn out to be
	loop, end, next := g.label(), g.label(), g.label()
	if bitmap {
		// every lane of a warp runs each round (ballot needs them all):
		// the loop ends when the warp's first row does, and a lane past
		// the end reads the last row and fails
		lane := g.r64()
		g.f("and.b64 %s, %s, 31;", lane, row)
		g.body.WriteString(loop + ":\n")
		base, last, rowc := g.r64(), g.r64(), g.r64()
		g.f("sub.u64 %s, %s, %s;", base, row, lane)
		pe := g.pred()
		g.f("setp.ge.u64 %s, %s, %s;", pe, base, pn)
		g.f("@%s bra %s;", pe, end)
		inb := g.pred()
		g.f("setp.lt.u64 %s, %s, %s;", inb, row, pn)
		g.f("sub.u64 %s, %s, 1;", last, pn)
		g.f("selp.b64 %s, %s, %s, %s;", rowc, row, last, inb)
		if err := g.program(prog, rowc); err != nil {
			return nil, err
		}
		if err := g.use(filter); err != nil {
			return nil, err
		}
		pass := g.and(g.truthy(filter), inb)
		bal, cnt := g.r32(), g.r32()
		g.f("vote.sync.ballot.b32 %s, %s, -1;", bal, pass)
		l0 := g.pred()
		g.f("setp.eq.u64 %s, %s, 0;", l0, lane)
		g.f("@!%s bra %s;", l0, next)
		wa, ca := g.r64(), g.r64()
		g.f("shr.u64 %s, %s, 5;", wa, row)
		g.f("shl.b64 %s, %s, 2;", wa, wa)
		g.f("add.u64 %s, %s, %s;", wa, wa, pacc)
		g.f("st.global.u32 [%s], %s;", wa, bal)
		g.f("popc.b32 %s, %s;", cnt, bal)
		nz := g.pred()
		g.f("setp.eq.u32 %s, %s, 0;", nz, cnt)
		g.f("@%s bra %s;", nz, next)
		g.f("shr.u64 %s, %s, 10;", ca, row)
		g.f("shl.b64 %s, %s, 2;", ca, ca)
		g.f("add.u64 %s, %s, %s;", ca, ca, pkeys)
		g.f("red.global.add.u32 [%s], %s;", ca, cnt)
		g.body.WriteString(next + ":\n")
		g.f("add.u64 %s, %s, %s;", row, row, stride)
		g.f("bra.uni %s;", loop)
		g.body.WriteString(end + ":\n")
		loopBody := g.body.String()
		g.body.Reset()
		g.body.WriteString(pre + loopBody)
		g.f("ret;")
		fk.ptx = g.assemble(false)
		return fk, nil
	}
	g.body.WriteString(loop + ":\n")
	pe := g.pred()
	g.f("setp.ge.u64 %s, %s, %s;", pe, row, pn)
	g.f("@%s bra %s;", pe, end)
	if err := g.program(prog, row); err != nil {
		return nil, err
	}
	for k, q := range qa {
		if q.Cls != accInt || q.Pad != 1 || q.Fn != int32(engine.AggSum) && q.Fn != int32(engine.AggAvg) {
			continue
		}
		s, ok := g.fitScale[q.Reg]
		if !ok {
			return nil, notFused("sums of numerics whose scale varies by row, not extended")
		}
		if fk.fitScale == nil {
			fk.fitScale = map[int]int32{}
		}
		fk.fitScale[k] = s
	}
	pass := ptrue
	if filter >= 0 {
		if err := g.use(filter); err != nil {
			return nil, err
		}
		pass = g.truthy(filter)
	}
	for _, q := range qa {
		if q.Reg >= 0 {
			if err := g.use(q.Reg); err != nil {
				return nil, err
			}
		}
	}
	var loopBody, setup string
	if !grouped {
		type acc struct{ cnt, lo, hi string }
		accs := make([]acc, na)
		for a, q := range qa {
			accs[a] = acc{g.r64(), g.r64(), g.r64()}
			pa := pass
			if q.Reg >= 0 && g.nul[q.Reg] != "" {
				pa = g.and(pass, g.not(g.nul[q.Reg]))
			}
			one := g.r64()
			g.f("selp.b64 %s, 1, 0, %s;", one, pa)
			g.f("add.u64 %s, %s, %s;", accs[a].cnt, accs[a].cnt, one)
			if q.Reg < 0 || q.Fn == int32(engine.AggCount) {
				continue
			}
			v := g.val[q.Reg]
			switch q.Cls {
			case accInt:
				x, sg := g.r64(), g.r64()
				g.f("selp.b64 %s, %s, 0, %s;", x, v, pa)
				g.f("shr.s64 %s, %s, 63;", sg, x)
				g.f("add.cc.u64 %s, %s, %s;", accs[a].lo, accs[a].lo, x)
				g.f("addc.u64 %s, %s, %s;", accs[a].hi, accs[a].hi, sg)
			default:
				g.f("@%s %s.s64 %s, %s, %s;", pa, minMax(q), accs[a].hi, accs[a].hi, v)
			}
		}
		g.body.WriteString(next + ":\n")
		g.f("add.u64 %s, %s, %s;", row, row, stride)
		g.f("bra.uni %s;", loop)
		g.body.WriteString(end + ":\n")
		for a, q := range qa {
			ac := &accs[a]
			for o := 16; o > 0; o >>= 1 {
				c2 := g.shfl(ac.cnt, o)
				g.f("add.u64 %s, %s, %s;", ac.cnt, ac.cnt, c2)
				if q.Reg < 0 || q.Fn == int32(engine.AggCount) {
					continue
				}
				if q.Cls == accInt {
					lo2, hi2 := g.shfl(ac.lo, o), g.shfl(ac.hi, o)
					g.f("add.cc.u64 %s, %s, %s;", ac.lo, ac.lo, lo2)
					g.f("addc.u64 %s, %s, %s;", ac.hi, ac.hi, hi2)
				} else {
					h2 := g.shfl(ac.hi, o)
					g.f("%s.s64 %s, %s, %s;", minMax(q), ac.hi, ac.hi, h2)
				}
			}
		}
		lane := g.r32()
		g.f("and.b32 %s, %s, 31;", lane, tid)
		pl := g.pred()
		g.f("setp.ne.u32 %s, %s, 0;", pl, lane)
		out := g.label()
		g.f("@%s bra %s;", pl, out)
		for a, q := range qa {
			ad := g.r64()
			g.f("add.u64 %s, %s, %d;", ad, pacc, 32*a)
			g.f("red.global.add.u64 [%s], %s;", ad, accs[a].cnt)
			if q.Reg < 0 || q.Fn == int32(engine.AggCount) {
				continue
			}
			if q.Cls == accInt {
				g.add192(ad, accs[a].lo, accs[a].hi, zero)
			} else {
				g.f("red.global.%s.s64 [%s+8], %s;", minMax(q), ad, accs[a].hi)
			}
		}
		g.body.WriteString(out + ":\n")
		loopBody = g.body.String()
		g.body.Reset()
		for a, q := range qa {
			g.f("mov.b64 %s, 0;", accs[a].cnt)
			g.f("mov.b64 %s, 0;", accs[a].lo)
			g.f("mov.b64 %s, %d;", accs[a].hi, int64(accInit(q).S0)*boolInt(q.Cls >= accMinMaxI))
		}
		setup = g.body.String()
	} else {
		np := g.not(pass)
		g.f("@%s bra %s;", np, next)
		key, err := g.packKeys(fk, prog, keyVals, row)
		if err != nil {
			return nil, err
		}
		gg := newGroupGen(g, qa, argKeys, rowsPerThread)
		if gg.slots == 0 {
			return nil, notFused("too many aggregates for shared accumulators")
		}
		fk.slots, fk.gslots = gg.slots, 2*gg.slots
		fk.shared = gg.slots * (8 + gg.slotBytes)
		gg.row(key, pass, zero, pflag, next)
		g.body.WriteString(next + ":\n")
		g.f("add.u64 %s, %s, %s;", row, row, stride)
		g.f("bra.uni %s;", loop)
		g.body.WriteString(end + ":\n")
		gg.finish(zero, pflag, pkeys, pacc, tid, ntid, fk.gslots)
		loopBody = g.body.String()
		g.body.Reset()
		gg.setup(zero, tid, ntid)
		setup = g.body.String()
	}
	g.body.Reset()
	g.body.WriteString(pre + setup + loopBody)
	g.f("ret;")
	fk.ptx = g.assemble(grouped)
	return fk, nil
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func minMax(q qAgg) string {
	if q.Fn == int32(engine.AggMin) {
		return "min"
	}
	return "max"
}

// shfl exchanges a 64-bit register across the warp (butterfly by o).
func (g *ptxGen) shfl(x string, o int) string {
	lo, hi, lo2, hi2, r := g.r32(), g.r32(), g.r32(), g.r32(), g.r64()
	g.f("mov.b64 {%s, %s}, %s;", lo, hi, x)
	g.f("shfl.sync.bfly.b32 %s, %s, %d, 31, -1;", lo2, lo, o)
	g.f("shfl.sync.bfly.b32 %s, %s, %d, 31, -1;", hi2, hi, o)
	g.f("mov.b64 %s, {%s, %s};", r, lo2, hi2)
	return r
}

// add192 adds the signed 128-bit (lo, hi) to the 192-bit two's complement
// sum at ad+8 (s0, s1, s2 of a QAcc), exactly: each word's carry comes
// from the value its own atomic returned, and additions commute.
func (g *ptxGen) add192(ad, lo, hi, zero string) {
	o0, o1, t, c0, m, cm, c1, x2 := g.r64(), g.r64(), g.r64(), g.r64(), g.r64(), g.r64(), g.r64(), g.r64()
	g.f("atom.global.add.u64 %s, [%s+8], %s;", o0, ad, lo)
	g.f("add.cc.u64 %s, %s, %s;", t, o0, lo)
	g.f("addc.u64 %s, %s, %s;", c0, zero, zero)
	g.f("add.cc.u64 %s, %s, %s;", m, hi, c0)
	g.f("addc.u64 %s, %s, %s;", cm, zero, zero)
	g.f("atom.global.add.u64 %s, [%s+16], %s;", o1, ad, m)
	g.f("add.cc.u64 %s, %s, %s;", t, o1, m)
	g.f("addc.u64 %s, %s, %s;", c1, cm, zero)
	g.f("shr.s64 %s, %s, 63;", x2, hi)
	g.f("add.u64 %s, %s, %s;", x2, x2, c1)
	g.f("red.global.add.u64 [%s+24], %s;", ad, x2)
}

// probe finds or inserts key in a linear-probing table of n slots (n a
// power of two) at base in space ("shared" or "global") and returns the
// slot register. A full table sets the flag and jumps to fail.
func (g *ptxGen) probe(key, base string, n int, space, flag, fail string) string {
	h, t := g.r64(), g.r64()
	g.f("shr.u64 %s, %s, 33;", t, key)
	g.f("xor.b64 %s, %s, %s;", h, key, t)
	g.f("mul.lo.u64 %s, %s, %d;", h, h, int64(-49064778989728563)) // 0xff51afd7ed558ccd
	g.f("shr.u64 %s, %s, 33;", t, h)
	g.f("xor.b64 %s, %s, %s;", h, h, t)
	g.f("mul.lo.u64 %s, %s, %d;", h, h, int64(-4265267296055464877)) // 0xc4ceb3f99e3779b3
	g.f("shr.u64 %s, %s, 33;", t, h)
	g.f("xor.b64 %s, %s, %s;", h, h, t)
	slot := g.r64()
	g.f("and.b64 %s, %s, %d;", slot, h, n-1)
	tries := g.r32()
	g.f("mov.u32 %s, 0;", tries)
	lp, found, nxt := g.label(), g.label(), g.label()
	g.body.WriteString(lp + ":\n")
	a, cur := g.r64(), g.r64()
	g.f("mad.lo.u64 %s, %s, 8, %s;", a, slot, base)
	if space == "shared" {
		g.f("ld.volatile.shared.u64 %s, [%s];", cur, a)
		p := g.pred()
		g.f("setp.eq.u64 %s, %s, %s;", p, cur, key)
		g.f("@%s bra %s;", p, found)
		p2 := g.pred()
		g.f("setp.ne.u64 %s, %s, %d;", p2, cur, int64(-1))
		g.f("@%s bra %s;", p2, nxt)
	}
	old, em := g.r64(), g.imm(-1)
	g.f("atom.%s.cas.b64 %s, [%s], %s, %s;", space, old, a, em, key)
	p3 := g.pred()
	g.f("setp.eq.u64 %s, %s, %d;", p3, old, int64(-1))
	g.f("@%s bra %s;", p3, found)
	p4 := g.pred()
	g.f("setp.eq.u64 %s, %s, %s;", p4, old, key)
	g.f("@%s bra %s;", p4, found)
	g.body.WriteString(nxt + ":\n")
	g.f("add.u64 %s, %s, 1;", slot, slot)
	g.f("and.b64 %s, %s, %d;", slot, slot, n-1)
	g.f("add.u32 %s, %s, 1;", tries, tries)
	p5 := g.pred()
	g.f("setp.lt.u32 %s, %s, %d;", p5, tries, n)
	g.f("@%s bra %s;", p5, lp)
	one := g.r32()
	g.f("mov.u32 %s, 1;", one)
	g.f("st.global.u32 [%s], %s;", flag, one)
	g.f("bra.uni %s;", fail)
	g.body.WriteString(found + ":\n")
	return slot
}

// packKeys builds the 64-bit group key of the row and records the layout
// in fk.keys.
func (g *ptxGen) packKeys(fk *fusedKernel, prog *program, keyVals []val, row string) (string, error) {
	key := g.imm(0)
	shift := 0
	for i, v := range keyVals {
		kp := keyPart{v: v, shift: shift}
		var code string
		if k := g.strCol[v.reg]; v.reg >= 0 && int(v.reg) < len(g.strCol) && k >= 0 {
			c := g.cols[k]
			if c.Width > 8 || c.Width%4 != 0 {
				return "", notFused("string keys wider than 8 bytes")
			}
			kp.str, kp.char = true, c.Type.Kind == engine.KindChar
			kp.bits = 8 * c.Width
			x := g.r64()
			switch c.Width {
			case 0:
				g.f("mov.b64 %s, 0;", x)
			case 4:
				a, w := g.r64(), g.r32()
				g.f("mad.lo.u64 %s, %s, 4, %s;", a, row, g.colPtr[k][0])
				g.f("ld.global.nc.u32 %s, [%s];", w, a)
				g.f("cvt.u64.u32 %s, %s;", x, w)
			case 8:
				a := g.r64()
				g.f("mad.lo.u64 %s, %s, 8, %s;", a, row, g.colPtr[k][0])
				g.f("ld.global.nc.u64 %s, [%s];", x, a)
			}
			if kp.char {
				for j := c.Width - 1; j >= 0; j-- {
					b, hz := g.r64(), g.pred()
					g.f("shr.u64 %s, %s, %d;", b, x, 8*j)
					g.f("and.b64 %s, %s, 255;", b, b)
					g.f("setp.eq.u64 %s, %s, 32;", hz, b)
					if j < c.Width-1 {
						up, pz := g.r64(), g.pred()
						g.f("shr.u64 %s, %s, %d;", up, x, 8*(j+1))
						g.f("setp.eq.u64 %s, %s, 0;", pz, up)
						g.f("and.pred %s, %s, %s;", hz, hz, pz)
					}
					g.f("@%s and.b64 %s, %s, %d;", hz, x, x, ^(int64(255) << (8 * j)))
				}
			}
			if c.Valid != nil {
				n := g.validBit(g.colPtr[k][1], row)
				kp.nullable = true
				kp.bits++
				nb := g.r64()
				g.f("selp.b64 %s, 0, %s, %s;", x, x, n)
				g.f("shl.b64 %s, %s, 1;", x, x)
				g.f("selp.b64 %s, 1, 0, %s;", nb, n)
				g.f("or.b64 %s, %s, %s;", x, x, nb)
			}
			code = x
		} else {
			if err := g.use(v.reg); err != nil {
				return "", err
			}
			if i := g.preOf[v.reg]; i > 0 && (g.pres[i-1].kind == preCode || g.pres[i-1].keyVals != nil) {
				kp.preKey = i
			}
			if isFloat(v.cls) || !(isInt(v.cls) || v.cls == clsDec || v.cls == clsBool) {
				return "", notFused("group keys of type %s", v.t)
			}
			rg := g.rng[v.reg]
			kp.lo = rg.lo
			span := new(big.Int).Sub(rg.hi, rg.lo)
			kp.bits = bitsFor(span.Add(span, big.NewInt(1)))
			if kp.bits > 62 {
				return "", notFused("group keys with a wide range")
			}
			x := g.r64()
			g.f("sub.s64 %s, %s, %d;", x, g.val[v.reg], rg.lo.Int64())
			g.f("add.s64 %s, %s, 1;", x, x)
			if n := g.nul[v.reg]; n != "" {
				g.f("selp.b64 %s, 0, %s, %s;", x, x, n)
			}
			code = x
		}
		shift += kp.bits
		if shift > 64 || shift == 64 && (!kp.str || i != len(keyVals)-1) {
			return "", notFused("group keys wider than 64 bits")
		}
		if kp.shift > 0 {
			g.f("shl.b64 %s, %s, %d;", code, code, kp.shift)
		}
		g.f("or.b64 %s, %s, %s;", key, key, code)
		fk.keys = append(fk.keys, kp)
	}
	return key, nil
}

// assemble puts the declarations and parameters around the body.
func (g *ptxGen) assemble(shared bool) string {
	var b []byte
	b = fmt.Appendf(b, ".version 7.8\n.target sm_80\n.address_size 64\n\n")
	if shared {
		b = fmt.Appendf(b, ".extern .shared .align 16 .b8 smem[];\n\n")
	}
	b = fmt.Appendf(b, ".visible .entry fused(")
	for i, p := range g.params {
		if i > 0 {
			b = append(b, ",\n\t"...)
		}
		b = fmt.Appendf(b, ".param .u64 %s", p)
	}
	b = fmt.Appendf(b, ")\n.maxntid %d, 1, 1\n{\n", fusedTPB)
	b = fmt.Appendf(b, "\t.reg .b64 %%x<%d>;\n\t.reg .b32 %%w<%d>;\n\t.reg .pred %%p<%d>;\n", g.n64+1, g.n32+1, g.npred+1)
	b = append(b, g.body.String()...)
	b = append(b, "}\n"...)
	return string(b)
}

// keyDistinct estimates p's groups from its keys' statistics: the product
// of their distinct values, up to the row count (0 when a key is not a
// column, or p has no GROUP BY).
func (r *run) keyDistinct(p *engine.Plan) float64 {
	if len(p.GroupBy) == 0 {
		return 0
	}
	est := 1.0
	for _, e := range p.GroupBy {
		c, ok := e.(*engine.ColRef)
		if !ok || c.Idx >= len(r.t.Cols) {
			return 0
		}
		if est >= float64(r.n) {
			break // sampling another key cannot raise it
		}
		est *= max(1, r.columnDistinct(c.Idx))
	}
	return min(est, float64(r.n))
}

// columnDistinct estimates column k's distinct values: for a column
// taken from a stored column (a plan tree's view, filter or join
// output), that column's, which bound them, sampled once per table
// version; otherwise the column's own, sampled (a join's output afresh
// by every query).
func (r *run) columnDistinct(k int) float64 {
	if o := r.t.Cols[k].origin; o != nil && o.t != r.t {
		if s := r.b.ColumnStats(o.t, o.col); s.Distinct > 0 {
			return min(s.Distinct, float64(r.n))
		}
	}
	return r.b.ColumnStats(r.t, k).Distinct
}

// kernelArgs is the argument list of generated kernel fk: lead (its
// fixed parameters), then the pointers of the columns it reads (data, and
// the NULL bitmap where there is one), then its precomputed values'.
func (r *run) kernelArgs(fk *fusedKernel, pres []*pre, lead ...any) []any {
	args := lead
	for _, k := range fk.cols {
		col := r.t.Cols[k]
		args = append(args, col.Data.Ptr())
		if col.Valid != nil {
			args = append(args, col.Valid.Ptr())
		}
	}
	return preArgs(args, fk, pres, r.t.Cols)
}
