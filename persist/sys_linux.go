package persist

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapFlags map a table file shared, its pages mapped in at once
// (MAP_POPULATE: far fewer faults than touching them one by one).
const mapFlags = syscall.MAP_SHARED | syscall.MAP_POPULATE

// startWriteback asks the kernel to start writing [off, off+n) of f to
// disk now, without waiting (sync_file_range SYNC_FILE_RANGE_WRITE), so
// that the disk writes the file while the rest of it is produced and the
// final fsync, which alone makes it durable, has little left to do.
func startWriteback(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
