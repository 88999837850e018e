package wire

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// ConnChecker is an optional interface of an engine.Session: how often,
// while one of its statements runs, the server checks that the client is
// still connected (the session's client_connection_check_interval); 0
// means never. A client found gone has its statement cancelled, so that a
// vanished client does not keep the shared GPU busy.
type ConnChecker interface {
	ClientCheckInterval() time.Duration
}

// errClientGone is the cancellation cause of a statement whose client
// closed or reset its connection while the statement ran.
var errClientGone = errors.New("wire: client connection lost")

// watchState counts a connection's checks, for tests: checks is the
// number made, goneAt the count at which the client was found gone (0:
// not found).
type watchState struct {
	checks atomic.Int64
	goneAt atomic.Int64
}

// watchClient checks the client every interval while a statement runs and
// cancels the statement, with cause errClientGone, once the client has
// closed or reset its connection. stop ends the watch; it returns when
// the watcher has.
func (c *conn) watchClient(cancel context.CancelCauseFunc) (stop func()) {
	ck, ok := c.sess.(ConnChecker)
	if !ok {
		return func() {}
	}
	every := ck.ClientCheckInterval()
	if every <= 0 {
		return func() {}
	}
	if _, pollable := peerClosed(c.nc); !pollable {
		return func() {}
	}
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			n := c.watch.checks.Add(1)
			if closed, _ := peerClosed(c.nc); closed {
				c.watch.goneAt.Store(n)
				c.log.Info("client connection lost; cancelling its statement", "pid", c.pid)
				cancel(errClientGone)
				return
			}
		}
	}()
	return func() {
		close(done)
		<-exited
	}
}
