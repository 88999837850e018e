// Package shard spreads one CSV file over several gpusql nodes for a
// PostgreSQL coordinator that reads them through postgres_fdw: it
// splits the rows by a key column as PostgreSQL's hash or range
// partitioning routes them, loads each node's part over the wire with
// COPY FROM STDIN (all nodes at once), and writes the coordinator's DDL:
// a partitioned table whose partitions are foreign tables on the nodes.
// docs/scale-out.md explains the result.
package shard

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// Node is one gpusql server.
type Node struct{ Host, Port string }

func (n Node) String() string { return net.JoinHostPort(n.Host, n.Port) }

// Spec is a checked shard job.
type Spec struct {
	Table     string
	ColumnDDL string // the column definitions as given
	Columns   []engine.ColumnDef
	Key       Key
	Nodes     []Node
	// Bounds are the range partitions' split points, in the key's type,
	// ascending: node i holds keys from Bounds[i-1] (inclusive) to
	// Bounds[i] (exclusive). Nil: hash partitioning.
	Bounds    []string
	bounds    []value
	Header    bool // the file's first line names the columns: skipped
	Delimiter byte
	Quote     byte
	Replace   bool   // drop the table on each node first
	Append    bool   // the table exists on each node: only COPY
	User      string // role on the nodes; "" as libpq defaults it
	Database  string
}

// Config is a shard job as given, before NewSpec checks it.
type Config struct {
	Table, Columns, Key string
	Nodes               []string // host:port
	Range               []string // split points; nil: hash
	Header              bool
	Delimiter, Quote    string // one byte each; "": ',' and '"'
	Replace, Append     bool
	User, Database      string
}

// NewSpec checks c.
func NewSpec(c Config) (*Spec, error) {
	if !plainName(c.Table) {
		return nil, fmt.Errorf("table name %q: want a lower-case name of letters, digits and _", c.Table)
	}
	stmts, err := parse.Parse("CREATE TABLE " + c.Table + " (" + c.Columns + ")")
	if err != nil {
		return nil, fmt.Errorf("column definitions %q: %v", c.Columns, err)
	}
	ct, ok := stmts[0].(*parse.CreateTable)
	if len(stmts) != 1 || !ok || ct.CSV != nil {
		return nil, fmt.Errorf("column definitions %q: want name type [NOT NULL], ...", c.Columns)
	}
	s := &Spec{Table: c.Table, ColumnDDL: c.Columns, Columns: ct.Columns, Header: c.Header,
		Replace: c.Replace, Append: c.Append, User: c.User, Database: c.Database, Delimiter: ',', Quote: '"'}
	if c.Replace && c.Append {
		return nil, fmt.Errorf("replace and append exclude each other")
	}
	if s.Key, err = newKey(s.Columns, c.Key); err != nil {
		return nil, err
	}
	if len(c.Nodes) == 0 {
		return nil, fmt.Errorf("no nodes: want host:port,...")
	}
	seen := map[string]bool{}
	for _, a := range c.Nodes {
		h, p, err := net.SplitHostPort(strings.TrimSpace(a))
		if err != nil || h == "" {
			return nil, fmt.Errorf("node %q: want host:port", a)
		}
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("node %q: bad port", a)
		}
		n := Node{h, p}
		if seen[n.String()] {
			return nil, fmt.Errorf("node %s is named twice", n)
		}
		seen[n.String()] = true
		s.Nodes = append(s.Nodes, n)
	}
	for _, d := range []struct {
		name, v string
		dst     *byte
	}{{"delimiter", c.Delimiter, &s.Delimiter}, {"quote", c.Quote, &s.Quote}} {
		switch {
		case d.v == "":
		case len(d.v) == 1 && d.v[0] != '\n' && d.v[0] != '\r':
			*d.dst = d.v[0]
		default:
			return nil, fmt.Errorf("%s %q: want one single-byte character", d.name, d.v)
		}
	}
	if s.Delimiter == s.Quote {
		return nil, fmt.Errorf("the delimiter and the quote must differ")
	}
	if c.Range != nil {
		if len(c.Range) != len(s.Nodes)-1 {
			return nil, fmt.Errorf("%d nodes need %d range split points, got %d", len(s.Nodes), len(s.Nodes)-1, len(c.Range))
		}
		for i, b := range c.Range {
			v, err := s.Key.parse([]byte(b), false)
			if err != nil {
				return nil, fmt.Errorf("range split point: %v", err)
			}
			if i > 0 && !s.Key.less(s.bounds[i-1], v) {
				return nil, fmt.Errorf("range split points must ascend: %q then %q", c.Range[i-1], b)
			}
			s.bounds = append(s.bounds, v)
		}
		s.Bounds = c.Range
	}
	return s, nil
}

// plainName is a name that needs no quoting in SQL.
func plainName(s string) bool {
	if s == "" || len(s) > 63 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// route is the node (partition) of a key.
func (s *Spec) route(v value) (int, error) {
	if s.bounds == nil {
		return int(s.Key.hash(v) % uint64(len(s.Nodes))), nil
	}
	if v.null {
		return 0, errNullRange
	}
	for i, b := range s.bounds {
		if s.Key.less(v, b) {
			return i, nil
		}
	}
	return len(s.bounds), nil
}
