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
	"github.com/gpusql/gpusql/engine/multi"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/persist"
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
	// Persist keeps the catalog (tables, views) and every table's data
	// in DataDir/catalog: each change is durable when its statement
	// commits, and the next engine opened on DataDir starts with them
	// (package persist). It needs DataDir.
	Persist bool
	// Device is where queries run: "auto" (the default when empty) picks
	// the GPU when one is usable and the CPU backend otherwise; "cpu"; or
	// "cuda", which fails when no GPU backend is usable: a query never
	// falls back to the other backend silently.
	Device string
	// Devices are the GPUs (ordinals) the cuda backend uses; empty means
	// every GPU present. With several, each table is split across them
	// and a query runs on all at once (engine/multi).
	Devices []int
	// Partitions splits each table into this many parts on each device
	// (0 means 1): the several-GPU code path on one GPU, or on the CPU
	// backend, which is how it is tested without several GPUs.
	Partitions int
	// MinSplitBytes is the smallest share of a CSV file that a part
	// loads on its own; 0 means multi.DefaultMinSplitBytes.
	MinSplitBytes int64
	// Redistribute makes tables in parts redistribute the big tables of
	// every join tree that can be split that way, where by default only
	// trees that neither a broadcast join nor gathering would serve are.
	Redistribute bool
	// MappedLoads makes the GPU loader map CSV files and register them,
	// so that the GPU copies from the page cache, where by default it
	// reads them with pread into pinned buffers (for comparisons).
	MappedLoads bool
	// LoadBuffers and LoadReaders tune the GPU loader's pread path: the
	// pinned host buffers read ahead of the device and the goroutines
	// reading each (0: loader.GPUConfig's defaults; for measurements).
	LoadBuffers, LoadReaders int
	// LoadDriverPinned pins the GPU loader's host buffers with
	// cuMemAllocHost rather than on huge pages (loader.GPUConfig).
	LoadDriverPinned bool
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
	if o.Partitions < 0 || o.Partitions > maxPartitions {
		return bad("partitions %d: want 1 to %d", o.Partitions, maxPartitions)
	}
	if o.Partitions == 0 {
		o.Partitions = 1
	}
	if o.MinSplitBytes < 0 {
		return bad("min split bytes %d: must not be negative", o.MinSplitBytes)
	}
	seenDev := map[int]bool{}
	for _, d := range o.Devices {
		if d < 0 || seenDev[d] {
			return bad("devices %v: want distinct GPU ordinals from 0", o.Devices)
		}
		seenDev[d] = true
	}
	if len(o.Devices) > 0 && o.Device == "cpu" {
		return bad("devices %v: the cpu backend uses no GPU", o.Devices)
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
	if o.Persist && o.DataDir == "" {
		return bad("persist needs a data dir")
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
	backend, err := newBackend(o)
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
	if o.Persist {
		if err := restore(srv, o); err != nil {
			return nil, "", err
		}
	}
	return srv, backend.Name(), nil
}

// restore brings back the tables and views kept in o.DataDir, onto the
// backend, and makes the catalog keep its changes there.
func restore(srv *query.Server, o Options) error {
	dir, err := persist.Open(o.DataDir, o.Logger)
	if err != nil {
		return fmt.Errorf("gpusql: data dir: %w", err)
	}
	store, ok := srv.Backend().(engine.TableStore)
	if !ok {
		return fmt.Errorf("gpusql: the %s backend cannot store tables", srv.Backend().Name())
	}
	start := time.Now()
	next, tables, views, err := dir.Load(store)
	if err != nil {
		dir.Close()
		return fmt.Errorf("gpusql: restoring the catalog from %s: %w", dir.Path(), err)
	}
	var rows, bytes int64
	for _, t := range tables {
		if t.Data != nil {
			rows += t.Data.Rows()
			bytes += t.Data.DeviceBytes()
		}
	}
	if err := srv.Catalog().Attach(dir, next, tables, views); err != nil {
		srv.Catalog().Detach()
		dir.Close()
		return fmt.Errorf("gpusql: %w", err)
	}
	o.Logger.Info("catalog restored", "dir", dir.Path(), "tables", len(tables), "views", len(views),
		"rows", rows, "bytes", bytes, "seconds", time.Since(start).Seconds())
	return nil
}

// maxPartitions bounds Options.Partitions.
const maxPartitions = 64

// newBackend picks the backend for o.Device ("auto", "cpu" or "cuda").
// "auto" uses the GPU when one is usable and otherwise the CPU backend,
// logging why; "cuda" fails when no GPU is usable. Nothing falls back
// silently. Several GPUs, or Partitions > 1, give a backend that splits
// each table across them (engine/multi).
func newBackend(o Options) (engine.Backend, error) {
	logger := o.Logger
	newCPU := func() engine.Backend { return cpu.New(loader.NewCPU(loader.Config{}), 0) }
	split := func(parts []engine.Backend, names []string) engine.Backend {
		if len(parts) == 1 {
			return parts[0]
		}
		return multi.New(parts, names, newCPU(), multi.Options{MinSplitBytes: o.MinSplitBytes, Redistribute: o.Redistribute})
	}
	cpuBackend := func() engine.Backend {
		b := newCPU()
		var parts []engine.Backend
		var names []string
		for k := range o.Partitions {
			parts, names = append(parts, b), append(names, fmt.Sprintf("cpu.%d", k))
		}
		return split(parts, names)
	}
	if o.Device == "cpu" {
		b := cpuBackend()
		logger.Info("device: cpu", "backend", b.Name())
		return b, nil
	}
	if o.DataDir != "" && cuda.DriverPresent() {
		keepJITCache(o.DataDir, logger)
	}
	devs, err := openDevices(o.Devices)
	if err != nil {
		if o.Device == "cuda" {
			return nil, &engine.Error{Code: engine.CodeFeatureNotSupported, Message: "gpusql: device cuda: no usable GPU: " + err.Error(), Err: err}
		}
		b := cpuBackend()
		logger.Info("device: cpu (auto: no usable GPU: "+err.Error()+")", "backend", b.Name())
		return b, nil
	}
	var parts []engine.Backend
	var names []string
	for _, dev := range devs {
		cfg := loader.GPUConfig{HostBuffers: o.LoadBuffers, Readers: o.LoadReaders, DriverPinned: o.LoadDriverPinned}
		if o.MappedLoads {
			cfg.Read = loader.ReadMmap
		}
		g := gpu.New(dev, loader.NewGPU(dev, cfg))
		if dev != devs[0] {
			if _, err := devs[0].EnablePeer(dev); err != nil {
				logger.Info("device: no peer access", "from", devs[0].Ordinal(), "to", dev.Ordinal(), "err", err)
			}
		}
		for k := range o.Partitions {
			name := fmt.Sprintf("gpu%d", dev.Ordinal())
			if o.Partitions > 1 {
				name += fmt.Sprintf(".%d", k)
			}
			parts, names = append(parts, g), append(names, name)
		}
	}
	b := split(parts, names)
	logger.Info("device: cuda", "backend", b.Name())
	return b, nil
}

// keepJITCache points the CUDA driver's cache of JIT-compiled kernels
// into dataDir/cuda-cache (unless CUDA_CACHE_PATH is set already), so the
// kernels the query compiler generates are compiled once per data
// directory rather than once per machine's home directory: a restarted
// server, or a fresh container over the same data dir, does not compile
// them again. It must run before the driver starts (cuInit), and sets
// the process's environment, which the driver reads.
func keepJITCache(dataDir string, logger *slog.Logger) {
	if os.Getenv("CUDA_CACHE_PATH") != "" {
		return
	}
	dir := filepath.Join(dataDir, "cuda-cache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		logger.Info("cuda: no kernel cache in the data dir", "err", err)
		return
	}
	_ = os.Setenv("CUDA_CACHE_PATH", dir)
	if os.Getenv("CUDA_CACHE_MAXSIZE") == "" {
		_ = os.Setenv("CUDA_CACHE_MAXSIZE", "1073741824") // 1 GiB of compiled kernels
	}
}

// openDevices opens the GPUs of ordinals, or every GPU present.
func openDevices(ordinals []int) ([]*cuda.Device, error) {
	if len(ordinals) == 0 {
		n, err := cuda.Count()
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("%w: none present", cuda.ErrNoDevice)
		}
		for i := range n {
			ordinals = append(ordinals, i)
		}
	}
	var devs []*cuda.Device
	for _, o := range ordinals {
		d, err := cuda.Open(o)
		if err != nil {
			for _, x := range devs {
				_ = x.Close()
			}
			return nil, err
		}
		devs = append(devs, d)
	}
	return devs, nil
}
