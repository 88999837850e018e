// Package loader is gpusql's CPU CSV reader. It turns CSV bytes into the
// fixed-width column arrays of engine.Column, following the stages of the
// GPU reader so the two stay twins:
//
//  1. count: the batch is cut into chunks; each chunk counts its record
//     delimiters, field delimiters and quotes, for every quote state it
//     might start in (count.go);
//  2. scan: exclusive prefix sums over the chunks give each chunk its
//     starting quote state, record number and field number (scan.go);
//  3. index: each chunk, knowing its quote state, writes the positions of
//     its field and record ends into one field index (index.go);
//  4. validate: rows are checked for column count, encoding, quoting,
//     string limits and NOT NULL, and string widths are measured
//     (validate.go);
//  5. compact: rejected rows are listed and the output position of every
//     good row is fixed (validate.go);
//  6. deserialise: fields are converted column by column into the typed
//     arrays (deserialise.go).
//
// Large inputs stream through in batches; the incomplete last record of a
// batch (its orphan) becomes the start of the next (load.go).
package loader

import "runtime"

// Config tunes the CPU loader. Zero fields take defaults. Results never
// depend on these settings.
type Config struct {
	// Workers is the number of goroutines per stage (default
	// runtime.NumCPU()).
	Workers int
	// ChunkSize is the number of bytes each chunk of a batch covers in the
	// counting and indexing stages (default 1 MiB).
	ChunkSize int
	// BatchSize is the number of bytes read per streaming batch (default
	// 64 MiB). A record longer than a batch grows the batch.
	BatchSize int
}

const (
	defaultChunkSize = 1 << 20
	defaultBatchSize = 64 << 20
	// maxBatch bounds a batch (and so a record): positions in the field
	// index have 30 bits.
	maxBatch = 1 << 30
	// rowBlock is how many records one task of stages 4 to 6 covers.
	rowBlock = 4096
	// maxSkipped caps LoadResult.Skipped; SkippedCount counts them all.
	maxSkipped = 100000
	// rawPrefix is how much of a rejected row's text is kept.
	rawPrefix = 200
	// displayLimit is PostgreSQL's limit on values shown in error context.
	displayLimit = 100
)

func (c Config) withDefaults() Config {
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.ChunkSize <= 0 {
		c.ChunkSize = defaultChunkSize
	}
	if c.BatchSize <= 0 {
		c.BatchSize = defaultBatchSize
	}
	if c.BatchSize > maxBatch/2 {
		c.BatchSize = maxBatch / 2
	}
	return c
}

// CPU is the CPU implementation of engine.Loader.
type CPU struct {
	cfg Config
}

// NewCPU returns a CPU loader with the given configuration.
func NewCPU(opts Config) *CPU { return &CPU{cfg: opts.withDefaults()} }
