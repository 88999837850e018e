package hits_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/tools/hitsgen/hits"
)

func generate(t testing.TB, o hits.Options, workers int) ([]byte, hits.Stats) {
	t.Helper()
	g, err := hits.New(o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	st, err := g.Write(&b, workers)
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), st
}

// TestGolden pins the bytes: the committed answers
// (testdata/clickbench/answers) and the differential corpus's hits are
// made from them. A change to the generator that changes them must
// regenerate those (tools/clickbench-answers.sh) and update the sums here.
func TestGolden(t *testing.T) {
	for _, c := range []struct {
		o    hits.Options
		want string
	}{
		{hits.Options{Rows: 20000, Seed: 1, Format: hits.CSV}, "7d6f8e02"},
		{hits.Options{Rows: 3000, Seed: 1, Format: hits.TSV}, "3915979d"},
	} {
		data, _ := generate(t, c.o, 3)
		if got := fmt.Sprintf("%x", sha256.Sum256(data))[:8]; got != c.want {
			t.Errorf("%+v: SHA-256 %s..., want %s...", c.o, got, c.want)
		}
	}
}

// TestWorkers: the same bytes with 1 and 5 workers, and any slice of rows
// made alone is that slice of the whole.
func TestWorkers(t *testing.T) {
	o := hits.Options{Rows: 3*hits.ChunkRows + 17, Seed: 7, Format: hits.CSV}
	one, st := generate(t, o, 1)
	five, _ := generate(t, o, 5)
	if !bytes.Equal(one, five) {
		t.Fatal("1 and 5 workers wrote different bytes")
	}
	if st.Rows != o.Rows || int64(bytes.Count(one, []byte("\n"))) != o.Rows {
		t.Fatalf("%d rows, %d lines, want %d", st.Rows, bytes.Count(one, []byte("\n")), o.Rows)
	}
	g, _ := hits.New(o)
	var st2 hits.Stats
	part := g.AppendRows(nil, 100, 200, &st2)
	lines := bytes.SplitAfter(one, []byte("\n"))
	if want := bytes.Join(lines[100:200], nil); !bytes.Equal(part, want) {
		t.Error("rows 100 to 200 made alone differ from the whole table's")
	}
	other, _ := generate(t, hits.Options{Rows: 100, Seed: 8, Format: hits.CSV}, 1)
	if bytes.Equal(other, one[:len(other)]) {
		t.Error("another seed wrote the same rows")
	}
}

// TestFormats: every CSV record and every TSV line has the 105 fields,
// and both formats hold the same values.
func TestFormats(t *testing.T) {
	if len(hits.Columns) != 105 {
		t.Fatalf("%d columns", len(hits.Columns))
	}
	o := hits.Options{Rows: 5000, Seed: 1}
	c, _ := generate(t, o, 2)
	o.Format = hits.TSV
	tsv, _ := generate(t, o, 2)
	r := csv.NewReader(bytes.NewReader(c))
	r.FieldsPerRecord = 105
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(tsv), "\n"), "\n")
	if len(recs) != 5000 || len(lines) != 5000 {
		t.Fatalf("%d records, %d lines", len(recs), len(lines))
	}
	for i, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 105 {
			t.Fatalf("line %d: %d fields", i+1, len(f))
		}
		for j := range f {
			if f[j] != recs[i][j] {
				t.Fatalf("row %d, %s: TSV %q, CSV %q", i+1, hits.Columns[j].Name, f[j], recs[i][j])
			}
		}
	}
	// The empty string is quoted in CSV (unquoted is NULL).
	if !bytes.Contains(c, []byte(`,"",`)) || bytes.Contains(c, []byte(",,")) {
		t.Error(`CSV: empty strings should be "" and no field unquoted empty`)
	}
}

// TestDistributions checks the properties the queries depend on (model.go)
// at 100,000 rows.
func TestDistributions(t *testing.T) {
	const rows = 100000
	data, st := generate(t, hits.Options{Rows: rows, Seed: 1}, 4)
	r := csv.NewReader(bytes.NewReader(data))
	col := map[string]int{}
	for i, c := range hits.Columns {
		col[c.Name] = i
	}
	distinct := map[string]map[string]int{}
	for _, c := range []string{"WatchID", "UserID", "SearchPhrase", "URL", "CounterID", "RegionID", "ClientIP"} {
		distinct[c] = map[string]int{}
	}
	urlHash := map[string]string{}
	var search, adv, google, counter62, plantedURL, plantedRef, plantedUser, mobile int
	var width int64
	for {
		rec, err := r.Read()
		if err != nil {
			break
		}
		for c, m := range distinct {
			m[rec[col[c]]]++
		}
		if rec[col["SearchPhrase"]] != "" {
			search++
			if rec[col["SearchEngineID"]] == "0" {
				t.Fatal("a search phrase with SearchEngineID 0")
			}
		}
		if rec[col["AdvEngineID"]] != "0" {
			adv++
		}
		if strings.Contains(rec[col["URL"]], "google") {
			google++
		}
		if rec[col["MobilePhoneModel"]] != "" {
			mobile++
		}
		if rec[col["CounterID"]] == "62" {
			counter62++
		}
		if rec[col["URLHash"]] == "2868770270353813622" {
			plantedURL++
		}
		if rec[col["RefererHash"]] == "3594120000172545465" {
			plantedRef++
		}
		if rec[col["UserID"]] == "435090932899640449" {
			plantedUser++
		}
		w, _ := strconv.Atoi(rec[col["ResolutionWidth"]])
		width += int64(w)
		if d, ts := rec[col["EventDate"]], rec[col["EventTime"]]; !strings.HasPrefix(ts, d+" ") || d < "2013-07-02" || d > "2013-07-31" {
			t.Fatalf("EventDate %s, EventTime %s", d, ts)
		}
		// A URL has one URLHash, and a referer that is a URL has its hash.
		for _, pair := range [][2]string{{"URL", "URLHash"}, {"Referer", "RefererHash"}} {
			u, h := rec[col[pair[0]]], rec[col[pair[1]]]
			if old, ok := urlHash[u]; ok && old != h {
				t.Fatalf("%q has hashes %s and %s", u, old, h)
			}
			urlHash[u] = h
		}
	}
	if len(distinct["WatchID"]) != rows {
		t.Errorf("%d distinct WatchIDs in %d rows", len(distinct["WatchID"]), rows)
	}
	share := func(n int) float64 { return float64(n) / rows }
	for _, c := range []struct {
		what     string
		got      float64
		low, top float64
	}{
		{"distinct UserID a row", share(len(distinct["UserID"])), 0.16, 0.19},
		{"distinct SearchPhrase a row", share(len(distinct["SearchPhrase"])), 0.05, 0.075},
		{"distinct URL a row", share(len(distinct["URL"])), 0.15, 0.35},
		{"rows with a SearchPhrase", share(search), 0.11, 0.15},
		{"rows with AdvEngineID <> 0", share(adv), 0.005, 0.008},
		{"rows with google in the URL", share(google), 0.00002, 0.002},
		{"rows with a MobilePhoneModel", share(mobile), 0.05, 0.09},
		{"rows of CounterID 62", share(counter62), 0.004, 0.008},
		{"avg(ResolutionWidth)", float64(width) / rows, 1400, 1600},
	} {
		if c.got < c.low || c.got > c.top {
			t.Errorf("%s: %.4f, want %.4f to %.4f", c.what, c.got, c.low, c.top)
		}
	}
	if plantedURL == 0 || plantedRef == 0 || plantedUser == 0 {
		t.Errorf("planted values: URLHash %d rows, RefererHash %d, UserID %d", plantedURL, plantedRef, plantedUser)
	}
	if n := distinct["CounterID"]["3922"]; share(n) < 0.045 || share(n) > 0.065 {
		t.Errorf("CounterID 3922 in %d rows", n)
	}
	for i, c := range hits.Columns {
		if c.Type == "TEXT" && st.MaxLen[i] > 256 {
			t.Errorf("%s: a value of %d bytes", c.Name, st.MaxLen[i])
		}
	}
}

func BenchmarkAppendRows(b *testing.B) {
	g, err := hits.New(hits.Options{Rows: 10_000_000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var st hits.Stats
	buf := g.AppendRows(nil, 0, 1000, &st)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = g.AppendRows(buf[:0], int64(i)*1000, int64(i+1)*1000, &st)
	}
}
