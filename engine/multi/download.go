package multi

import "github.com/gpusql/gpusql/engine"

var _ engine.Downloader = (*Table)(nil)

// Download copies every segment's rows to the host, in order, as one
// host table (what the data directory keeps of a split table; a restart
// stores it again through the backend, which places it).
func (t *Table) Download() (*engine.HostTable, error) {
	hs := make([]*engine.HostTable, 0, len(t.segs))
	for _, s := range t.segs {
		dl, ok := s.data.(engine.Downloader)
		if !ok {
			return nil, engine.Errorf(engine.CodeInternalError, "multi: a segment of %T cannot be copied to the host", s.data)
		}
		h, err := dl.Download()
		if err != nil {
			return nil, err
		}
		hs = append(hs, h)
	}
	if len(hs) == 0 {
		return nil, engine.Errorf(engine.CodeInternalError, "multi: table %q has no segments", t.name)
	}
	// Pairs, then pairs of pairs: each row is copied log2(segments)
	// times, not once per later segment.
	for len(hs) > 1 {
		next := hs[:0:0]
		for i := 0; i < len(hs); i += 2 {
			if i+1 == len(hs) {
				next = append(next, hs[i])
				break
			}
			next = append(next, engine.ConcatHost(hs[i], hs[i+1]))
		}
		hs = next
	}
	return hs[0], nil
}
