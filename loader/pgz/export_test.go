package pgz

// Taken is how many members r handed out as workers inflated them.
func Taken(r *Reader) int { return r.taken }
