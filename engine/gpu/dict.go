package gpu

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sync"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Dictionaries of string columns. A string column of few distinct values
// (l_shipmode's 7, l_returnflag's 3) gets, on its first use by a fused
// kernel, a dictionary: its distinct values sorted by their bytes (the
// order text compares in), and a device array of one code per row (1 byte
// up to 255 values, else 2), the NULL rows holding the code just past the
// last value. The fused kernels (precomp.go) then group by codes instead
// of by the padded strings, and evaluate a predicate or CASE over such a
// column once per value on the host, reading the result per row by its
// code. The raw column stays: everything else reads it as before.
//
// The codes are built on the device (q_dict_insert, q_dict_codes in
// cuda/query.cu); the values are read the way the CPU backend reads a
// string column (up to the first zero byte, char(n) without its trailing
// blanks), so two stored forms of one value get one code. A column of
// more than dictMaxValues stored forms gets no dictionary, and that is
// remembered: it is not tried again.

const (
	dictMaxValues = 65535   // stored forms; codes are 2 bytes with the NULL code
	dictSlots     = 1 << 18 // the device hash table: 4× the most values
)

// colDict is a column's dictionary.
type colDict struct {
	codes    *cuda.Buffer // a code per row
	cw       int          // bytes per code: 1 or 2
	vals     *engine.Vec  // the distinct non-NULL values, ascending; vals.N is the NULL code
	withNull *engine.Vec  // vals and one NULL entry after them: what lookups evaluate over
}

func (d *colDict) nullCode() int { return d.vals.N }

// dictCache holds a column's dictionary once built, or that it has none.
type dictCache struct {
	mu    sync.Mutex
	tried bool
	data  cuda.DevPtr // the guard, as statsCache's
	n     int64
	d     *colDict
}

func (dc *dictCache) release() {
	dc.mu.Lock()
	defer dc.mu.Unlock()
	if dc.d != nil {
		_ = dc.d.codes.Free()
	}
	dc.d, dc.tried = nil, false
}

// bytes is the device memory the dictionary holds.
func (dc *dictCache) bytes() int64 {
	dc.mu.Lock()
	defer dc.mu.Unlock()
	if dc.d == nil {
		return 0
	}
	return dc.d.codes.Size()
}

// dict returns column k's dictionary, building it the first time; nil
// when the column is not a string column or has too many values.
func (r *run) dict(k int) (*colDict, error) {
	c := r.t.Cols[k]
	cls, err := clsOf(c.Type)
	if err != nil || !isStr(cls) || c.Data == nil || r.t.N == 0 {
		return nil, nil
	}
	if r.s.owns(c.Data) {
		// a column of this run only (a host step's): its dictionary lives
		// in the run's scratch too, and is built again by the next run
		return r.buildDict(c, r.s.alloc)
	}
	dc := &c.caches().dict
	dc.mu.Lock()
	defer dc.mu.Unlock()
	if dc.tried && dc.data == c.Data.Ptr() && dc.n == r.t.N {
		return dc.d, nil
	}
	if dc.d != nil {
		_ = dc.d.codes.Free()
		dc.d = nil
	}
	d, err := r.buildDict(c, func(n int64) (*cuda.Buffer, error) { return r.b.dev.Alloc("dictionary", n) })
	if err != nil {
		return nil, err
	}
	dc.tried, dc.data, dc.n, dc.d = true, c.Data.Ptr(), r.t.N, d
	return d, nil
}

// buildDict builds column c's dictionary, its codes in a buffer from
// alloc; nil when it has too many values. Only the values' slots cross to
// the host (q_dict_used), not the table of dictSlots entries.
func (r *run) buildDict(c *Column, alloc func(int64) (*cuda.Buffer, error)) (*colDict, error) {
	n, width := r.t.N, int32(c.Width)
	var valid cuda.DevPtr
	if c.Valid != nil {
		valid = c.Valid.Ptr()
	}
	slots, err := r.s.alloc(dictSlots * 8)
	if err != nil {
		return nil, err
	}
	state, err := r.s.alloc(16)
	if err != nil {
		return nil, err
	}
	dev := r.b.dev
	grid := cuda.Dim3{X: uint32(min((n+255)/256, int64(dev.Props().SMs)*8)), Y: 1, Z: 1}
	block := cuda.Dim3{X: 256, Y: 1, Z: 1}
	st := make([]uint32, 4)
	var pairs []int64
	err = dev.Do(func() error {
		if err := dev.Memset8(slots.Ptr(), 0xff, slots.Size(), nil); err != nil {
			return err
		}
		if err := dev.Memset8(state.Ptr(), 0, 16, nil); err != nil {
			return err
		}
		if err := dev.Launch(r.b.fns["q_dict_insert"], grid, block, 0, nil,
			c.Data.Ptr(), width, valid, n, slots.Ptr(), uint32(dictSlots-1), uint32(dictMaxValues), state.Ptr()); err != nil {
			return err
		}
		if err := dev.CopyDtoH(sliceBytes(st[:2]), state.Ptr(), nil); err != nil {
			return err
		}
		if st[1] != 0 || st[0] == 0 {
			return nil
		}
		list, err := r.s.alloc(int64(st[0]) * 16)
		if err != nil {
			return err
		}
		g := cuda.Dim3{X: uint32(min(dictSlots/256, dev.Props().SMs*8)), Y: 1, Z: 1}
		if err := dev.Launch(r.b.fns["q_dict_used"], g, block, 0, nil,
			slots.Ptr(), uint32(dictSlots), list.Ptr(), st[0], state.Ptr()+8); err != nil {
			return err
		}
		if err := dev.CopyDtoH(sliceBytes(st[2:3]), state.Ptr()+8, nil); err != nil {
			return err
		}
		if st[2] != st[0] {
			return engine.Errorf(engine.CodeInternalError, "gpu: a dictionary's table holds %d values, not %d", st[2], st[0])
		}
		pairs = make([]int64, 2*st[0])
		return dev.CopyDtoH(sliceBytes(pairs), list.Ptr(), nil)
	})
	if err != nil || st[1] != 0 {
		return nil, err
	}
	if len(pairs) == 0 { // every row NULL
		return r.finishDict(c, nil, nil, slots, alloc)
	}
	// the values' slots, and their stored forms by slot
	used := make([]int, len(pairs)/2)
	rows := make([]int64, len(pairs)/2)
	for i := range used {
		used[i], rows[i] = int(pairs[2*i]), pairs[2*i+1]
	}
	forms := make([]byte, len(rows)*c.Width)
	rowsDev, err := r.s.upload(sliceBytes(rows))
	if err != nil {
		return nil, err
	}
	out, err := r.s.alloc(int64(len(forms)))
	if err != nil {
		return nil, err
	}
	err = dev.Do(func() error {
		g := uint32(min((int64(len(forms))+255)/256, int64(dev.Props().SMs)*8))
		if err := dev.Launch(r.b.fns["q_dict_gather"], cuda.Dim3{X: g, Y: 1, Z: 1}, block, 0, nil,
			c.Data.Ptr(), width, cuda.DevPtr(rowsDev), int64(len(rows)), out.Ptr()); err != nil {
			return err
		}
		return dev.CopyDtoH(forms, out.Ptr(), nil)
	})
	if err != nil {
		return nil, err
	}
	vals := make([][]byte, len(rows))
	for i := range rows {
		vals[i] = storedValue(forms[i*c.Width:(i+1)*c.Width], c.Type.Kind == engine.KindChar)
	}
	return r.finishDict(c, used, vals, slots, alloc)
}

// storedValue is a stored string's value as the CPU backend reads it.
func storedValue(s []byte, char bool) []byte {
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	if char {
		s = bytes.TrimRight(s, " ")
	}
	return s
}

// finishDict numbers the values (vals[i] is the value in slot used[i] of
// the device table slots), writes every row's code and returns the
// dictionary.
func (r *run) finishDict(c *Column, used []int, vals [][]byte, slots *cuda.Buffer, alloc func(int64) (*cuda.Buffer, error)) (*colDict, error) {
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return bytes.Compare(vals[a], vals[b]) })
	distinct := engine.NewVec(c.Type, 0)
	usedSlot := make([]uint32, len(used))
	usedCode := make([]uint16, len(used))
	for j, i := range order {
		if j == 0 || !bytes.Equal(vals[i], vals[order[j-1]]) {
			distinct.S = append(distinct.S, vals[i])
			distinct.N++
		}
		usedSlot[j], usedCode[j] = uint32(used[i]), uint16(distinct.N-1)
	}
	d := &colDict{vals: distinct, cw: 1}
	if distinct.N > 255 {
		d.cw = 2
	}
	wn := engine.NewVec(c.Type, distinct.N+1)
	copy(wn.S, distinct.S)
	wn.SetNull(distinct.N)
	d.withNull = wn

	dev := r.b.dev
	n := r.t.N
	codes, err := alloc(n * int64(d.cw))
	if err != nil {
		return nil, nil // no room: the column goes without
	}
	scratch := r.s.owns(codes)
	free := func() {
		if !scratch {
			_ = codes.Free()
		}
	}
	// the codes by slot: only the used slots' entries are ever read
	codeDev, err := r.s.alloc(dictSlots * 2)
	if err != nil {
		free()
		return nil, err
	}
	if len(used) > 0 {
		slotList, err := r.s.upload(sliceBytes(usedSlot))
		if err != nil {
			free()
			return nil, err
		}
		codeList, err := r.s.upload(sliceBytes(usedCode))
		if err != nil {
			free()
			return nil, err
		}
		g := uint32(min((len(used)+255)/256, dev.Props().SMs*8))
		if err := dev.Launch(r.b.fns["q_dict_slotcodes"], cuda.Dim3{X: g, Y: 1, Z: 1}, cuda.Dim3{X: 256, Y: 1, Z: 1}, 0, nil,
			codeDev.Ptr(), cuda.DevPtr(slotList), cuda.DevPtr(codeList), int32(len(used))); err != nil {
			free()
			return nil, err
		}
	}
	state, err := r.s.zeros(8, 0)
	if err != nil {
		free()
		return nil, err
	}
	var valid cuda.DevPtr
	if c.Valid != nil {
		valid = c.Valid.Ptr()
	}
	st := make([]byte, 8)
	err = dev.Do(func() error {
		g := uint32(min((n+255)/256, int64(dev.Props().SMs)*8))
		if err := dev.Launch(r.b.fns["q_dict_codes"], cuda.Dim3{X: g, Y: 1, Z: 1}, cuda.Dim3{X: 256, Y: 1, Z: 1}, 0, nil,
			c.Data.Ptr(), int32(c.Width), valid, n, slots.Ptr(), uint32(dictSlots-1), codeDev.Ptr(),
			uint32(d.nullCode()), codes.Ptr(), int32(d.cw), state.Ptr()); err != nil {
			return err
		}
		return dev.CopyDtoH(st, state.Ptr(), nil)
	})
	if err == nil && binary.LittleEndian.Uint32(st[4:]) != 0 {
		err = engine.Errorf(engine.CodeInternalError, "gpu: a value of the column is missing from its dictionary")
	}
	if err != nil {
		free()
		return nil, err
	}
	d.codes = codes
	return d, nil
}

// ColumnStorage describes column k (engine.ColumnStorer): its arrays, and
// its dictionary once a query has built one.
func (t *Table) ColumnStorage(k int) engine.ColumnStorage {
	c := t.Cols[k]
	st := engine.ColumnStorage{Encoding: "plain", RowBytes: c.Width}
	if !c.Type.IsString() {
		st.RowBytes = c.Type.StorageWidth()
	}
	if c.Data != nil {
		st.Bytes += c.Data.Size()
	}
	if c.Valid != nil {
		st.Bytes += c.Valid.Size()
	}
	if a := c.aux.Load(); a != nil {
		dc := &a.dict
		dc.mu.Lock()
		if dc.d != nil {
			st.Encoding, st.Values, st.CodeBytes, st.CodesBytes = "dictionary", dc.d.vals.N, dc.d.cw, dc.d.codes.Size()
		}
		dc.mu.Unlock()
	}
	return st
}
