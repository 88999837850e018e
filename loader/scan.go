package loader

// Stage 2: exclusive prefix sums over the chunks. Each chunk learns the
// quote state it starts in, the index of its first record and of its first
// field terminator, so that stage 3 can write its part of the field index
// in place. A batch always starts at a record start, outside quotes.

// scanChunks fills state, recBase and entryBase of every chunk and returns
// the number of complete records, of terminators, and the state at the
// end of the data.
func scanChunks(chunks []chunk) (recs, terms int, end uint8) {
	s := uint8(stOut)
	for i := range chunks {
		c := &chunks[i]
		c.state = s
		c.recBase = recs
		c.entryBase = terms
		recs += c.recs[s]
		terms += c.terms[s]
		s = c.endState[s]
	}
	return recs, terms, s
}
