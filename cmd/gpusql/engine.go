package main

import (
	"log/slog"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// newEngine builds the query engine for o. It is the one place that knows
// how the backend and the query package are constructed; the differential
// test (diff_gpusql_test.go) mirrors it.
func newEngine(o *options, logger *slog.Logger) (eng engine.Server, backendName string, err error) {
	backend, err := newBackend(o.device, logger)
	if err != nil {
		return nil, "", err
	}
	srv, err := query.NewServer(query.Options{
		FileRoot:     o.fileRoot,
		DataDir:      o.dataDir,
		MaxTextWidth: o.maxTextWidth,
		Backend:      backend,
		Logger:       logger,
	})
	if err != nil {
		return nil, "", err
	}
	return srv, backend.Name(), nil
}

// newBackend picks the backend for --device. parseFlags has already
// refused cuda: no CUDA backend exists in this build.
func newBackend(device string, logger *slog.Logger) (engine.Backend, error) {
	b := cpu.New(loader.NewCPU(loader.Config{}), 0)
	switch device {
	case "auto":
		logger.Info("device: cpu (auto: no usable GPU backend in this build)", "backend", b.Name())
	default:
		logger.Info("device: cpu", "backend", b.Name())
	}
	return b, nil
}
