package query

import "github.com/gpusql/gpusql/engine"

// catalogFunc binds a catalog function (format_type, pg_get_userbyid,
// pg_table_is_visible, current_setting, ...) over bound arguments. name is
// lower case without a pg_catalog qualifier. ok is false when name is not
// a catalog function.
func (b *binder) catalogFunc(name string, args []engine.Expr) (e engine.Expr, ok bool, err error) {
	return nil, false, nil
}
