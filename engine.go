package gpusql

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// maxTextWidthLimit is PostgreSQL's limit on one field value (1 GB).
const maxTextWidthLimit = 1 << 30

// Options configure an engine: the embedded DB (Open), the database/sql
// driver (NewConnector, or the DSN of sql.Open) and the gpusql command all
// build theirs from these. They are checked once, by NewEngine.
type Options struct {
	// FileRoot is the only directory tree that COPY FROM and
	// CREATE TABLE ... FROM CSV may read; paths in SQL are relative to
	// it. Empty means DataDir. It must exist.
	FileRoot string
	// DataDir is a directory for the engine's files, created if missing.
	// Empty means none (then FileRoot is required).
	DataDir string
	// Device is where queries run: "auto" (the default when empty) picks
	// the GPU when one is usable and the CPU backend otherwise; "cpu"; or
	// "cuda", which fails when no GPU backend is usable: a query never
	// falls back to the other backend silently.
	Device string
	// MaxTextWidth bounds the stored byte width of text values; 0 means
	// the default (engine.DefaultCSVOptions().MaxTextWidth).
	MaxTextWidth int
	// ClientCheckInterval is the default of the sessions'
	// client_connection_check_interval: how often the wire server checks,
	// while a statement runs, that its client is still connected, and
	// cancels the statement of one that has gone. 0 means the default
	// (query.DefaultClientCheckInterval); negative turns the check off.
	ClientCheckInterval time.Duration
	// Logger receives the engine's log; nil discards it.
	Logger *slog.Logger
	// OnNotice, if set, receives the NOTICE and WARNING messages of
	// statements (such as "there is no transaction in progress"). It is
	// called from the goroutine that runs the statement, possibly from
	// many goroutines at once.
	OnNotice func(engine.Notice)

	// Roles are the roles, their passwords and grants (the gpusql
	// command opens them from DataDir); nil keeps an in-memory store
	// holding only the bootstrap superuser.
	Roles *auth.Store
	// StatementTimeout, IdleSessionTimeout and IdleInTxTimeout are the
	// sessions' defaults of statement_timeout, idle_session_timeout and
	// idle_in_transaction_session_timeout; 0 is none.
	StatementTimeout, IdleSessionTimeout, IdleInTxTimeout time.Duration
	// MaxPrepared and MaxCursors bound a session's named prepared
	// statements and cursors; 0 means query.DefaultMaxNamed.
	MaxPrepared, MaxCursors int
	// MaxQueryMemory bounds the host memory one statement may hold in
	// rows it materialises, in bytes (53200 past it); 0 is no limit.
	MaxQueryMemory int64
}

// checked returns o with defaults filled in, directories made absolute with
// symlinks resolved, and every field checked. Errors are *engine.Error
// with SQLSTATE 22023 (invalid_parameter_value).
func (o Options) checked() (Options, error) {
	bad := func(format string, args ...any) (Options, error) {
		return Options{}, engine.Errorf(engine.CodeInvalidParameterValue, "gpusql: "+format, args...)
	}
	switch o.Device {
	case "":
		o.Device = "auto"
	case "auto", "cpu", "cuda":
	default:
		return bad("device %q: want auto, cpu or cuda", o.Device)
	}
	if o.MaxTextWidth == 0 {
		o.MaxTextWidth = engine.DefaultCSVOptions().MaxTextWidth
	}
	if o.MaxTextWidth < 0 || o.MaxTextWidth > maxTextWidthLimit {
		return bad("max text width %d: want 1 to %d bytes", o.MaxTextWidth, maxTextWidthLimit)
	}
	if o.StatementTimeout < 0 || o.IdleSessionTimeout < 0 || o.IdleInTxTimeout < 0 {
		return bad("timeouts must not be negative")
	}
	if o.MaxPrepared < 0 || o.MaxCursors < 0 || o.MaxQueryMemory < 0 {
		return bad("session limits must not be negative")
	}
	if o.DataDir == "" && o.FileRoot == "" {
		return bad("no file root: set FileRoot (or DataDir)")
	}
	var err error
	if o.DataDir != "" {
		if err := os.MkdirAll(o.DataDir, 0o755); err != nil {
			return bad("data dir: %v", err)
		}
		if o.DataDir, err = ResolveDir(o.DataDir); err != nil {
			return bad("data dir: %v", err)
		}
	}
	if o.FileRoot == "" {
		o.FileRoot = o.DataDir
	} else if o.FileRoot, err = ResolveDir(o.FileRoot); err != nil {
		return bad("file root: %v", err)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o, nil
}

// ResolveDir makes dir absolute with symlinks resolved, and checks that it
// is a directory. The command line and Options use it alike.
func ResolveDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a directory", abs)
	}
	return abs, nil
}

// NewEngine checks opts and builds the query engine: the backend for
// opts.Device, and the query server (catalog, sessions) over it. It is
// the one place that knows how they are constructed; the gpusql command
// serves what it returns over the wire, and Open embeds it. backendName is
// the backend's Name, for logs.
func NewEngine(opts Options) (srv *query.Server, backendName string, err error) {
	o, err := opts.checked()
	if err != nil {
		return nil, "", err
	}
	return newEngine(o)
}

// newEngine is NewEngine for checked options.
func newEngine(o Options) (srv *query.Server, backendName string, err error) {
	backend, err := newBackend(o.Device, o.Logger)
	if err != nil {
		return nil, "", err
	}
	srv, err = query.NewServer(query.Options{
		FileRoot:     o.FileRoot,
		DataDir:      o.DataDir,
		MaxTextWidth: o.MaxTextWidth,
		Backend:      backend,
		Logger:       o.Logger,

		ClientCheckInterval: o.ClientCheckInterval,

		Roles:              o.Roles,
		StatementTimeout:   o.StatementTimeout,
		IdleSessionTimeout: o.IdleSessionTimeout,
		IdleInTxTimeout:    o.IdleInTxTimeout,
		MaxPrepared:        o.MaxPrepared,
		MaxCursors:         o.MaxCursors,
		MaxQueryMemory:     o.MaxQueryMemory,
	})
	if err != nil {
		return nil, "", err
	}
	return srv, backend.Name(), nil
}

// newBackend picks the backend for device ("auto", "cpu" or "cuda").
// "auto" uses the GPU when one is usable and otherwise the CPU backend,
// logging why; "cuda" fails when no GPU is usable. Nothing falls back
// silently.
func newBackend(device string, logger *slog.Logger) (engine.Backend, error) {
	cpuBackend := func() engine.Backend { return cpu.New(loader.NewCPU(loader.Config{}), 0) }
	if device == "cpu" {
		b := cpuBackend()
		logger.Info("device: cpu", "backend", b.Name())
		return b, nil
	}
	dev, err := cuda.Open(0)
	if err != nil {
		if device == "cuda" {
			return nil, &engine.Error{Code: engine.CodeFeatureNotSupported, Message: "gpusql: device cuda: no usable GPU: " + err.Error(), Err: err}
		}
		b := cpuBackend()
		logger.Info("device: cpu (auto: no usable GPU: "+err.Error()+")", "backend", b.Name())
		return b, nil
	}
	b := gpu.New(dev, loader.NewGPU(dev, loader.GPUConfig{}))
	logger.Info("device: cuda", "backend", b.Name())
	return b, nil
}
