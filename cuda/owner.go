package cuda

// SetOwner accounts the buffer to owner from now on: scratch that a
// statement built (owner "") and keeps as a table's data, as CREATE
// TABLE ... AS and INSERT keep a query's result on the device.
func (b *Buffer) SetOwner(owner string) error {
	if b == nil || b.owner == owner {
		return nil
	}
	return b.dev.do(func() error {
		p := b.dev.pool
		if !b.freed && b.block > 0 {
			if p.inUse[b.owner] -= b.block; p.inUse[b.owner] == 0 {
				delete(p.inUse, b.owner)
			}
			p.inUse[owner] += b.block
		}
		b.owner = owner
		return nil
	})
}
