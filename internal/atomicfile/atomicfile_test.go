package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A write replaces the file whole; a failed one leaves the old file and
// no temporary file behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := WriteBytes(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := Write(path, func(f *os.File) error {
		f.Write([]byte("half"))
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("a failed write returned %v", err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "one" {
		t.Fatalf("after a failed write the file holds %q, %v", b, err)
	}
	if err := WriteBytes(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Fatalf("the file holds %q, want two", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("%d files in the directory, want only f", len(ents))
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
}
