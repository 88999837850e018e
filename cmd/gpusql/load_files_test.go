package main

// Compressed files and globs through the server as the command wires it:
// lineitem rows loaded from a plain CSV, the same file gzipped and
// zstd-compressed, and split over several files of mixed compression
// loaded by one glob must give the same table. With
// GPUSQL_TEST_DEVICE=cuda the loads run on the GPU backend.

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/klauspost/compress/zstd"
)

func compressTo(t *testing.T, path string, data []byte) {
	t.Helper()
	var buf bytes.Buffer
	switch filepath.Ext(path) {
	case ".gz":
		w := gzip.NewWriter(&buf)
		w.Write(data)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	case ".zst":
		w, err := zstd.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	default:
		buf.Write(data)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gzipMembers writes data as a gzip file of many members, one per 64 KiB
// (as bgzip cuts them, mid-line), so it is inflated in parallel.
func gzipMembers(t *testing.T, path string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	for len(data) > 0 {
		n := min(len(data), 64<<10)
		w := gzip.NewWriter(&buf)
		w.Write(data[:n])
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data = data[n:]
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLoadCompressedGlob(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	root := t.TempDir()
	var csv bytes.Buffer
	if err := writeDemoCSV(&csv, 40_000, 7); err != nil {
		t.Fatal(err)
	}
	data := csv.Bytes()
	compressTo(t, filepath.Join(root, "li.csv"), data)
	compressTo(t, filepath.Join(root, "li.csv.gz"), data)
	compressTo(t, filepath.Join(root, "li.csv.zst"), data)
	members := gzipMembers(t, filepath.Join(root, "li-members.csv.gz"), data)
	// The same with one byte of a member in the middle changed: 22P04.
	members[len(members)/2] ^= 0x55
	if err := os.WriteFile(filepath.Join(root, "li-damaged.csv.gz"), members, 0o644); err != nil {
		t.Fatal(err)
	}
	// Four parts, each with the header, of mixed compression, and a file
	// that the glob must not match.
	if err := os.Mkdir(filepath.Join(root, "parts"), 0o755); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	header, rows := lines[0], lines[1:]
	exts := []string{".csv.gz", ".csv.zst", ".csv", ".csv.gz"}
	per := (len(rows) + 3) / 4
	for p := 0; p < 4; p++ {
		part := header + strings.Join(rows[p*per:min(len(rows), (p+1)*per)], "")
		if !strings.HasSuffix(part, "\n") {
			part += "\n"
		}
		compressTo(t, filepath.Join(root, "parts", fmt.Sprintf("li-%d%s", p+1, exts[p])), []byte(part))
	}
	compressTo(t, filepath.Join(root, "parts", "other-9.csv"), []byte(header+rows[0]))

	device := "cpu"
	if d := os.Getenv("GPUSQL_TEST_DEVICE"); d != "" {
		device = d
	}
	gp := startGpusqlOn(t, root, device)
	ctx := context.Background()
	c, err := gp.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	exec := func(sql string) error {
		_, err := c.Exec(ctx, sql).ReadAll()
		return err
	}
	ddl := "(" + clientColumnDDL() + ")"
	for table, path := range map[string]string{"plain": "li.csv", "gz": "li.csv.gz", "zst": "li.csv.zst", "glob": "parts/li-*",
		"members": "li-members.csv.gz"} {
		if err := exec("CREATE TABLE " + table + " " + ddl + " FROM CSV '" + path + "' WITH (HEADER true)"); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	dump := func(table string) []byte {
		var buf bytes.Buffer
		if _, err := c.CopyTo(ctx, &buf, "COPY (SELECT * FROM "+table+" ORDER BY l_orderkey, l_linenumber) TO STDOUT"); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	want := dump("plain")
	if n := bytes.Count(want, []byte("\n")); n != 40_000 {
		t.Fatalf("plain: %d rows", n)
	}
	for _, table := range []string{"gz", "zst", "glob", "members"} {
		if got := dump(table); !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes differ from the plain load's %d", table, len(got), len(want))
		}
	}
	err = exec("CREATE TABLE damaged " + ddl + " FROM CSV 'li-damaged.csv.gz' WITH (HEADER true)")
	if pe := (*pgconn.PgError)(nil); !errors.As(err, &pe) || pe.Code != "22P04" || !strings.Contains(pe.Message, `could not decompress file "li-damaged.csv.gz"`) {
		t.Errorf("damaged members: %v", err)
	}
	// COPY of a glob appends all files at once.
	if err := exec("COPY glob FROM 'parts/li-[12]*' WITH (FORMAT csv, HEADER true)"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := c.CopyTo(ctx, &buf, "COPY (SELECT count(*) FROM glob) TO STDOUT"); err != nil || buf.String() != fmt.Sprint(40_000+2*per)+"\n" {
		t.Errorf("after COPY: %q, %v", buf.String(), err)
	}

	// A bad row in one file of a glob fails the load, naming the file
	// and the line in it.
	badPart := header + rows[0] + rows[1] + "oops" + rows[2][strings.IndexByte(rows[2], ','):]
	compressTo(t, filepath.Join(root, "parts", "li-5.csv.zst"), []byte(badPart))
	err = exec("CREATE TABLE bad " + ddl + " FROM CSV 'parts/li-*' WITH (HEADER true)")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "22P02" || !strings.HasPrefix(pe.Where, `COPY bad, file "parts/li-5.csv.zst", line 4, column l_orderkey: "oops"`) {
		t.Errorf("bad file: %v (where %q)", err, whereOf(err))
	}
	if err := exec("SELECT 1 FROM bad"); err == nil {
		t.Errorf("the failed load left a table")
	}
}

func whereOf(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Where
	}
	return ""
}
