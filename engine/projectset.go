package engine

import (
	"fmt"
	"strings"
)

// ProjectSet runs set-returning functions (generate_series, unnest,
// regexp_matches, ... in a select list or in FROM) over its input, as
// PostgreSQL 15's ProjectSet node does: each input row gives as many
// output rows as the longest of the functions' results for it (none
// when every result is empty), the functions' values side by side (a
// shorter result padded with NULLs) and the passed input columns
// repeated. Its output is the Pass columns of the input, in that order,
// then one column per function.
//
// A function's arguments are column references into the input or
// constants: the binder computes anything else in a pipeline below. The
// functions run on the host, on every backend: a device backend brings
// the input to the host for the node (no kernel expands rows).
type ProjectSet struct {
	Input Rel
	Pass  []int
	Funcs []SetFunc
	// Names name the functions' output columns.
	Names []string
}

// SetFunc is one set-returning function call.
type SetFunc struct {
	Name string
	Args []Expr
	T    Type
	// Fn expands n rows of arguments: the values of every row's result
	// back to back in one vector, and how many each row gave. It must not
	// keep args.
	Fn func(args []*Vec, n int) (*Vec, []int32, error)
}

func (f SetFunc) String() string {
	a := make([]string, len(f.Args))
	for i, x := range f.Args {
		a[i] = x.String()
	}
	return fmt.Sprintf("%s(%s)", f.Name, strings.Join(a, ", "))
}

// Columns are the passed input columns, then the functions' columns.
func (p *ProjectSet) Columns() []ColumnDef {
	in := p.Input.Columns()
	out := make([]ColumnDef, 0, len(p.Pass)+len(p.Funcs))
	for _, c := range p.Pass {
		out = append(out, in[c])
	}
	for k, f := range p.Funcs {
		out = append(out, ColumnDef{Name: p.Names[k], Type: f.T})
	}
	return out
}

func (p *ProjectSet) Inputs() []Rel { return []Rel{p.Input} }

func (p *ProjectSet) Head() string {
	f := make([]string, len(p.Funcs))
	for i, x := range p.Funcs {
		f[i] = x.String()
	}
	return fmt.Sprintf("Project Set [%s]", strings.Join(f, ", "))
}

// ZipSets lays out the rows of a ProjectSet for n input rows from each
// function's per-row counts: rows[j] is the input row of output row j,
// and at[k][j] the index of function k's value for it in the function's
// result vector (-1: padding, a NULL).
func ZipSets(counts [][]int32, n int) (rows []int32, at [][]int32) {
	at = make([][]int32, len(counts))
	next := make([]int32, len(counts)) // each function's first value of row i
	for i := 0; i < n; i++ {
		m := int32(0)
		for _, c := range counts {
			m = max(m, c[i])
		}
		for j := int32(0); j < m; j++ {
			rows = append(rows, int32(i))
			for k, c := range counts {
				x := int32(-1)
				if j < c[i] {
					x = next[k] + j
				}
				at[k] = append(at[k], x)
			}
		}
		for k, c := range counts {
			next[k] += c[i]
		}
	}
	return rows, at
}
