// Package pgz decompresses gzip files of many members on several cores.
//
// A gzip file is a sequence of members, each a header, a DEFLATE stream
// and a trailer, and a reader gives the concatenation of their contents.
// A member's end is known only once it is inflated, so one member cannot
// be split, but the members of a file with many (bgzip's BGZF blocks of
// 64 KiB, files concatenated with cat) can be inflated at once. A Reader
// finds every offset where a member could start (the bytes 1f 8b 08 that
// every header begins with) and inflates a member from each of them on a
// pool of goroutines, speculatively and a bounded window ahead. It then
// walks the file as a sequential reader would: from the end of one
// member, it takes the inflated member that starts exactly there, and
// passes over the candidates that it has stepped past (bytes 1f 8b 08 that
// were data inside a member). Each member it hands out was inflated from
// the offset a sequential reader would start it at, by the same decoder,
// so the output and the errors are a sequential reader's.
//
// A member that inflates to more than a speculation limit, or that fails,
// is inflated again in place, streaming, from its true start (a damaged
// member then fails exactly as it would sequentially). A file whose first
// member is large or the whole file (or with one worker) is read by
// klauspost/compress's own multistream reader, with no scan: a file of one
// member, the usual gzip output, costs only its first 2 MiB inflated twice.
package pgz

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// Options tune a Reader. Zero values take the defaults.
type Options struct {
	// Workers inflate members in parallel; default 1.
	Workers int
	// Limit is the most a member may inflate to in memory; a larger one
	// is inflated again, streaming, in order. Default 2 MiB.
	Limit int
	// Window is how many inflated candidate members may wait for the
	// reader (besides one being inflated by each worker); default 2 per
	// worker. At most (Window + Workers) × Limit bytes are held.
	Window int
}

const scanBlock = 1 << 20

// Reader reads the decompressed content of a gzip file of any number of
// members.
type Reader struct {
	ra   io.ReaderAt
	size int64
	opt  Options

	pos int64  // where the next member starts, in the file
	cur []byte // what is left of the current member's content
	buf *bytes.Buffer

	whole   *gzip.Reader // the sequential reader of the whole file, or nil
	seq     *gzip.Reader // a member inflated in place, or nil
	seqIn   *inPlace
	seqFrom int64

	// The parallel walk: candidates in file order, each inflated by a
	// worker; nil while the file is read sequentially.
	order chan *job
	quit  chan struct{}
	wg    sync.WaitGroup
	pool  sync.Pool // *bytes.Buffer
	err   error
	taken int // members handed out as a worker inflated them
}

// job is one candidate member start.
type job struct {
	start int64
	end   int64 // the member's end, when ok
	out   *bytes.Buffer
	ok    bool // inflated whole within the limit, trailer checked
	done  chan struct{}
}

// NewReader starts reading the gzip file ra of size bytes. A file that
// does not begin with a gzip header fails as gzip.NewReader fails.
func NewReader(ra io.ReaderAt, size int64, o Options) (*Reader, error) {
	o.Workers = max(o.Workers, 1)
	if o.Limit <= 0 {
		o.Limit = 2 << 20
	}
	if o.Window <= 0 {
		o.Window = 2 * o.Workers
	}
	r := &Reader{ra: ra, size: size, opt: o}
	if o.Workers == 1 {
		return r, r.readWhole()
	}
	r.pool.New = func() any { return new(bytes.Buffer) }
	// The first member, within the limit, tells whether the file has
	// small members to inflate in parallel.
	first := &job{start: 0, done: make(chan struct{})}
	var d decoder
	if err := d.inflate(ra, size, first, o.Limit, &r.pool); err != nil {
		return nil, err
	}
	if !first.ok || first.end >= size {
		// One member or a large first member: klauspost/compress's own
		// multistream reader from the start.
		r.release(first)
		return r, r.readWhole()
	}
	r.cur, r.buf, r.pos = first.out.Bytes(), first.out, first.end
	r.order = make(chan *job, o.Window)
	r.quit = make(chan struct{})
	work := make(chan *job)
	r.wg.Add(1 + o.Workers)
	go r.scan(first.end, work)
	for range o.Workers {
		go func() {
			defer r.wg.Done()
			var d decoder
			for j := range work {
				d.inflate(r.ra, r.size, j, r.opt.Limit, &r.pool)
				close(j.done)
			}
		}()
	}
	return r, nil
}

// readWhole reads the whole file with klauspost/compress's multistream
// reader.
func (r *Reader) readWhole() error {
	z, err := gzip.NewReader(bufio.NewReaderSize(io.NewSectionReader(r.ra, 0, r.size), 1<<20))
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // an empty file
	}
	r.whole = z
	return err
}

// scan sends every candidate member start at or after from, in file
// order, to the workers and to the reader.
func (r *Reader) scan(from int64, work chan<- *job) {
	defer r.wg.Done()
	defer close(work)
	defer close(r.order)
	block := make([]byte, scanBlock+2)
	for off := from; off < r.size; off += scanBlock {
		n, err := r.ra.ReadAt(block[:min(int64(len(block)), r.size-off)], off)
		if err != nil && err != io.EOF {
			return // the reader then reads on in place, and meets the error
		}
		b := block[:n]
		for i := 0; ; {
			k := bytes.Index(b[i:], magic)
			if k < 0 || i+k >= scanBlock {
				break
			}
			// To the workers first: every job the reader may wait for
			// is one a worker finishes.
			j := &job{start: off + int64(i+k), done: make(chan struct{})}
			work <- j
			select {
			case r.order <- j:
			case <-r.quit:
				return
			}
			i += k + 1
		}
	}
}

var magic = []byte{0x1f, 0x8b, 8}

// Read reads the decompressed content.
func (r *Reader) Read(p []byte) (int, error) {
	if r.whole != nil {
		return r.whole.Read(p)
	}
	for len(r.cur) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		if r.seq != nil {
			n, err := r.seq.Read(p)
			if err == io.EOF {
				// The member read in place ended: on from its end.
				r.pos = r.seqFrom + r.seqIn.taken()
				r.seq = nil
				if n > 0 {
					return n, nil
				}
				continue
			}
			if err != nil {
				r.err = err
			}
			return n, err
		}
		r.next()
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// next moves to the member at r.pos: the inflated candidate that starts
// there, or the member read in place; at the end of the file, io.EOF.
func (r *Reader) next() {
	if r.buf != nil {
		r.buf.Reset()
		r.pool.Put(r.buf)
		r.buf = nil
	}
	for {
		j, ok := <-r.order
		if !ok {
			// No candidate left: the file ends here, or what follows is
			// not a member (a sequential reader fails on it).
			if r.pos >= r.size {
				r.err = io.EOF
			} else if err := r.startSeq(r.pos); err != nil {
				r.err = err
			}
			return
		}
		<-j.done
		switch {
		case j.start < r.pos:
			// 1f 8b 08 inside a member already read.
			r.release(j)
		case j.start == r.pos && j.ok:
			r.cur, r.buf, r.pos = j.out.Bytes(), j.out, j.end
			r.taken++
			return
		default:
			// The member at r.pos is too large or damaged, or r.pos is
			// not a candidate, so not a member (data after the last
			// one): read it in place, as a sequential reader would. (A
			// candidate passed over here is met again as one stepped
			// past, or its member is read in place too.)
			r.release(j)
			if err := r.startSeq(r.pos); err != nil {
				r.err = err
			}
			return
		}
	}
}

// release returns j's buffer to the pool.
func (r *Reader) release(j *job) {
	if j.out != nil {
		j.out.Reset()
		r.pool.Put(j.out)
		j.out = nil
	}
}

// startSeq starts inflating the member at off in place. At the end of
// the file it is io.EOF for the reader, as for a sequential one.
func (r *Reader) startSeq(off int64) error {
	if off >= r.size {
		return io.EOF
	}
	in := &inPlace{cnt: counter{r: io.NewSectionReader(r.ra, off, r.size-off)}}
	in.br = bufio.NewReaderSize(&in.cnt, 1<<20)
	r.seqIn = in
	z, err := gzip.NewReader(in.br)
	if err != nil {
		return err
	}
	z.Multistream(false)
	r.seq, r.seqFrom = z, off
	return nil
}

// Close stops the workers and waits for them.
func (r *Reader) Close() error {
	if r.quit != nil {
		close(r.quit)
		go func() {
			for j := range r.order {
				<-j.done
			}
		}()
		r.wg.Wait()
		r.quit = nil
	}
	return nil
}

// counter counts the bytes read from the file; the gzip decoder reads
// through a bufio.Reader on top of it (klauspost/compress inflates fastest
// from a *bufio.Reader, and reads no further than the member from an
// io.ByteReader), so the member ends at n less what is still buffered.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// inPlace is a member being inflated in place.
type inPlace struct {
	cnt counter
	br  *bufio.Reader
}

func (p *inPlace) taken() int64 { return p.cnt.n - int64(p.br.Buffered()) }

// decoder is a worker's reusable gzip reader.
type decoder struct {
	z  *gzip.Reader
	in inPlace
}

// inflate inflates the member at j.start into a pooled buffer: j.ok when
// it ends, trailer checked, within limit bytes of content. Only an error
// reading the first member's header is returned.
func (d *decoder) inflate(ra io.ReaderAt, size int64, j *job, limit int, pool *sync.Pool) error {
	d.in.cnt = counter{r: io.NewSectionReader(ra, j.start, size-j.start)}
	if d.in.br == nil {
		d.in.br = bufio.NewReaderSize(&d.in.cnt, 64<<10)
	} else {
		d.in.br.Reset(&d.in.cnt)
	}
	var err error
	if d.z == nil {
		d.z, err = gzip.NewReader(d.in.br)
	} else {
		err = d.z.Reset(d.in.br)
	}
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	d.z.Multistream(false)
	out := pool.Get().(*bytes.Buffer)
	n, err := out.ReadFrom(io.LimitReader(d.z, int64(limit)+1))
	j.out = out
	switch {
	case n > int64(limit):
	case err != nil:
	default:
		// LimitReader hides the member's end: a Read must say io.EOF.
		var one [1]byte
		if m, e := d.z.Read(one[:]); m == 0 && errors.Is(e, io.EOF) {
			j.ok, j.end = true, j.start+d.in.taken()
		}
	}
	if !j.ok {
		out.Reset()
		pool.Put(out)
		j.out = nil
	}
	return nil
}
