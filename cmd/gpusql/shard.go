package main

// gpusql shard: split a CSV file by a key over several gpusql nodes and
// print the PostgreSQL coordinator's DDL (package shard does the work;
// docs/scale-out.md explains the setup).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql/shard"
)

// shardOptions is the checked command line of gpusql shard.
type shardOptions struct {
	spec     *shard.Spec
	file     string // "-": standard input
	ddlOnly  bool
	progress time.Duration // 0: no progress lines
}

const shardUsage = `usage: gpusql shard --by COL --nodes host:port,... --table NAME --columns 'DDL'
                    [--range V1,V2,...] [flags] FILE.csv

Splits FILE.csv (- for standard input) by column COL over the gpusql nodes,
as PostgreSQL's hash partitioning (default) or range partitioning with the
given split points routes rows, creates the table on every node, loads
each node's rows over the wire with COPY FROM STDIN (all nodes at once),
and prints the PostgreSQL coordinator's DDL: foreign servers, the
partitioned table and its postgres_fdw partitions (docs/scale-out.md).
`

// parseShardFlags parses and checks the arguments after "shard".
func parseShardFlags(args []string, stderr io.Writer) (*shardOptions, error) {
	fs := flag.NewFlagSet("gpusql shard", flag.ContinueOnError)
	fs.SetOutput(stderr)
	by := fs.String("by", "", "the partition key `column`")
	nodes := fs.String("nodes", "", "the gpusql nodes, `host:port,...`, in partition order")
	table := fs.String("table", "", "the table `name` on the nodes and the coordinator")
	columns := fs.String("columns", "", "the table's column definitions, e.g. 'id bigint NOT NULL, name text'")
	hash := fs.Bool("hash", false, "hash partitioning, as PostgreSQL's PARTITION BY HASH (the default)")
	rng := fs.String("range", "", "range partitioning: `split points` V1,V2,... (one fewer than the nodes); node i holds keys from V(i-1) up to, not including, Vi")
	header := fs.Bool("header", false, "the file's first line is a header: skip it")
	delim := fs.String("delimiter", ",", "the CSV field `separator`")
	quote := fs.String("quote", `"`, "the CSV quote `character`")
	replace := fs.Bool("replace", false, "drop the table on each node first if it exists")
	appendRows := fs.Bool("append", false, "the table exists on every node (an earlier run made it): only add the file's rows")
	user := fs.String("user", "", "`role` to connect to the nodes as, also put in the coordinator's user mappings (default: $PGUSER or the OS user)")
	dbname := fs.String("dbname", "", "`database` name to connect to (gpusql has one; default: $PGDATABASE or the user)")
	ddlOnly := fs.Bool("ddl-only", false, "print the coordinator's DDL and load nothing")
	progress := fs.Duration("progress", 2*time.Second, "how often to print progress on stderr (0: never)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), shardUsage+"\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{err.Error()}
	}
	o := &shardOptions{ddlOnly: *ddlOnly, progress: *progress}
	switch {
	case fs.NArg() == 0 && !o.ddlOnly:
		return nil, usagef("shard: want the CSV file to split (- for standard input)")
	case fs.NArg() > 1 || fs.NArg() == 1 && o.ddlOnly:
		return nil, usagef("shard: unexpected argument %q", fs.Arg(fs.NArg()-1))
	case fs.NArg() == 1:
		o.file = fs.Arg(0)
	}
	for _, f := range []struct{ name, v string }{{"--by", *by}, {"--nodes", *nodes}, {"--table", *table}, {"--columns", *columns}} {
		if strings.TrimSpace(f.v) == "" {
			return nil, usagef("shard: %s is required", f.name)
		}
	}
	if *hash && *rng != "" {
		return nil, usagef("shard: --hash and --range exclude each other")
	}
	if *progress < 0 {
		return nil, usagef("shard: --progress %v must not be negative", *progress)
	}
	c := shard.Config{Table: *table, Columns: *columns, Key: *by, Nodes: strings.Split(*nodes, ","),
		Header: *header, Delimiter: *delim, Quote: *quote, Replace: *replace, Append: *appendRows, User: *user, Database: *dbname}
	if *rng != "" {
		c.Range = strings.Split(*rng, ",")
	}
	spec, err := shard.NewSpec(c)
	if err != nil {
		return nil, usagef("shard: %v", err)
	}
	o.spec = spec
	return o, nil
}

// shardCommand loads the file onto the nodes, then prints the DDL on
// stdout; progress and the per-node sizes go to stderr.
func shardCommand(ctx context.Context, o *shardOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	if o.ddlOnly {
		return shard.WriteDDL(stdout, o.spec)
	}
	in, size := stdin, int64(-1)
	if o.file != "-" {
		f, err := os.Open(o.file)
		if err != nil {
			return err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			size = st.Size()
		}
		in = f
	}
	p := shard.NewProgress(o.spec)
	start := time.Now()
	done := make(chan struct{})
	if o.progress > 0 {
		go func() {
			t := time.NewTicker(o.progress)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					fmt.Fprintf(stderr, "shard: %s\n", progressLine(p.Read(), size, time.Since(start)))
				}
			}
		}()
	}
	stats, err := shard.Load(ctx, o.spec, in, p)
	close(done)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	var rows, bytes int64
	for _, s := range stats {
		fmt.Fprintf(stderr, "shard: %s: %s rows, %s\n", s.Node, humanize.Comma(s.Rows), humanize.IBytes(uint64(s.Bytes)))
		rows += s.Rows
		bytes += s.Bytes
	}
	fmt.Fprintf(stderr, "shard: loaded %s rows (%s) onto %d nodes in %s (%s/s)\n", humanize.Comma(rows),
		humanize.IBytes(uint64(bytes)), len(stats), elapsed.Round(time.Millisecond),
		humanize.IBytes(uint64(float64(bytes)/max(elapsed.Seconds(), 1e-3))))
	return shard.WriteDDL(stdout, o.spec)
}

// progressLine says how far the split is.
func progressLine(read, size int64, elapsed time.Duration) string {
	rate := humanize.IBytes(uint64(float64(read)/max(elapsed.Seconds(), 1e-3))) + "/s"
	if size > 0 {
		return fmt.Sprintf("%s of %s (%.0f%%), %s", humanize.IBytes(uint64(read)), humanize.IBytes(uint64(size)),
			100*float64(read)/float64(size), rate)
	}
	return fmt.Sprintf("%s, %s", humanize.IBytes(uint64(read)), rate)
}

// runShard is main for "gpusql shard ARGS": the exit status.
func runShard(args []string) int {
	o, err := parseShardFlags(args, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(os.Stderr, "gpusql: %s\n", ue.msg)
		return 2
	} else if err != nil {
		fmt.Fprintf(os.Stderr, "gpusql shard: %v\n", err)
		return 1
	}
	if err := shardCommand(context.Background(), o, os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "gpusql shard: %v\n", err)
		return 1
	}
	return 0
}
