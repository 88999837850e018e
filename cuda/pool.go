package cuda

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql/engine"
)

// DevPtr is a device address (CUdeviceptr).
type DevPtr uint64

// Buffer is a block of device memory from a Device's pool, owned by a table
// (its name) or by query scratch (owner "").
type Buffer struct {
	dev   *Device
	ptr   DevPtr
	size  int64 // as asked
	block int64 // as held from the driver (size rounded to its class)
	owner string
	freed bool
}

// Ptr returns the device address (0 for a zero-size buffer).
func (b *Buffer) Ptr() DevPtr { return b.ptr }

// Size returns the size asked for.
func (b *Buffer) Size() int64 { return b.size }

// Owner returns the owner the buffer is accounted to.
func (b *Buffer) Owner() string { return b.owner }

// Free returns the buffer to the pool, which may keep the block for reuse.
// Freeing a nil buffer does nothing; freeing one twice is an error.
func (b *Buffer) Free() error {
	if b == nil {
		return nil
	}
	return b.dev.do(func() error { return b.dev.pool.free(b) })
}

// FreeAll returns bufs (all of this device) to the pool in one call to
// the worker goroutine: a query's scratch is dozens of buffers, and a
// round trip to the worker for each cost about 15 µs. Nil buffers are
// skipped; the first error is returned after every buffer is freed.
func (d *Device) FreeAll(bufs []*Buffer) error {
	return d.do(func() error {
		var first error
		for _, b := range bufs {
			if b == nil {
				continue
			}
			if err := d.pool.free(b); err != nil && first == nil {
				first = err
			}
		}
		return first
	})
}

// Alloc allocates size bytes of device memory accounted to owner. Running
// out of memory (the device's, or Options.MemLimit) is an *engine.Error with
// SQLSTATE 53200 naming the size and what is in use. A zero size gives a
// buffer with Ptr 0.
func (d *Device) Alloc(owner string, size int64) (*Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("cuda: Alloc of negative size %d", size)
	}
	var b *Buffer
	err := d.do(func() error {
		var err error
		b, err = d.pool.alloc(owner, size)
		return err
	})
	return b, err
}

// Usage returns the bytes in use per owner (blocks as held from the driver,
// so a little over the sizes asked). Owners with nothing in use are absent.
func (d *Device) Usage() map[string]int64 {
	m := map[string]int64{}
	_ = d.do(func() error {
		for k, v := range d.pool.inUse {
			m[k] = v
		}
		return nil
	})
	return m
}

// PoolStats returns the bytes the pool holds from the driver, in use and
// cached for reuse.
func (d *Device) PoolStats() (inUse, cached int64) {
	_ = d.do(func() error {
		inUse, cached = d.pool.used, d.pool.cached
		return nil
	})
	return
}

// MemInfo returns the device's free and total memory as the driver sees it
// (blocks the pool caches count as used).
func (d *Device) MemInfo() (free, total int64, err error) {
	err = d.do(func() error {
		var f, t uint64
		if err := d.lib.check("cuMemGetInfo_v2", d.lib.cuMemGetInfo_v2(&f, &t)); err != nil {
			return err
		}
		free, total = int64(f), int64(t)
		return nil
	})
	return
}

// pool is a caching allocator over cuMemAlloc. Sizes round up to a class
// (powers of two up to 1 MiB, then multiples of 2 MiB) so freed blocks can
// be reused for similar sizes; freed blocks are kept up to a cap and given
// back to the driver when an allocation would otherwise fail. It is used
// only by the thread holding Device.call (the worker, or a Run caller).
type pool struct {
	dev      *Device
	limit    int64 // 0 = none
	cacheCap int64
	used     int64              // bytes in use, all owners
	cached   int64              // bytes in free lists
	inUse    map[string]int64   // bytes in use per owner
	blocks   map[int64][]DevPtr // cached blocks by size class
	live     map[DevPtr]*Buffer // buffers in use, freed by Device.Close
}

const (
	minBlock   = 256     // cuMemAlloc aligns to 256 bytes anyway
	smallLimit = 1 << 20 // up to here, power-of-two classes
	largeStep  = 2 << 20 // above, multiples of 2 MiB
)

func newPool(d *Device, o Options) *pool {
	c := o.CacheBytes // 0: capBytes's default; negative: no cache
	return &pool{dev: d, limit: o.MemLimit, cacheCap: c, inUse: map[string]int64{}, blocks: map[int64][]DevPtr{}, live: map[DevPtr]*Buffer{}}
}

// capBytes is the most the free lists keep: Options.CacheBytes, or by
// default an eighth of the device's memory and at least
// DefaultCacheBytes, so that a query's scratch (gigabytes for a sort of
// tens of millions of rows) is reused by the next query instead of going
// back through cuMemFree and cuMemAlloc, which synchronize and cost
// milliseconds. Cached blocks are given back when an allocation would
// otherwise fail, so they never stand in the way of a table.
func (p *pool) capBytes() int64 {
	if p.cacheCap != 0 {
		return max(p.cacheCap, 0)
	}
	return max(DefaultCacheBytes, p.dev.props.TotalMem/8)
}

// blockSize is the size class of a request.
func blockSize(n int64) int64 {
	switch {
	case n <= minBlock:
		return minBlock
	case n <= smallLimit:
		return 1 << (64 - bits.LeadingZeros64(uint64(n-1)))
	default:
		return (n + largeStep - 1) / largeStep * largeStep
	}
}

func (p *pool) alloc(owner string, size int64) (*Buffer, error) {
	if size == 0 {
		return &Buffer{dev: p.dev, owner: owner}, nil
	}
	blk := blockSize(size)
	if p.limit > 0 && p.used+blk > p.limit {
		return nil, p.oomError(owner, size, nil)
	}
	var ptr DevPtr
	if fit := p.fit(blk, owner == ""); fit > 0 && (p.limit <= 0 || p.used+fit <= p.limit) {
		blk = fit
		l := p.blocks[blk]
		ptr = l[len(l)-1]
		if len(l) == 1 {
			delete(p.blocks, blk)
		} else {
			p.blocks[blk] = l[:len(l)-1]
		}
		p.cached -= blk
	} else {
		if p.limit > 0 && p.used+p.cached+blk > p.limit {
			p.trim(0)
		}
		var err error
		ptr, err = p.driverAlloc(blk)
		if IsOutOfMemory(err) && p.cached > 0 {
			p.trim(0)
			ptr, err = p.driverAlloc(blk)
		}
		if IsOutOfMemory(err) {
			return nil, p.oomError(owner, size, err)
		}
		if err != nil {
			return nil, err
		}
	}
	p.used += blk
	p.inUse[owner] += blk
	b := &Buffer{dev: p.dev, ptr: ptr, size: size, block: blk, owner: owner}
	p.live[ptr] = b
	return b, nil
}

// fit is the size class of the cached block a request of class blk
// takes, 0 if none: its own class, or, for a large scratch request
// (loose; a table's columns keep their blocks, so they take their own
// class), the smallest cached class at most a quarter larger. Large requests vary by query
// (a join's table for this many rows), so exact classes alone missed,
// and each miss went through cuMemAlloc, and once the cache was full
// each free through cuMemFree: both synchronize the device.
func (p *pool) fit(blk int64, loose bool) int64 {
	if len(p.blocks[blk]) > 0 {
		return blk
	}
	if !loose || blk <= smallLimit {
		return 0
	}
	best := int64(0)
	for c, l := range p.blocks {
		if len(l) > 0 && c > blk && c <= blk+blk/4 && (best == 0 || c < best) {
			best = c
		}
	}
	return best
}

func (p *pool) driverAlloc(n int64) (DevPtr, error) {
	var v uint64
	err := p.dev.lib.check("cuMemAlloc_v2", p.dev.lib.cuMemAlloc_v2(&v, uint64(n)))
	return DevPtr(v), err
}

func (p *pool) free(b *Buffer) error {
	if b.freed {
		return errors.New("cuda: buffer freed twice")
	}
	b.freed = true
	if b.block == 0 {
		return nil
	}
	delete(p.live, b.ptr)
	p.used -= b.block
	if p.inUse[b.owner] -= b.block; p.inUse[b.owner] == 0 {
		delete(p.inUse, b.owner)
	}
	if p.cached+b.block <= p.capBytes() {
		p.blocks[b.block] = append(p.blocks[b.block], b.ptr)
		p.cached += b.block
		return nil
	}
	return p.dev.lib.check("cuMemFree_v2", p.dev.lib.cuMemFree_v2(uint64(b.ptr)))
}

// trim gives cached blocks back to the driver until at most keep bytes stay.
func (p *pool) trim(keep int64) {
	for blk, l := range p.blocks {
		for len(l) > 0 && p.cached > keep {
			p.dev.lib.cuMemFree_v2(uint64(l[len(l)-1]))
			l = l[:len(l)-1]
			p.cached -= blk
		}
		if len(l) == 0 {
			delete(p.blocks, blk)
		} else {
			p.blocks[blk] = l
		}
	}
}

// releaseAll is for Device.Close: it frees the cache and every buffer
// still in use (marking them freed, so a later Free is an error).
func (p *pool) releaseAll() {
	p.trim(0)
	for ptr, b := range p.live {
		b.freed = true
		p.dev.lib.cuMemFree_v2(uint64(ptr))
	}
	p.live = map[DevPtr]*Buffer{}
	p.used = 0
	p.inUse = map[string]int64{}
}

// oomError is the 53200 error for a failed allocation: the size asked, for
// whom, and what the device holds, by owner.
func (p *pool) oomError(owner string, size int64, cause error) *engine.Error {
	e := engine.Errorf(engine.CodeOutOfMemory, "out of GPU memory: cannot allocate %s for %s",
		humanize.IBytes(uint64(size)), ownerName(owner))
	var parts []string
	owners := make([]string, 0, len(p.inUse))
	for o := range p.inUse {
		owners = append(owners, o)
	}
	sort.Slice(owners, func(i, j int) bool { return p.inUse[owners[i]] > p.inUse[owners[j]] })
	for i, o := range owners {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("%d more", len(owners)-5))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s", ownerName(o), humanize.IBytes(uint64(p.inUse[o]))))
	}
	held := fmt.Sprintf("%s in use", humanize.IBytes(uint64(p.used)))
	if len(parts) > 0 {
		held += " (" + strings.Join(parts, ", ") + ")"
	}
	if p.limit > 0 {
		held += fmt.Sprintf(", limit %s", humanize.IBytes(uint64(p.limit)))
	} else {
		held += fmt.Sprintf(" of %s on %s", humanize.IBytes(uint64(p.dev.props.TotalMem)), p.dev.props.Name)
	}
	e = e.WithDetail("%s", held)
	e.Hint = "DROP tables that are not needed, or load fewer columns."
	e.Err = cause
	return e
}

func ownerName(o string) string {
	if o == "" {
		return "query scratch"
	}
	return fmt.Sprintf("table %q", o)
}
