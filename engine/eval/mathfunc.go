package eval

import (
	"context"

	"github.com/gpusql/gpusql/engine"
)

func evalMath(ctx context.Context, e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	return nil, engine.Errorf(engine.CodeInternalError, "eval: unsupported operator %s", e.Op)
}
