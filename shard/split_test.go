package shard

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

// TestCSVRecords reads records whose quoted fields hold delimiters,
// doubled quotes and line breaks, and finds each one's key field.
func TestCSVRecords(t *testing.T) {
	in := "1,\"a,b\",x\n" +
		"2,\"say \"\"hi\"\"\nnext line\",y\r\n" +
		"3,,z\n" +
		",\"\",w\n" +
		"\"4\",q,\"\"" // no final line break
	type rec struct {
		text, key1 string
		null1      bool
		key0       string
	}
	want := []rec{
		{"1,\"a,b\",x\n", "a,b", false, "1"},
		{"2,\"say \"\"hi\"\"\nnext line\",y\r\n", "say \"hi\"\nnext line", false, "2"},
		{"3,,z\n", "", true, "3"},
		{",\"\",w\n", "", false, ""},
		{"\"4\",q,\"\"\n", "q", false, "4"},
	}
	c := newCSVReader(strings.NewReader(in), ',', '"')
	for i, w := range want {
		r, err := c.next()
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if string(r) != w.text {
			t.Errorf("record %d: %q, want %q", i, r, w.text)
		}
		f, null, err := c.fieldOf(r, 1)
		if err != nil || string(f) != w.key1 || null != w.null1 {
			t.Errorf("record %d field 1: %q null=%v err=%v, want %q null=%v", i, f, null, err, w.key1, w.null1)
		}
		f, _, err = c.fieldOf(r, 0)
		if err != nil || string(f) != w.key0 {
			t.Errorf("record %d field 0: %q %v, want %q", i, f, err, w.key0)
		}
		if _, _, err := c.fieldOf(r, 3); err == nil {
			t.Errorf("record %d has no field 3, but it was found", i)
		}
	}
	if _, err := c.next(); err != io.EOF {
		t.Errorf("after the last record: %v, want EOF", err)
	}
	c = newCSVReader(strings.NewReader("1,\"open\n"), ',', '"')
	if _, err := c.next(); err == nil || errors.Is(err, io.EOF) {
		t.Errorf("unterminated quote: %v", err)
	}
}

// TestSplitRoutes splits a file by range and by hash and checks that
// every record goes to exactly the node route names, in file order.
func TestSplitRoutes(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,name\n")
	for i := -50; i < 250; i++ {
		b.WriteString(strconv.Itoa(i) + ",\"n" + strconv.Itoa(i) + ",x\"\n")
	}
	for _, rng := range [][]string{nil, {"0", "100"}} {
		s, err := NewSpec(Config{Table: "t", Columns: "id integer, name text", Key: "id", Nodes: []string{"a:1", "b:1", "c:1"}, Range: rng, Header: true})
		if err != nil {
			t.Fatal(err)
		}
		var bufs [3]strings.Builder
		outs := make([]*bufio.Writer, 3)
		for i := range outs {
			outs[i] = bufio.NewWriter(&bufs[i])
		}
		p := NewProgress(s)
		if err := split(t.Context(), s, strings.NewReader(b.String()), outs, p); err != nil {
			t.Fatal(err)
		}
		total := 0
		for i := range outs {
			outs[i].Flush()
			lines := strings.Split(strings.TrimSuffix(bufs[i].String(), "\n"), "\n")
			rows, _ := p.Node(i)
			if int64(len(lines)) != rows || rows == 0 {
				t.Errorf("range %v node %d: %d lines, progress says %d", rng, i, len(lines), rows)
			}
			for _, l := range lines {
				id, _, _ := strings.Cut(l, ",")
				v, _ := s.Key.parse([]byte(id), false)
				if n, _ := s.route(v); n != i {
					t.Errorf("range %v: %q on node %d, routes to %d", rng, l, i, n)
				}
				if rng != nil && (i == 0) != (v.i < 0) {
					t.Errorf("range %v: %q on node %d", rng, l, i)
				}
			}
			total += len(lines)
		}
		if total != 300 {
			t.Errorf("range %v: %d records split, want 300", rng, total)
		}
	}
	s, _ := NewSpec(Config{Table: "t", Columns: "id integer", Key: "id", Nodes: []string{"a:1", "b:1"}, Range: []string{"5"}})
	outs := []*bufio.Writer{bufio.NewWriter(io.Discard), bufio.NewWriter(io.Discard)}
	if err := split(t.Context(), s, strings.NewReader("1\n\n"), outs, NewProgress(s)); err == nil {
		t.Errorf("a NULL key was put in a range partition")
	}
	if err := split(t.Context(), s, strings.NewReader("1\nx\n"), outs, NewProgress(s)); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a bad key: %v, want an error naming line 2", err)
	}
}
