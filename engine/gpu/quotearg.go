package gpu

import "github.com/gpusql/gpusql/engine"

// castTextArg compiles e and returns the text that quote_literal and
// quote_nullable quote: PostgreSQL's quote_literal(anyelement) quotes
// $1::text, which is the output form (textForm) for every type but
// boolean, whose cast says true and false where the output says t and f
// (query's castText).
func (c *compiler) castTextArg(e engine.Expr, mask int32) (val, error) {
	if e.Type().Kind != engine.KindBool {
		return c.textArg(e, mask)
	}
	a, err := c.compile(e, mask)
	if err != nil {
		return val{}, err
	}
	return c.castToString(a, engine.Text, mask)
}
