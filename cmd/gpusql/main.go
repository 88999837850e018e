// Command gpusql is the gpusql server: it loads CSV into column arrays and
// answers PostgreSQL-dialect SQL over the PostgreSQL wire protocol.
//
//	gpusql [--listen 127.0.0.1:5433] [--data-dir DIR] [--file-root DIR]
//	       [--device auto|cpu|cuda] [--devices 0,1] [--partitions N]
//	       [--redistribute-joins auto|always]
//	       [--max-text-width N] [--log-level info] [--demo] [--persist=false]
//	       [--client-connection-check-interval 250ms]
//	       [--auth trust|scram-sha-256|md5] [--password-file FILE]
//	       [--tls-cert FILE --tls-key FILE [--tls-required]]
//	       [--max-connections N] [--max-query-memory SIZE]
//	       [--statement-timeout D] [--idle-session-timeout D]
//	       [--idle-in-transaction-session-timeout D]
//	       [--max-prepared-statements N] [--max-portals N]
//	gpusql shard --by COL --nodes host:port,... --table T --columns 'DDL' FILE.csv
//
// main only parses and checks flags into an options struct and wires the
// packages together (engine construction: engine.go; --demo: demo.go).
// Names at package level avoid those of the differential test, which
// shares package main.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query"
	"github.com/gpusql/gpusql/wire"
)

// options are the checked command line.
type options struct {
	listen        string
	dataDir       string // absolute, symlinks resolved, exists
	fileRoot      string // absolute, symlinks resolved, exists
	device        string // "auto" or "cpu"
	devices       []int  // GPU ordinals; nil: every GPU
	partitions    int    // parts of a table per device
	splitMinBytes int64  // smallest share of a file a part loads
	redistribute  bool   // co-partition every join tree that can be, not only where it pays
	maxTextWidth  int
	// checkEvery is the default client_connection_check_interval;
	// negative: off.
	checkEvery time.Duration
	logLevel   slog.Level
	demo       bool
	// persist keeps the catalog and tables in dataDir (package
	// persist); false: in memory only.
	persist bool

	// Authentication and encryption (docs/operations.md).
	auth        auth.Method
	password    string      // the bootstrap superuser's, from --password-file
	tls         *tls.Config // nil: no TLS
	tlsRequired bool

	// Limits.
	maxConnections                                        int
	maxQueryMemory                                        int64
	statementTimeout, idleSessionTimeout, idleInTxTimeout time.Duration
	maxPrepared, maxPortals                               int
}

// defaultMaxConnections is --max-connections' default, PostgreSQL's.
const defaultMaxConnections = 100

// usageError is a bad command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// maxTextWidthLimit is PostgreSQL's limit on one field value (1 GB).
const maxTextWidthLimit = 1 << 30

// parseFlags parses and checks args. It creates the data directory if it
// is missing. It returns flag.ErrHelp for -h.
func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("gpusql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", wire.DefaultListen, "TCP `address` to accept PostgreSQL connections on")
	dataDir := fs.String("data-dir", "./gpusql-data", "`directory` for the server's files (created if missing)")
	fileRoot := fs.String("file-root", "", "the only `directory` tree COPY FROM and CREATE TABLE ... FROM CSV/PARQUET may read and COPY TO may write (default: the data directory)")
	device := fs.String("device", "auto", "where queries run: auto, cpu or cuda")
	devices := fs.String("devices", "", "comma-separated GPU `ordinals` to use, e.g. 0,1 (default: every GPU); with several, each table is split across them")
	partitions := fs.Int("partitions", 1, "split each table into `N` parts per device (tests the several-GPU path on one device or the CPU)")
	splitMin := fs.Int64("split-min-bytes", 0, "smallest share of a CSV file, in `bytes`, that a part loads on its own (default 32 MiB)")
	redistribute := fs.String("redistribute-joins", "auto", "with tables in parts: auto (redistribute the big tables of a join by key where broadcasting or gathering would not do) or always (wherever the tree allows: tests and comparisons)")
	maxText := fs.Int("max-text-width", engine.DefaultCSVOptions().MaxTextWidth, "largest stored text value, in `bytes`")
	checkEvery := fs.Duration("client-connection-check-interval", query.DefaultClientCheckInterval,
		"how often a running statement checks that its client is still connected, and stops if not (0: never)")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	demo := fs.Bool("demo", false, "create the demo table from <data-dir>/demo.csv, generating the file if missing")
	persistFlag := fs.Bool("persist", true, "keep tables and views in the data directory, durable when each statement commits, and bring them back at start (false: in memory only)")
	authMethod := fs.String("auth", "", "client authentication: trust, scram-sha-256 or md5 (default: trust on a loopback --listen address; required otherwise)")
	passwordFile := fs.String("password-file", "", "`file` holding the password of the superuser gpusql (its first line)")
	tlsCert := fs.String("tls-cert", "", "TLS certificate chain `file` (PEM); with --tls-key, clients may connect with sslmode=require or stronger")
	tlsKey := fs.String("tls-key", "", "TLS private key `file` (PEM)")
	tlsRequired := fs.Bool("tls-required", false, "refuse connections that are not encrypted (needs --tls-cert)")
	maxConns := fs.Int("max-connections", defaultMaxConnections, "most sessions at once; more are refused with 53300")
	maxMem := fs.String("max-query-memory", "0", "host memory one statement may hold in the rows it materialises and the CPU backend's hash tables and sort buffers, e.g. 4GiB (0: no limit); past it, 53200")
	stmtTimeout := fs.Duration("statement-timeout", 0, "default statement_timeout (0: none)")
	idleTimeout := fs.Duration("idle-session-timeout", 0, "default idle_session_timeout: end sessions idle this long outside a transaction (0: never)")
	idleTxTimeout := fs.Duration("idle-in-transaction-session-timeout", 0, "default idle_in_transaction_session_timeout (0: never)")
	maxPrepared := fs.Int("max-prepared-statements", query.DefaultMaxNamed, "most named prepared statements per session")
	maxPortals := fs.Int("max-portals", query.DefaultMaxNamed, "most open portals, and most cursors, per session")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: gpusql [flags]\n\nServes PostgreSQL-dialect SQL over CSV data on the PostgreSQL wire protocol.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q", fs.Arg(0))
	}

	o := &options{listen: *listen, demo: *demo, persist: *persistFlag, maxTextWidth: *maxText}
	if _, _, err := net.SplitHostPort(o.listen); err != nil {
		return nil, usagef("--listen %q: %v", o.listen, err)
	}
	switch *device {
	case "auto", "cpu", "cuda":
		o.device = *device
	default:
		return nil, usagef("--device %q: want auto, cpu or cuda", *device)
	}
	if *devices != "" {
		if o.device == "cpu" {
			return nil, usagef("--devices %q: the cpu device uses no GPU", *devices)
		}
		seen := map[int]bool{}
		for _, f := range strings.Split(*devices, ",") {
			d, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || d < 0 || seen[d] {
				return nil, usagef("--devices %q: want distinct GPU ordinals separated by commas, e.g. 0,1", *devices)
			}
			seen[d] = true
			o.devices = append(o.devices, d)
		}
	}
	if *partitions < 1 || *partitions > 64 {
		return nil, usagef("--partitions %d: want 1 to 64", *partitions)
	}
	o.partitions = *partitions
	if *splitMin < 0 {
		return nil, usagef("--split-min-bytes %d: must not be negative", *splitMin)
	}
	o.splitMinBytes = *splitMin
	switch *redistribute {
	case "auto":
	case "always":
		o.redistribute = true
	default:
		return nil, usagef("--redistribute-joins %q: want auto or always", *redistribute)
	}
	if o.maxTextWidth <= 0 || o.maxTextWidth > maxTextWidthLimit {
		return nil, usagef("--max-text-width %d: want 1 to %d bytes", o.maxTextWidth, maxTextWidthLimit)
	}
	switch {
	case *checkEvery < 0:
		return nil, usagef("--client-connection-check-interval %v: must not be negative", *checkEvery)
	case *checkEvery == 0:
		o.checkEvery = -1
	case *checkEvery < time.Millisecond:
		return nil, usagef("--client-connection-check-interval %v: want at least 1ms, or 0 for never", *checkEvery)
	default:
		o.checkEvery = *checkEvery
	}
	if err := o.logLevel.UnmarshalText([]byte(*logLevel)); err != nil {
		return nil, usagef("--log-level %q: want debug, info, warn or error", *logLevel)
	}
	if *dataDir == "" {
		return nil, usagef("--data-dir must not be empty")
	}
	if err := os.MkdirAll(*dataDir, 0o755); err != nil {
		return nil, usagef("--data-dir: %v", err)
	}
	var err error
	if o.dataDir, err = gpusql.ResolveDir(*dataDir); err != nil {
		return nil, usagef("--data-dir: %v", err)
	}
	o.fileRoot = o.dataDir
	if *fileRoot != "" {
		if o.fileRoot, err = gpusql.ResolveDir(*fileRoot); err != nil {
			return nil, usagef("--file-root: %v", err)
		}
	}
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	if err := o.securityFlags(*authMethod, explicit["auth"], *passwordFile, *tlsCert, *tlsKey, *tlsRequired); err != nil {
		return nil, err
	}
	if err := o.limitFlags(*maxConns, *maxMem, *stmtTimeout, *idleTimeout, *idleTxTimeout, *maxPrepared, *maxPortals); err != nil {
		return nil, err
	}
	return o, nil
}

// securityFlags checks --auth, --password-file and the TLS flags.
func (o *options) securityFlags(method string, explicit bool, passwordFile, cert, key string, required bool) error {
	o.auth = auth.Trust
	if method != "" {
		m, err := auth.ParseMethod(method)
		if err != nil {
			return usagef("--auth: %v", err)
		}
		o.auth = m
	}
	if o.auth == auth.Trust && !explicit && !loopbackListen(o.listen) {
		return usagef("--listen %s is not a loopback address: choose --auth scram-sha-256 (with --password-file), "+
			"or say --auth trust to let anyone who can reach it in as any user", o.listen)
	}
	if passwordFile != "" {
		b, err := os.ReadFile(passwordFile)
		if err != nil {
			return usagef("--password-file: %v", err)
		}
		pw, _, _ := strings.Cut(string(b), "\n")
		pw = strings.TrimSuffix(pw, "\r")
		if pw == "" {
			return usagef("--password-file %s: the first line is empty", passwordFile)
		}
		o.password = pw
	}
	switch {
	case (cert == "") != (key == ""):
		return usagef("--tls-cert and --tls-key go together")
	case cert != "":
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return usagef("--tls-cert/--tls-key: %v", err)
		}
		o.tls = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	if required && o.tls == nil {
		return usagef("--tls-required needs --tls-cert and --tls-key")
	}
	o.tlsRequired = required
	return nil
}

// loopbackListen reports whether a --listen address accepts connections
// from this host only.
func loopbackListen(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// limitFlags checks the resource limits.
func (o *options) limitFlags(maxConns int, maxMem string, stmt, idle, idleTx time.Duration, maxPrepared, maxPortals int) error {
	if maxConns < 1 {
		return usagef("--max-connections %d: want at least 1", maxConns)
	}
	o.maxConnections = maxConns
	n, err := humanize.ParseBytes(maxMem)
	if err != nil || n > 1<<62 {
		return usagef("--max-query-memory %q: want a size such as 512MiB or 4GiB, or 0", maxMem)
	}
	o.maxQueryMemory = int64(n)
	for _, d := range []struct {
		name string
		v    time.Duration
		dst  *time.Duration
	}{{"--statement-timeout", stmt, &o.statementTimeout}, {"--idle-session-timeout", idle, &o.idleSessionTimeout},
		{"--idle-in-transaction-session-timeout", idleTx, &o.idleInTxTimeout}} {
		if d.v < 0 || d.v > 0 && d.v < time.Millisecond {
			return usagef("%s %v: want 0 (none) or at least 1ms", d.name, d.v)
		}
		*d.dst = d.v
	}
	if maxPrepared < 1 || maxPortals < 1 {
		return usagef("--max-prepared-statements and --max-portals want at least 1")
	}
	o.maxPrepared, o.maxPortals = maxPrepared, maxPortals
	return nil
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "shard" { // shard.go
		os.Exit(runShard(os.Args[2:]))
	}
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(os.Stderr, "gpusql: %s\n", ue.msg)
		os.Exit(2)
	} else if err != nil {
		fmt.Fprintf(os.Stderr, "gpusql: %v\n", err)
		os.Exit(1)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: o.logLevel}))

	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	// Every signal also lands here: the first is the one that ended ctx;
	// a second one during shutdown cancels the running queries at once.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	if err := serveCommand(ctx, o, logger, os.Stdout, signals); err != nil {
		logger.Error("gpusql stopped", "err", err)
		os.Exit(1)
	}
}

// serveCommand runs the server until ctx ends, then shuts it down: the
// listener closes, idle sessions end at once, running queries get
// wire.DefaultShutdownTimeout to finish (cut short by a second value on
// signals), and every session ends with FATAL 57P01.
func serveCommand(ctx context.Context, o *options, logger *slog.Logger, stdout io.Writer, signals <-chan os.Signal) error {
	roles, err := openRoles(o)
	if err != nil {
		return err
	}
	eng, backendName, err := newEngine(o, logger, roles)
	if err != nil {
		return err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", o.listen)
	if err != nil {
		return err
	}
	srv := wire.NewServer(wireConfig(o, logger, roles), eng)
	served := make(chan error, 1)
	// Serve's own context never ends: shutdown is driven from here, so
	// that a second signal can shorten it.
	go func() { served <- srv.Serve(context.Background(), ln) }()

	addr := ln.Addr().(*net.TCPAddr)
	logger.Info("listening", "addr", addr.String(), "backend", backendName,
		"data_dir", o.dataDir, "file_root", o.fileRoot, "server_version", eng.ServerVersion())
	printBanner(stdout, addr, eng.ServerVersion(), backendName)

	if o.demo {
		if err := setUpDemo(ctx, o, eng, logger, stdout); err != nil {
			// The server is up; a failed demo is reported, not fatal.
			logger.Error("demo setup failed", "err", err)
		}
	}

	select {
	case err := <-served: // the listener failed
		srv.Close()
		releaseDataDir(eng)
		return err
	case <-ctx.Done():
	}
	grace, cancelGrace := context.WithTimeout(context.Background(), wire.DefaultShutdownTimeout)
	defer cancelGrace()
	logger.Info("signal received; shutting down (signal again to cancel running queries now)",
		"grace", wire.DefaultShutdownTimeout)
	go func() {
		<-signals // the first signal, which ended ctx
		select {
		case <-signals:
			logger.Info("second signal: cancelling running queries")
			cancelGrace()
		case <-grace.Done():
		}
	}()
	err = srv.Shutdown(grace)
	<-served
	releaseDataDir(eng)
	if err != nil {
		logger.Info("gpusql stopped; running queries were cancelled at shutdown", "detail", err)
	} else {
		logger.Info("gpusql stopped")
	}
	return nil
}

// wireConfig is the wire server's configuration for o.
func wireConfig(o *options, logger *slog.Logger, roles *auth.Store) wire.Config {
	return wire.Config{
		Listen: o.listen, Logger: logger,
		Auth: o.auth, Roles: roles, TLS: o.tls, TLSRequired: o.tlsRequired,
		MaxConnections: o.maxConnections, MaxStatements: o.maxPrepared, MaxPortals: o.maxPortals,
	}
}

// printBanner tells a person how to connect.
func printBanner(w io.Writer, addr *net.TCPAddr, serverVersion, backendName string) {
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1" // Go listens on both stacks for "" and "::"
	}
	fmt.Fprintf(w, "gpusql %s listening on %s (backend: %s)\n", serverVersion, addr, backendName)
	fmt.Fprintf(w, "connect with:\n  psql \"host=%s port=%d user=gpusql dbname=gpusql sslmode=disable\"\n",
		host, addr.Port)
	fmt.Fprintf(w, "stop with Ctrl-C\n")
}

// quoteLiteral quotes s as a SQL string literal.
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
