//go:build race

package gpu

// raceEnabled: the race detector slows the regular-expression twins
// tenfold, so their random tests run fewer cases under it.
const raceEnabled = true
