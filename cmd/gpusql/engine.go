package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/engine"
)

// newEngine builds the query engine for o with gpusql.NewEngine, the one
// place that knows how the backend (for --device) and the query package
// are constructed; programs that embed gpusql build theirs there too.
// roles may be nil (an in-memory store).
func newEngine(o *options, logger *slog.Logger, roles *auth.Store) (eng engine.Server, backendName string, err error) {
	eng, backendName, err = gpusql.NewEngine(gpusql.Options{
		FileRoot:      o.fileRoot,
		DataDir:       o.dataDir,
		Persist:       o.persist,
		Device:        o.device,
		Devices:       o.devices,
		Partitions:    o.partitions,
		MinSplitBytes: o.splitMinBytes,
		Redistribute:  o.redistribute,
		MaxTextWidth:  o.maxTextWidth,
		Logger:        logger,

		ClientCheckInterval: o.checkEvery,

		Roles:              roles,
		StatementTimeout:   o.statementTimeout,
		IdleSessionTimeout: o.idleSessionTimeout,
		IdleInTxTimeout:    o.idleInTxTimeout,
		MaxPrepared:        o.maxPrepared,
		MaxCursors:         o.maxPortals,
		MaxQueryMemory:     o.maxQueryMemory,
	})
	if err != nil || roles == nil {
		return eng, backendName, err
	}
	// Grants name tables: forget those on tables that did not come back.
	if c, ok := eng.(interface{ Catalog() *engine.Catalog }); ok {
		cat := c.Catalog()
		err = roles.KeepGrants(func(table string) bool {
			t, v := cat.LookupIn("", table)
			return t != nil || v != nil
		})
	}
	return eng, backendName, err
}

// releaseDataDir stops eng's catalog writing to the data directory and
// unlocks the directory, for another server: after a shutdown.
func releaseDataDir(eng engine.Server) {
	if c, ok := eng.(interface{ Catalog() *engine.Catalog }); ok {
		if d, ok := c.Catalog().Detach().(io.Closer); ok {
			_ = d.Close()
		}
	}
}

// openRoles opens the role store of the data directory and gives the
// bootstrap superuser the password of --password-file. A password
// method needs the superuser to have a password, from the file or from
// an earlier run.
func openRoles(o *options) (*auth.Store, error) {
	roles, err := auth.Open(o.dataDir, o.auth)
	if err != nil {
		return nil, fmt.Errorf("role store: %w", err)
	}
	if o.password != "" {
		pw := o.password
		if err := roles.Alter(auth.Bootstrap, auth.Options{Password: &pw}); err != nil {
			return nil, fmt.Errorf("setting the password of %s: %w", auth.Bootstrap, err)
		}
	}
	if o.auth != auth.Trust {
		if v, _ := roles.LoginVerifier(auth.Bootstrap); v == "" {
			return nil, &usageError{fmt.Sprintf("--auth %s: the superuser %s has no password yet; give one with --password-file", o.auth, auth.Bootstrap)}
		}
	}
	return roles, nil
}
