package main

import (
	"log/slog"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/engine"
)

// newEngine builds the query engine for o with gpusql.NewEngine, the one
// place that knows how the backend (for --device) and the query package
// are constructed; programs that embed gpusql build theirs there too.
func newEngine(o *options, logger *slog.Logger) (eng engine.Server, backendName string, err error) {
	return gpusql.NewEngine(gpusql.Options{
		FileRoot:      o.fileRoot,
		DataDir:       o.dataDir,
		Device:        o.device,
		Devices:       o.devices,
		Partitions:    o.partitions,
		MinSplitBytes: o.splitMinBytes,
		MaxTextWidth:  o.maxTextWidth,
		Logger:        logger,

		ClientCheckInterval: o.checkEvery,
	})
}
