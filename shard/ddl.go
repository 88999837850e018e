package shard

import (
	"fmt"
	"io"
	"strings"
)

// Coordinator settings the DDL uses. A foreign scan's startup cost is a
// round trip and a query start on a node, far below PostgreSQL's
// default of 100 on a LAN; a row fetched costs the node's encoding, the
// network and the coordinator's decoding, much more than a row the
// node aggregates, so a high tuple cost makes the planner send
// aggregates and filters to the nodes rather than rows to itself.
// use_remote_estimate asks each node for its row estimates (gpusql's
// EXPLAIN gives them as PostgreSQL does): without them postgres_fdw
// prices a join on a node as a cross product and never sends it there.
const (
	FDWStartupCost = "10"
	FDWTupleCost   = "0.1"
	FetchSize      = "10000"
)

// ServerName is the foreign server of node n on the coordinator.
func ServerName(n Node) string {
	r := strings.NewReplacer(".", "_", ":", "_", "-", "_", "[", "", "]", "")
	return "gpusql_" + strings.ToLower(r.Replace(n.Host)) + "_" + n.Port
}

// PartitionName is the foreign table of node i.
func (s *Spec) PartitionName(i int) string { return fmt.Sprintf("%s_p%d", s.Table, i) }

// WriteDDL writes the coordinator's SQL for s: the extension, one
// foreign server and user mapping per node (IF NOT EXISTS, so that
// tables sharded over the same nodes share them), the partitioned table
// and its foreign-table partitions, and the planner settings
// partition-wise plans need.
func WriteDDL(w io.Writer, s *Spec) error {
	var b strings.Builder
	b.WriteString("-- PostgreSQL coordinator for " + s.Table + " on " + fmt.Sprint(len(s.Nodes)) + " gpusql nodes (docs/scale-out.md)\n")
	b.WriteString("CREATE EXTENSION IF NOT EXISTS postgres_fdw;\n")
	for _, n := range s.Nodes {
		opts := []string{"host " + quoteLiteral(n.Host), "port " + quoteLiteral(n.Port)}
		if s.Database != "" {
			opts = append(opts, "dbname "+quoteLiteral(s.Database))
		}
		opts = append(opts, "async_capable 'true'", "use_remote_estimate 'true'", "fdw_startup_cost '"+FDWStartupCost+"'",
			"fdw_tuple_cost '"+FDWTupleCost+"'", "fetch_size '"+FetchSize+"'")
		fmt.Fprintf(&b, "CREATE SERVER IF NOT EXISTS %s FOREIGN DATA WRAPPER postgres_fdw\n  OPTIONS (%s);\n",
			ServerName(n), strings.Join(opts, ", "))
		um := ""
		if s.User != "" {
			um = " OPTIONS (user " + quoteLiteral(s.User) + ")"
		}
		fmt.Fprintf(&b, "CREATE USER MAPPING IF NOT EXISTS FOR CURRENT_USER SERVER %s%s;\n", ServerName(n), um)
	}
	method := "HASH"
	if s.bounds != nil {
		method = "RANGE"
	}
	fmt.Fprintf(&b, "CREATE TABLE %s (%s) PARTITION BY %s (%s);\n", s.Table, s.ColumnDDL, method, s.Key.Name)
	for i, n := range s.Nodes {
		var bound string
		if s.bounds == nil {
			bound = fmt.Sprintf("WITH (MODULUS %d, REMAINDER %d)", len(s.Nodes), i)
		} else {
			from, to := "MINVALUE", "MAXVALUE"
			if i > 0 {
				from = quoteLiteral(s.Bounds[i-1])
			}
			if i < len(s.Bounds) {
				to = quoteLiteral(s.Bounds[i])
			}
			bound = fmt.Sprintf("FROM (%s) TO (%s)", from, to)
		}
		fmt.Fprintf(&b, "CREATE FOREIGN TABLE %s PARTITION OF %s FOR VALUES %s\n  SERVER %s OPTIONS (schema_name 'public', table_name %s);\n",
			s.PartitionName(i), s.Table, bound, ServerName(n), quoteLiteral(s.Table))
	}
	b.WriteString("-- Per session, or for every session with ALTER DATABASE ... SET / postgresql.conf:\n")
	for _, set := range Settings {
		b.WriteString(set + ";\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Settings are the coordinator's planner settings for partition-wise
// plans over the nodes.
var Settings = []string{
	"SET enable_partitionwise_aggregate = on",
	"SET enable_partitionwise_join = on",
	"SET enable_async_append = on",
}

// quoteLiteral quotes v as an SQL string literal.
func quoteLiteral(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" }
