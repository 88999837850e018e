package loader

import "sort"

// Stages 4 and 5: validate rows and compact. Rows are checked in blocks of
// rowBlock records, in parallel: field count, encoding and bare carriage
// returns (from the anomaly positions of stages 1 and 3), an unterminated
// quote, NULLs in NOT NULL columns, and string limits, while the widest
// stored value of each string column is measured. Values of other types
// are checked when stage 6 converts them. Compaction gives every block the
// output row of its first good row (an exclusive scan of good counts); the
// bad rows of a block are listed, so stage 6 skips them.

// rowBlockState is the work and result of one block of records.
type rowBlockState struct {
	r0, r1  int     // records [r0, r1) of the batch
	bad     []int32 // records rejected by stage 4, sorted
	fail    []int32 // records rejected by stage 6
	good    int
	outBase int   // output row of the block's first good row
	maxW    []int // per table column: widest stored string
	nulls   []bool
}

// validateBlock is stage 4 for one block.
func (ld *load) validateBlock(b *batch, blk *rowBlockState, scratch *[]byte) {
	blk.bad = blk.bad[:0]
	blk.fail = blk.fail[:0]
	for c := range blk.maxW {
		blk.maxW[c] = 0
		blk.nulls[c] = false
	}
	// First anomaly at or after the block's first byte.
	a := 0
	if len(b.anomaly) > 0 {
		s, _ := b.recBounds(blk.r0)
		a = sort.Search(len(b.anomaly), func(i int) bool { return int(b.anomaly[i]) >= s })
	}
	d := &ld.d
	for r := blk.r0; r < blk.r1; r++ {
		bad := b.fieldCount(r) != ld.nFields || r == b.unterminated
		if a < len(b.anomaly) {
			end := b.recTerm(r)
			for a < len(b.anomaly) && int(b.anomaly[a]) <= end {
				bad = true
				a++
			}
		}
		if !bad {
			for c := range ld.cols {
				cp := &ld.cols[c]
				raw, mq := b.field(r, cp.field)
				if !cp.isStr && len(raw) != len(d.null) {
					continue // not NULL; the value is checked in stage 6
				}
				val, null := d.resolve(raw, mq, scratch)
				if null {
					if cp.def.NotNull {
						bad = true
						break
					}
					blk.nulls[c] = true
					continue
				}
				if cp.isStr {
					if d.text && mq && badText(val) >= 0 { // an escape made bad UTF-8
						bad = true
						break
					}
					n, st := strStored(val, cp)
					if st != strOK {
						bad = true
						break
					}
					if n > blk.maxW[c] {
						blk.maxW[c] = n
					}
				}
			}
		}
		if bad {
			blk.bad = append(blk.bad, int32(r))
		}
	}
	blk.good = blk.r1 - blk.r0 - len(blk.bad)
}

// compact is stage 5: an exclusive scan of the blocks' good counts.
func compact(blocks []rowBlockState, base int) (total int) {
	total = base
	for i := range blocks {
		blocks[i].outBase = total
		total += blocks[i].good
	}
	return total
}
