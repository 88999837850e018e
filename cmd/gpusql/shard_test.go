package main

// The shard command's routing against PostgreSQL 15's own: a local
// hash-partitioned table per key type receives values that exercise every
// tail length of the string hash, signs, 32-bit overflow and NULL, and
// each row's partition (tableoid) must be the one shard computes. Also
// the command line's checks.

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/shard"
)

func TestShardHashMatchesPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL")
	}
	binDir := requirePG(t)
	pg := startPG(t, binDir)
	ctx := context.Background()
	c, err := pg.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)

	var strs []string
	for n := 0; n <= 40; n++ {
		strs = append(strs, strings.Repeat("ab", n)[:n])
		strs = append(strs, fmt.Sprintf("k%dé", n*7919))
	}
	var ints []string
	for _, v := range []int64{0, 1, -1, 2, 42, -42, 32767, -32768, 1 << 31, -(1 << 31) - 1, 1<<31 - 1, 1 << 40, -(1 << 40), 1<<63 - 1, -1 << 63} {
		ints = append(ints, strconv.FormatInt(v, 10))
	}
	for i := 0; i < 100; i++ {
		ints = append(ints, strconv.Itoa(i*104729%1000003-500000))
	}
	cases := []struct {
		typ  string
		vals []string
	}{
		{"bigint", ints},
		{"integer", []string{"0", "1", "-1", "42", "-42", "2147483647", "-2147483648", "123456789", "-99999"}},
		{"smallint", []string{"0", "1", "-1", "300", "-32768", "32767", "7", "99"}},
		{"date", []string{"2000-01-01", "1999-12-31", "1970-01-01", "1992-02-29", "2024-12-31", "1900-03-01", "2100-01-01"}},
		{"timestamp", []string{"2000-01-01 00:00:00", "1970-01-01 00:00:01", "2024-05-06 07:08:09.123456", "1901-01-01 12:00:00"}},
		{"text", strs},
		{"varchar(60)", strs},
		{"char(8)", []string{"", "a", "a  ", "abc", "abcdefgh", "x y", " lead"}},
	}
	const modulus = 3
	for ci, tc := range cases {
		t.Run(strings.Fields(strings.ReplaceAll(tc.typ, "(", " "))[0], func(t *testing.T) {
			tbl := fmt.Sprintf("h%d", ci)
			sql := fmt.Sprintf("CREATE TABLE %s (k %s) PARTITION BY HASH (k);", tbl, tc.typ)
			for r := 0; r < modulus; r++ {
				sql += fmt.Sprintf("CREATE TABLE %s_%d PARTITION OF %s FOR VALUES WITH (MODULUS %d, REMAINDER %d);", tbl, r, tbl, modulus, r)
			}
			var vals []string
			for _, v := range tc.vals {
				vals = append(vals, "("+quoteLiteral(v)+")")
			}
			sql += fmt.Sprintf("INSERT INTO %s VALUES %s, (NULL)", tbl, strings.Join(vals, ", "))
			if _, err := c.Exec(ctx, sql).ReadAll(); err != nil {
				t.Fatalf("%s: %s", sql, pgErrText(err))
			}
			spec, err := shard.NewSpec(shard.Config{Table: "t", Columns: "k " + tc.typ, Key: "k", Nodes: []string{"a:1", "b:1", "c:1"}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Exec(ctx, fmt.Sprintf("SELECT k::text, tableoid::regclass::text FROM %s", tbl)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, row := range res[0].Rows {
				want, _ := strconv.Atoi(strings.TrimPrefix(string(row[1]), tbl+"_"))
				got, err := spec.Key.HashPartition(row[0], row[0] == nil, modulus)
				if err != nil {
					t.Fatalf("%q: %v", row[0], err)
				}
				if got != want {
					t.Errorf("%s %q: shard puts it in partition %d, PostgreSQL in %d", tc.typ, row[0], got, want)
				}
				n++
			}
			if n != len(tc.vals)+1 {
				t.Fatalf("%d rows, want %d", n, len(tc.vals)+1)
			}
		})
	}
}

func TestShardFlags(t *testing.T) {
	base := []string{"--by", "id", "--nodes", "h1:5433,h2:5433", "--table", "t", "--columns", "id bigint NOT NULL, name text"}
	o, err := parseShardFlags(append(base, "f.csv"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.file != "f.csv" || len(o.spec.Nodes) != 2 || o.spec.Key.Index != 0 || o.spec.Bounds != nil {
		t.Errorf("parsed %+v", o)
	}
	var ddl strings.Builder
	if err := shard.WriteDDL(&ddl, o.spec); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PARTITION BY HASH (id)", "FOR VALUES WITH (MODULUS 2, REMAINDER 1)", "SERVER gpusql_h2_5433",
		"async_capable 'true'", "use_remote_estimate 'true'", "SET enable_partitionwise_aggregate = on"} {
		if !strings.Contains(ddl.String(), want) {
			t.Errorf("DDL lacks %q:\n%s", want, ddl.String())
		}
	}
	o, err = parseShardFlags(append(base, "--range", "1000", "f.csv"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ddl.Reset()
	shard.WriteDDL(&ddl, o.spec)
	for _, want := range []string{"PARTITION BY RANGE (id)", "FROM (MINVALUE) TO ('1000')", "FROM ('1000') TO (MAXVALUE)"} {
		if !strings.Contains(ddl.String(), want) {
			t.Errorf("DDL lacks %q:\n%s", want, ddl.String())
		}
	}
	for _, bad := range [][]string{
		base, // no file
		append(append([]string{}, base...), "--range", "1,2", "f.csv"),                  // 2 nodes need 1 split point
		append(append([]string{}, base...), "--range", "x", "f.csv"),                    // not a bigint
		append(append([]string{}, base...), "--hash", "--range", "1", "f.csv"),          // both
		{"--by", "name2", "--nodes", "h:1", "--table", "t", "--columns", "id int", "f"}, // no such column
		{"--by", "x", "--nodes", "h:1", "--table", "t", "--columns", "x numeric", "f"},  // key type
		{"--by", "x", "--nodes", "h:1,h:1", "--table", "t", "--columns", "x int", "f"},  // node twice
		{"--by", "x", "--nodes", "h", "--table", "t", "--columns", "x int", "f"},        // no port
		{"--by", "x", "--nodes", "h:1", "--table", "T-1", "--columns", "x int", "f"},    // table name
		{"--by", "x", "--nodes", "h:1", "--table", "t", "--columns", "x int,", "f"},     // DDL
	} {
		if _, err := parseShardFlags(bad, io.Discard); err == nil {
			t.Errorf("%q: accepted", bad)
		} else if _, ok := err.(*usageError); !ok {
			t.Errorf("%q: %v is not a usage error", bad, err)
		}
	}
}
