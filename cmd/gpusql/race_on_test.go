//go:build race

package main

// raceDetector: the race detector keeps shadow memory it never returns,
// so RSS bounds do not hold under it.
const raceDetector = true
