package main

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/cuda"
)

func TestParseFlags(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	realDir, _ := filepath.EvalSymlinks(dir)

	o, err := parseFlags([]string{"--data-dir", data}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(data); err != nil || !st.IsDir() {
		t.Fatalf("data dir not created: %v", err)
	}
	wantData := filepath.Join(realDir, "data")
	if o.dataDir != wantData || o.fileRoot != wantData || o.listen != "127.0.0.1:5433" || o.device != "auto" || o.demo {
		t.Errorf("defaults: %+v", o)
	}
	o, err = parseFlags([]string{"--data-dir", data, "--file-root", link, "--device", "cpu", "--demo", "--log-level", "debug"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.fileRoot != realDir || o.device != "cpu" || !o.demo {
		t.Errorf("file root %q (want %q, symlink resolved), %+v", o.fileRoot, realDir, o)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--device", "tpu"}, "want auto, cpu or cuda"},
		{[]string{"--listen", "5433"}, "--listen"},
		{[]string{"--max-text-width", "0"}, "--max-text-width"},
		{[]string{"--log-level", "loud"}, "--log-level"},
		{[]string{"--file-root", filepath.Join(dir, "missing")}, "--file-root"},
		{[]string{"--no-such-flag"}, "not defined"},
		{[]string{"stray"}, "unexpected argument"},
	} {
		_, err := parseFlags(append([]string{"--data-dir", data}, tc.args...), io.Discard)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
}

func TestDemoCSVIsDeterministic(t *testing.T) {
	var a, b strings.Builder
	if err := writeDemoCSV(&a, 1000, 7); err != nil {
		t.Fatal(err)
	}
	writeDemoCSV(&b, 1000, 7)
	if a.String() != b.String() {
		t.Fatal("same seed, different bytes")
	}
	lines := strings.Split(strings.TrimSuffix(a.String(), "\n"), "\n")
	if len(lines) != 1001 {
		t.Fatalf("%d lines, want header + 1000", len(lines))
	}
	if n := strings.Count(lines[0], ","); n != len(demoColumns())-1 {
		t.Fatalf("header has %d commas: %s", n, lines[0])
	}
	if got := demoCreateStatement("demo.csv"); !strings.HasPrefix(got, "CREATE TABLE demo (l_orderkey bigint NOT NULL,") ||
		!strings.HasSuffix(got, "l_comment character varying(44) NOT NULL) FROM CSV 'demo.csv' WITH (HEADER true)") {
		t.Errorf("create statement: %s", got)
	}
}

// --device cuda on a machine without a usable GPU fails at startup with the
// reason, instead of running on the CPU.
func TestDeviceCudaWithoutGPU(t *testing.T) {
	if dev, err := cuda.Open(0); err == nil {
		dev.Close()
		t.Skip("a GPU is usable here; this test is for machines without one")
	}
	o, err := parseFlags([]string{"--device", "cuda", "--data-dir", t.TempDir()}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = newEngine(o, slog.New(slog.DiscardHandler), nil)
	if err == nil || !strings.Contains(err.Error(), "no usable GPU") {
		t.Fatalf("--device cuda without a GPU: %v, want an error naming no usable GPU", err)
	}
}
