package cpu

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// The window operator against a reference written the slow, literal way:
// per row, the partition is sorted again, the frame is found by walking
// rows as PostgreSQL's nodeWindowAgg.c walks them (update_frameheadpos,
// update_frametailpos, row_is_in_frame), and aggregates are added up
// directly. Random tables, random windows, random frames.

// winRow is one input row: id (unique), p (partition key), k (ORDER BY
// key), x (the value). nil is NULL.
type winRow struct {
	id      int
	p, k, x *int64
}

func winTable(rows []winRow) *engine.HostTable {
	n := len(rows)
	h := &engine.HostTable{N: int64(n)}
	id := engine.NewColumn(engine.Int32, n, 0, false)
	cols := [3]*engine.Column{}
	for c := range cols {
		cols[c] = engine.NewColumn(engine.Int32, n, 0, true)
	}
	for i, r := range rows {
		id.I32[i] = int32(r.id)
		for c, v := range []*int64{r.p, r.k, r.x} {
			if v == nil {
				cols[c].SetNull(i)
				cols[c].I32[i] = 424242 // poison
			} else {
				cols[c].I32[i] = int32(*v)
			}
		}
	}
	h.Cols = append(h.Cols, id, cols[0], cols[1], cols[2])
	return h
}

const (
	wcID = iota
	wcP
	wcK
	wcX
)

func randWinRows(rng *rand.Rand, n int) []winRow {
	val := func(span int, nullPct int) *int64 {
		if rng.Intn(100) < nullPct {
			return nil
		}
		v := int64(rng.Intn(span) - span/3)
		return &v
	}
	rows := make([]winRow, n)
	parts := 1 + rng.Intn(5)
	keys := 1 + rng.Intn(12)
	for i := range rows {
		rows[i] = winRow{id: i, p: val(parts, 10), k: val(keys, 15), x: val(1000, 20)}
	}
	return rows
}

// refWindow computes call c for every row (by id) the literal way.
func refWindow(t *testing.T, c *engine.WindowCall, rows []winRow) []string {
	colOf := func(r winRow, col int) *int64 {
		switch col {
		case wcID:
			v := int64(r.id)
			return &v
		case wcP:
			return r.p
		case wcK:
			return r.k
		}
		return r.x
	}
	eq := func(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	// partitions in input order
	var parts [][]winRow
	for _, r := range rows {
		found := false
		for pi, p := range parts {
			same := true
			for _, col := range c.Partition {
				same = same && eq(colOf(p[0], col), colOf(r, col))
			}
			if same {
				parts[pi] = append(parts[pi], r)
				found = true
				break
			}
		}
		if !found {
			parts = append(parts, []winRow{r})
		}
	}
	cmp := func(a, b winRow) int {
		for _, k := range c.Order {
			x, y := colOf(a, k.Col), colOf(b, k.Col)
			switch {
			case x == nil && y == nil:
				continue
			case x == nil:
				if k.NullsFirst {
					return -1
				}
				return 1
			case y == nil:
				if k.NullsFirst {
					return 1
				}
				return -1
			case *x != *y:
				r := -1
				if *x > *y {
					r = 1
				}
				if k.Desc {
					r = -r
				}
				return r
			}
		}
		return 0
	}
	out := make([]string, len(rows))
	for _, p := range parts {
		sort.SliceStable(p, func(i, j int) bool { return cmp(p[i], p[j]) < 0 })
		n := len(p)
		peer := func(i, j int) bool { return cmp(p[i], p[j]) == 0 }
		groupOf := make([]int, n)
		for i := 1; i < n; i++ {
			groupOf[i] = groupOf[i-1]
			if !peer(i-1, i) {
				groupOf[i]++
			}
		}
		for i := 0; i < n; i++ {
			out[p[i].id] = refValue(t, c, p, i, groupOf, colOf)
		}
	}
	return out
}

func refValue(t *testing.T, c *engine.WindowCall, p []winRow, i int, groupOf []int, colOf func(winRow, int) *int64) string {
	n := len(p)
	str := func(v *int64) string {
		if v == nil {
			return "NULL"
		}
		return fmt.Sprint(*v)
	}
	firstPeer, lastPeer := i, i
	for firstPeer > 0 && groupOf[firstPeer-1] == groupOf[i] {
		firstPeer--
	}
	for lastPeer+1 < n && groupOf[lastPeer+1] == groupOf[i] {
		lastPeer++
	}
	switch c.Func {
	case engine.WinRowNumber:
		return fmt.Sprint(i + 1)
	case engine.WinRank:
		return fmt.Sprint(firstPeer + 1)
	case engine.WinDenseRank:
		return fmt.Sprint(groupOf[i] + 1)
	case engine.WinPercentRank:
		if n == 1 {
			return "0"
		}
		return fmt.Sprint(float64(firstPeer) / float64(n-1))
	case engine.WinCumeDist:
		return fmt.Sprint(float64(lastPeer+1) / float64(n))
	case engine.WinNtile:
		nb := int(c.Args[0].(*engine.Const).I)
		// window_ntile's loop
		ntile, per, boundary, rem := 1, 0, n/nb, 0
		if boundary <= 0 {
			boundary = 1
		} else if rem = n % nb; rem != 0 {
			boundary++
		}
		for j := 0; j <= i; j++ {
			per++
			if boundary < per {
				if rem != 0 && ntile == rem {
					rem = 0
					boundary--
				}
				ntile++
				per = 1
			}
		}
		return fmt.Sprint(ntile)
	case engine.WinLag, engine.WinLead:
		off := int(c.Args[1].(*engine.Const).I)
		if c.Func == engine.WinLag {
			off = -off
		}
		if j := i + off; j >= 0 && j < n {
			return str(colOf(p[j], wcX))
		}
		return str(constVal(c.Args[2]))
	}
	// frame functions: the frame's positions
	var frame []int
	head, tail := refFrame(c, p, i, groupOf, colOf)
	for j := head; j < tail; j++ {
		if refKeep(c, i, j, groupOf) {
			frame = append(frame, j)
		}
	}
	switch c.Func {
	case engine.WinFirstValue:
		if len(frame) == 0 {
			return "NULL"
		}
		return str(colOf(p[frame[0]], wcX))
	case engine.WinLastValue:
		if len(frame) == 0 {
			return "NULL"
		}
		return str(colOf(p[frame[len(frame)-1]], wcX))
	case engine.WinNthValue:
		k := int(c.Args[1].(*engine.Const).I)
		if k > len(frame) {
			return "NULL"
		}
		return str(colOf(p[frame[k-1]], wcX))
	}
	var count, sum int64
	var best *int64
	for _, j := range frame {
		v := colOf(p[j], wcX)
		if c.Agg.Func == engine.AggCountStar {
			count++
			continue
		}
		if v == nil {
			continue
		}
		count++
		sum += *v
		if best == nil || (c.Agg.Func == engine.AggMin && *v < *best) || (c.Agg.Func == engine.AggMax && *v > *best) {
			best = v
		}
	}
	switch c.Agg.Func {
	case engine.AggCountStar, engine.AggCount:
		return fmt.Sprint(count)
	case engine.AggSum:
		if count == 0 {
			return "NULL"
		}
		return fmt.Sprint(sum)
	}
	return str(best)
}

func constVal(e engine.Expr) *int64 {
	c := e.(*engine.Const)
	if c.Null {
		return nil
	}
	v := c.I
	return &v
}

// refFrame is position i's frame [head, tail) before EXCLUDE.
func refFrame(c *engine.WindowCall, p []winRow, i int, groupOf []int, colOf func(winRow, int) *int64) (int, int) {
	f := c.Frame
	n := len(p)
	// frame head and tail (exclusive) as nodeWindowAgg.c walks to them
	head := 0
	switch f.Start.Kind {
	case engine.BoundCurrentRow:
		head = i
		if f.Mode != engine.FrameRows {
			for head > 0 && groupOf[head-1] == groupOf[i] {
				head--
			}
		}
	case engine.BoundPreceding, engine.BoundFollowing:
		off := f.Start.Offset.I
		sign := int64(1)
		if f.Start.Kind == engine.BoundPreceding {
			sign = -1
		}
		switch f.Mode {
		case engine.FrameRows:
			head = int(max(0, min(int64(n), int64(i)+sign*off)))
		case engine.FrameGroups:
			g := int64(groupOf[i]) + sign*off
			for head < n && int64(groupOf[head]) < g {
				head++
			}
		default:
			for head < n && !refRangeHead(c, colOf(p[head], wcK), colOf(p[i], wcK), off, f.Start.Kind == engine.BoundPreceding) {
				head++
			}
		}
	}
	tail := n
	switch f.End.Kind {
	case engine.BoundCurrentRow:
		tail = i + 1
		if f.Mode != engine.FrameRows {
			for tail < n && groupOf[tail] == groupOf[i] {
				tail++
			}
		}
	case engine.BoundPreceding, engine.BoundFollowing:
		off := f.End.Offset.I
		sign := int64(1)
		if f.End.Kind == engine.BoundPreceding {
			sign = -1
		}
		switch f.Mode {
		case engine.FrameRows:
			tail = int(max(0, min(int64(n), int64(i)+sign*off+1)))
		case engine.FrameGroups:
			g := int64(groupOf[i]) + sign*off
			tail = 0
			for tail < n && int64(groupOf[tail]) <= g {
				tail++
			}
		default:
			tail = 0
			for tail < n && refRangeTail(c, colOf(p[tail], wcK), colOf(p[i], wcK), off, f.End.Kind == engine.BoundPreceding) {
				tail++
			}
		}
	}
	return head, tail
}

// refKeep reports whether EXCLUDE keeps position j in i's frame.
func refKeep(c *engine.WindowCall, i, j int, groupOf []int) bool {
	switch c.Frame.Exclude {
	case engine.ExcludeCurrentRow:
		return j != i
	case engine.ExcludeGroup:
		return groupOf[j] != groupOf[i]
	case engine.ExcludeTies:
		return j == i || groupOf[j] != groupOf[i]
	}
	return true
}

// refRangeHead is update_frameheadpos's test for RANGE offset: whether
// the walk stops at a row with key h for current key cur.
func refRangeHead(c *engine.WindowCall, h, cur *int64, off int64, preceding bool) bool {
	k := c.Order[0]
	if h == nil || cur == nil {
		if k.NullsFirst {
			return h != nil || cur == nil
		}
		return h == nil || cur != nil
	}
	sub, less := preceding, false
	if k.Desc {
		sub, less = !sub, true
	}
	return inRangeInt(*h, *cur, off, sub, less)
}

// refRangeTail is update_frametailpos's: whether the walk goes past a
// row with key tl.
func refRangeTail(c *engine.WindowCall, tl, cur *int64, off int64, preceding bool) bool {
	k := c.Order[0]
	if tl == nil || cur == nil {
		if k.NullsFirst {
			return !(tl != nil && cur == nil)
		}
		return !(tl == nil && cur != nil)
	}
	sub, less := preceding, true
	if k.Desc {
		sub, less = !sub, false
	}
	return inRangeInt(*tl, *cur, off, sub, less)
}

func inRangeInt(val, base, off int64, sub, less bool) bool {
	if sub {
		off = -off
	}
	sum := base + off
	if less {
		return val <= sum
	}
	return val >= sum
}

// randWinCall makes a random call over the table's columns.
func randWinCall(rng *rand.Rand) engine.WindowCall {
	c := engine.WindowCall{Frame: engine.DefaultFrame}
	if rng.Intn(3) > 0 {
		c.Partition = []int{wcP}
	}
	if rng.Intn(5) > 0 {
		desc := rng.Intn(2) == 0
		c.Order = []engine.SortKey{{Col: wcK, Desc: desc, NullsFirst: rng.Intn(2) == 0}}
		if rng.Intn(6) == 0 {
			c.Order = append(c.Order, engine.SortKey{Col: wcID, Desc: rng.Intn(2) == 0})
		}
	}
	x := &engine.ColRef{Idx: wcX, T: engine.Int32}
	off := func() *engine.Const { return &engine.Const{T: engine.Int64, I: int64(rng.Intn(4))} }
	switch rng.Intn(14) {
	case 0:
		c.Func, c.T = engine.WinRowNumber, engine.Int64
	case 1:
		c.Func, c.T = engine.WinRank, engine.Int64
	case 2:
		c.Func, c.T = engine.WinDenseRank, engine.Int64
	case 3:
		c.Func, c.T = engine.WinPercentRank, engine.Float64
	case 4:
		c.Func, c.T = engine.WinCumeDist, engine.Float64
	case 5:
		c.Func, c.T = engine.WinNtile, engine.Int32
		c.Args = []engine.Expr{&engine.Const{T: engine.Int32, I: int64(1 + rng.Intn(7))}}
	case 6, 7:
		c.Func, c.T = engine.WinLag, engine.Int32
		if rng.Intn(2) == 0 {
			c.Func = engine.WinLead
		}
		def := &engine.Const{T: engine.Int32, Null: true}
		if rng.Intn(2) == 0 {
			def = &engine.Const{T: engine.Int32, I: -7}
		}
		c.Args = []engine.Expr{x, &engine.Const{T: engine.Int32, I: int64(rng.Intn(5) - 1)}, def}
	case 8:
		c.Func, c.T, c.Args = engine.WinFirstValue, engine.Int32, []engine.Expr{x}
	case 9:
		c.Func, c.T, c.Args = engine.WinLastValue, engine.Int32, []engine.Expr{x}
	case 10:
		c.Func, c.T, c.Args = engine.WinNthValue, engine.Int32, []engine.Expr{x, &engine.Const{T: engine.Int32, I: int64(1 + rng.Intn(3))}}
	default:
		c.Func = engine.WinAgg
		switch rng.Intn(5) {
		case 0:
			c.Agg = engine.AggCall{Func: engine.AggCountStar, T: engine.Int64}
		case 1:
			c.Agg = engine.AggCall{Func: engine.AggCount, Arg: x, T: engine.Int64}
		case 2:
			c.Agg = engine.AggCall{Func: engine.AggSum, Arg: x, T: engine.Int64}
		case 3:
			c.Agg = engine.AggCall{Func: engine.AggMin, Arg: x, T: engine.Int32}
		default:
			c.Agg = engine.AggCall{Func: engine.AggMax, Arg: x, T: engine.Int32}
		}
		c.T = c.Agg.T
	}
	if !c.Func.UsesFrame() {
		return c
	}
	// a frame PostgreSQL accepts
	modes := []engine.FrameMode{engine.FrameRows}
	if len(c.Order) > 0 {
		modes = append(modes, engine.FrameGroups)
	}
	if len(c.Order) == 1 {
		modes = append(modes, engine.FrameRange)
	}
	c.Frame.Mode = modes[rng.Intn(len(modes))]
	if c.Frame.Mode == engine.FrameRange && rng.Intn(3) == 0 {
		c.Frame.Mode = engine.FrameRange // RANGE without offsets below
	}
	kinds := []engine.BoundKind{engine.BoundUnboundedPreceding, engine.BoundPreceding, engine.BoundCurrentRow, engine.BoundFollowing, engine.BoundUnboundedFollowing}
	for {
		s, e := kinds[rng.Intn(4)], kinds[1+rng.Intn(4)]
		if (s == engine.BoundCurrentRow && e == engine.BoundPreceding) ||
			(s == engine.BoundFollowing && (e == engine.BoundPreceding || e == engine.BoundCurrentRow)) {
			continue
		}
		c.Frame.Start, c.Frame.End = engine.FrameBound{Kind: s}, engine.FrameBound{Kind: e}
		break
	}
	if k := c.Frame.Start.Kind; k == engine.BoundPreceding || k == engine.BoundFollowing {
		c.Frame.Start.Offset = off()
	}
	if k := c.Frame.End.Kind; k == engine.BoundPreceding || k == engine.BoundFollowing {
		c.Frame.End.Offset = off()
	}
	c.Frame.Exclude = engine.FrameExclusion(rng.Intn(4))
	return c
}

// runWindow runs calls over rows with workers and returns each call's
// values by id.
func runWindow(t *testing.T, rows []winRow, calls []engine.WindowCall, workers int) [][]string {
	t.Helper()
	in := &engine.Plan{Table: "w", Data: winTable(rows), Limit: -1}
	for i, c := range []string{"id", "p", "k", "x"} {
		in.Project = append(in.Project, &engine.ColRef{Idx: i, Name: c, T: engine.Int32})
		in.Names = append(in.Names, c)
	}
	in.Visible = 4
	w := &engine.Window{Input: in, Calls: calls, Names: make([]string, len(calls))}
	h, err := New(nil, workers).materialize(context.Background(), w)
	if err != nil {
		t.Fatalf("window: %v\n%s", err, w.Head())
	}
	out := make([][]string, len(calls))
	ids := scanColumn(h.Cols[0], 0, int(h.N))
	for k := range calls {
		v := scanColumn(h.Cols[4+k], 0, int(h.N))
		out[k] = make([]string, len(rows))
		for i := 0; i < int(h.N); i++ {
			out[k][ids.I[i]] = cell(v, i)
		}
	}
	return out
}

func TestWindowMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 400; trial++ {
		n := rng.Intn(60)
		switch trial % 50 {
		case 0:
			n = 3000 + rng.Intn(20000) // parallel partitions
		case 1, 2, 3, 4, 5, 6, 7, 8, 9:
			n = 200 + rng.Intn(800) // frames of aggTree blocks
		}
		rows := randWinRows(rng, n)
		var calls []engine.WindowCall
		for k := 0; k < 1+rng.Intn(4); k++ {
			calls = append(calls, randWinCall(rng))
		}
		if n > 3000 {
			// the reference is quadratic: check only what it can afford
			calls = calls[:1]
			calls[0].Partition = []int{wcP}
		}
		got := runWindow(t, rows, calls, 1+trial%4)
		for k := range calls {
			if n > 3000 {
				break
			}
			want := refWindow(t, &calls[k], rows)
			for id := range rows {
				if got[k][id] != want[id] {
					t.Fatalf("trial %d, %s, row id %d: got %s, want %s\nrows: %s", trial, calls[k].String(), id, got[k][id], want[id], dumpRows(rows))
				}
			}
		}
	}
}

// TestWindowWorkersAgree runs large inputs on 1 and 8 workers.
func TestWindowWorkersAgree(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for trial := 0; trial < 20; trial++ {
		rows := randWinRows(rng, 20000+rng.Intn(10000))
		calls := []engine.WindowCall{randWinCall(rng), randWinCall(rng), randWinCall(rng)}
		a := runWindow(t, rows, calls, 1)
		b := runWindow(t, rows, calls, 8)
		for k := range calls {
			if strings.Join(a[k], ",") != strings.Join(b[k], ",") {
				t.Fatalf("trial %d: %s differs between 1 and 8 workers", trial, calls[k].String())
			}
		}
	}
}

func dumpRows(rows []winRow) string {
	if len(rows) > 60 {
		return fmt.Sprintf("(%d rows)", len(rows))
	}
	s := func(v *int64) string {
		if v == nil {
			return "N"
		}
		return fmt.Sprint(*v)
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "\n  %d p=%s k=%s x=%s", r.id, s(r.p), s(r.k), s(r.x))
	}
	return b.String()
}
