package query

import "github.com/gpusql/gpusql/engine"

// formatFunc binds to_char, to_date, to_timestamp and to_number.
func (b *binder) formatFunc(name string, args []engine.Expr) (engine.Expr, error) {
	return nil, unsupported("%s is not supported yet", name)
}
