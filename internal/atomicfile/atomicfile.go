// Package atomicfile replaces files so that a crash at any moment leaves
// the old file (or none) or the new one whole: the data directory's
// table files and manifest (persist) and the roles file (auth).
package atomicfile

import (
	"os"
	"path/filepath"
)

// TempPrefix starts the name of a temporary file Write has not yet
// renamed; one left by a crash may be removed.
const TempPrefix = ".tmp-"

// Write makes path hold what write writes to the file it is given (mode
// 0600): it writes a temporary file in the same directory, syncs it,
// renames it over path and syncs the directory. A failure of that last
// sync is a *SyncError: the new file is in place, but a crash might
// still undo the rename.
func Write(path string, write func(*os.File) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, TempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	if err := syncDir(dir); err != nil {
		return &SyncError{err}
	}
	return nil
}

// WriteBytes is Write of data.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// SyncError is a failure to sync the directory after the rename that
// replaced the file.
type SyncError struct{ Err error }

func (e *SyncError) Error() string { return "syncing the directory: " + e.Err.Error() }
func (e *SyncError) Unwrap() error { return e.Err }

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
