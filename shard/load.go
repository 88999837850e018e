package shard

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgconn"
)

// NodeStats is what one node was sent.
type NodeStats struct {
	Node        Node
	Rows, Bytes int64
}

// Progress is read while a load runs (its counters are atomic).
type Progress struct {
	rows, bytes []atomic.Int64
	read        atomic.Int64
}

// Read is how many bytes of the file have been split.
func (p *Progress) Read() int64 { return p.read.Load() }

// Node is node i's rows and bytes so far.
func (p *Progress) Node(i int) (rows, bytes int64) { return p.rows[i].Load(), p.bytes[i].Load() }

// NewProgress makes the counters for s.
func NewProgress(s *Spec) *Progress {
	return &Progress{rows: make([]atomic.Int64, len(s.Nodes)), bytes: make([]atomic.Int64, len(s.Nodes))}
}

// connString is the libpq connection string of node n; the rest
// (password, TLS) comes from the PG* environment variables.
func (s *Spec) connString(n Node) string {
	cs := fmt.Sprintf("host=%s port=%s", quoteConnValue(n.Host), n.Port)
	if s.User != "" {
		cs += " user=" + quoteConnValue(s.User)
	}
	if s.Database != "" {
		cs += " dbname=" + quoteConnValue(s.Database)
	}
	return cs
}

func quoteConnValue(v string) string {
	out := []byte{'\''}
	for i := 0; i < len(v); i++ {
		if v[i] == '\'' || v[i] == '\\' {
			out = append(out, '\\')
		}
		out = append(out, v[i])
	}
	return string(append(out, '\''))
}

// copySQL is the COPY statement each node runs.
func (s *Spec) copySQL() string {
	return fmt.Sprintf("COPY %s FROM STDIN WITH (FORMAT csv, DELIMITER %s, QUOTE %s)",
		s.Table, quoteLiteral(string(s.Delimiter)), quoteLiteral(string(s.Quote)))
}

// Load creates the table on every node (dropping it first with
// Replace; not at all with Append), splits the CSV of r by the key and streams each node's rows
// to it with COPY FROM STDIN, all nodes at once. p (may be nil) counts
// as it goes. On an error every node's COPY fails, so no node keeps a
// part of the file.
func Load(ctx context.Context, s *Spec, r io.Reader, p *Progress) ([]NodeStats, error) {
	if p == nil {
		p = NewProgress(s)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	conns := make([]*pgconn.PgConn, len(s.Nodes))
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close(context.Background())
			}
		}
	}()
	for i, n := range s.Nodes {
		c, err := pgconn.Connect(ctx, s.connString(n))
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", n, err)
		}
		conns[i] = c
		ddl := "CREATE TABLE " + s.Table + " (" + s.ColumnDDL + ")"
		switch {
		case s.Replace:
			ddl = "DROP TABLE IF EXISTS " + s.Table + "; " + ddl
		case s.Append:
			continue
		}
		if _, err := c.Exec(ctx, ddl).ReadAll(); err != nil {
			return nil, fmt.Errorf("node %s: %w", n, err)
		}
	}

	// One pipe per node: the splitter writes each node's records to its
	// buffered writer, and a goroutine per node copies them in.
	pipes := make([]*io.PipeWriter, len(s.Nodes))
	outs := make([]*bufio.Writer, len(s.Nodes))
	var wg sync.WaitGroup
	copyErrs := make([]error, len(s.Nodes))
	for i := range s.Nodes {
		pr, pw := io.Pipe()
		pipes[i], outs[i] = pw, bufio.NewWriterSize(pw, 1<<20)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := conns[i].CopyFrom(ctx, pr, s.copySQL())
			if err != nil {
				err = fmt.Errorf("node %s: %w", s.Nodes[i], err)
				cancel(err)
			}
			// unblock the splitter if this node stopped reading
			pr.CloseWithError(errNodeFailed)
			copyErrs[i] = err
		}()
	}
	splitErr := split(ctx, s, r, outs, p)
	for i, pw := range pipes {
		if splitErr == nil {
			if err := outs[i].Flush(); err != nil && splitErr == nil {
				splitErr = err
			}
			pw.Close()
		} else {
			// the COPY sees a failed read and fails: nothing is kept
			pw.CloseWithError(splitErr)
		}
	}
	wg.Wait()
	if err := errors.Join(copyErrs...); err != nil {
		return nil, err
	}
	if splitErr != nil {
		return nil, splitErr
	}
	stats := make([]NodeStats, len(s.Nodes))
	for i, n := range s.Nodes {
		rows, bytes := p.Node(i)
		stats[i] = NodeStats{Node: n, Rows: rows, Bytes: bytes}
	}
	return stats, nil
}

var errNodeFailed = errors.New("the node's COPY stopped")

// split reads r's records and writes each to its node's writer.
func split(ctx context.Context, s *Spec, r io.Reader, outs []*bufio.Writer, p *Progress) error {
	cr := newCSVReader(r, s.Delimiter, s.Quote)
	first := true
	for n := 0; ; n++ {
		rec, err := cr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		p.read.Add(int64(len(rec)))
		if first && s.Header {
			first = false
			continue
		}
		first = false
		if n&1023 == 0 && ctx.Err() != nil {
			return context.Cause(ctx)
		}
		raw, null, err := cr.fieldOf(rec, s.Key.Index)
		if err != nil {
			return err
		}
		v, err := s.Key.parse(raw, null)
		if err != nil {
			return fmt.Errorf("line %d: %v", cr.line, err)
		}
		i, err := s.route(v)
		if err != nil {
			return fmt.Errorf("line %d: %v", cr.line, err)
		}
		if _, err := outs[i].Write(rec); err != nil {
			if errors.Is(err, errNodeFailed) {
				return context.Cause(ctx)
			}
			return err
		}
		p.rows[i].Add(1)
		p.bytes[i].Add(int64(len(rec)))
	}
}
