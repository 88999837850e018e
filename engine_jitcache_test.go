package gpusql

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
)

// The driver's JIT cache goes into the data dir, unless the user set one.
func TestKeepJITCache(t *testing.T) {
	t.Setenv("CUDA_CACHE_PATH", "")
	t.Setenv("CUDA_CACHE_MAXSIZE", "")
	os.Unsetenv("CUDA_CACHE_PATH")
	os.Unsetenv("CUDA_CACHE_MAXSIZE")
	dir := t.TempDir()
	keepJITCache(dir, slog.New(slog.DiscardHandler))
	want := filepath.Join(dir, "cuda-cache")
	if got := os.Getenv("CUDA_CACHE_PATH"); got != want {
		t.Fatalf("CUDA_CACHE_PATH %q, want %q", got, want)
	}
	if st, err := os.Stat(want); err != nil || !st.IsDir() {
		t.Fatalf("cache dir: %v", err)
	}
	if os.Getenv("CUDA_CACHE_MAXSIZE") == "" {
		t.Error("CUDA_CACHE_MAXSIZE not set")
	}
	keepJITCache(t.TempDir(), slog.New(slog.DiscardHandler))
	if got := os.Getenv("CUDA_CACHE_PATH"); got != want {
		t.Errorf("a set CUDA_CACHE_PATH was replaced by %q", got)
	}
}
