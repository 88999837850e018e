package multi

import "github.com/gpusql/gpusql/engine"

// Gathered is every row of t on the first part (engine.Gatherer), made
// once per table version: foreign segments are moved there (peer to peer on GPUs) and
// all are appended in order.
func (t *Table) Gathered() (engine.TableData, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gathered != nil {
		return t.gathered, nil
	}
	b0 := t.b.parts[0]
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
		if s.part != 0 {
			if m, ok := b0.(Mover); ok {
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
		next, err := b0.Concat(t.name, acc, d)
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
	t.gathered, t.owned = acc, accOwned
	return acc, nil
}
