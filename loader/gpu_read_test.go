package loader

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// A read of a mapped file past its end, after the file shrank, is an
// I/O error of the load, not a crash of the server.
func TestGuardFaultsTurnsShrunkMappingIntoError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.csv")
	page := os.Getpagesize()
	if err := os.WriteFile(path, make([]byte, 4*page), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := syscall.Mmap(int(f.Fd()), 0, 4*page, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(data)
	if err := guardFaults(func() error { _ = data[3*page]; return nil }); err != nil {
		t.Fatalf("a read inside the file: %v", err)
	}
	if err := os.Truncate(path, int64(page)); err != nil {
		t.Fatal(err)
	}
	var sum byte
	err = guardFaults(func() error {
		for i := range data {
			sum += data[i]
		}
		return nil
	})
	if engine.Code(err) != engine.CodeIOError {
		t.Fatalf("reading past the shrunk file's end: %v (SQLSTATE %s), want 58030", err, engine.Code(err))
	}
	// other panics pass through
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the panic itself", r)
		}
	}()
	_ = guardFaults(func() error { panic("boom") })
}
