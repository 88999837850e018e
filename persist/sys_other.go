//go:build !linux

package persist

import (
	"os"
	"syscall"
)

// mapFlags map a table file shared.
const mapFlags = syscall.MAP_SHARED

// startWriteback does nothing where sync_file_range is missing: the
// final fsync writes everything.
func startWriteback(f *os.File, off, n int64) {}
