package multi

import "github.com/gpusql/gpusql/engine"

// Gathered is every row of t on the first part (engine.Gatherer).
func (t *Table) Gathered() (engine.TableData, error) { return t.gatheredOn(0) }

// gatheredOn is every row of t on part k, made once per table version
// and part: the segments of other devices are moved there (peer to peer
// on GPUs) and all are appended in order.
func (t *Table) gatheredOn(k int) (engine.TableData, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if g, ok := t.gathered[k]; ok {
		return g.data, nil
	}
	bk := t.b.parts[k]
	var acc engine.TableData
	accOwned := false
	fail := func(err error) (engine.TableData, error) {
		if accOwned {
			acc.Release()
		}
		return nil, err
	}
	for _, s := range t.segs {
		d, owned := s.data, false
		if s.part != k && t.b.parts[s.part] != bk {
			if m, ok := bk.(Mover); ok {
				var err error
				if d, owned, err = m.Move(t.name, s.data); err != nil {
					return fail(err)
				}
			}
		}
		if acc == nil {
			acc, accOwned = d, owned
			continue
		}
		if d.Rows() == 0 {
			if owned {
				d.Release()
			}
			continue
		}
		if acc.Rows() == 0 && !accOwned {
			acc, accOwned = d, owned
			continue
		}
		next, err := bk.Concat(t.name, acc, d)
		if owned {
			d.Release()
		}
		if err != nil {
			return fail(err)
		}
		if accOwned {
			acc.Release()
		}
		acc, accOwned = next, true
	}
	if t.gathered == nil {
		t.gathered = map[int]gatheredCopy{}
	}
	t.gathered[k] = gatheredCopy{acc, accOwned}
	return acc, nil
}
