package wire

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/jackc/pgx/v5/pgproto3"
)

// The COPY sub-protocol. COPY FROM STDIN: the server sends
// CopyInResponse, the client CopyData messages and then CopyDone (or
// CopyFail); the session reads the payloads through copyIn while the
// statement runs, on the connection's goroutine. COPY TO STDOUT: the
// server sends CopyOutResponse, CopyData messages and CopyDone before the
// command tag. If the statement fails part way, the server sends the
// error at once, and copy messages the client still sends are discarded
// by the message loop (conn.handle), as PostgreSQL does.

var _ engine.CopyStream = (*streamWriter)(nil)

// CopyIn starts COPY FROM STDIN.
func (w *streamWriter) CopyIn(ctx context.Context, format int8, ncols int) (io.Reader, error) {
	if w.copyIn != nil || w.copyOut {
		return nil, engine.Errorf(engine.CodeProtocolViolation, "a COPY is already in progress")
	}
	w.c.send(&pgproto3.CopyInResponse{OverallFormat: byte(format), ColumnFormatCodes: make([]uint16, ncols)})
	if err := w.c.flush(); err != nil {
		return nil, err
	}
	w.copyIn = &copyIn{c: w.c, ctx: ctx}
	return w.copyIn, nil
}

// CopyOut starts COPY TO STDOUT.
func (w *streamWriter) CopyOut(format int8, ncols int) (io.Writer, error) {
	if w.copyIn != nil || w.copyOut {
		return nil, engine.Errorf(engine.CodeProtocolViolation, "a COPY is already in progress")
	}
	w.c.send(&pgproto3.CopyOutResponse{OverallFormat: byte(format), ColumnFormatCodes: make([]uint16, ncols)})
	w.copyOut = true
	return copyOut{w.c}, w.c.maybeFlush()
}

// endCopy is called before a statement's command tag: it sends CopyDone
// after COPY TO, and after COPY FROM reads what is left of the client's
// data up to its CopyDone (data after an end-of-data marker), reporting a
// CopyFail that comes instead.
func (w *streamWriter) endCopy() error {
	if w.copyOut {
		w.copyOut = false
		w.c.send(&pgproto3.CopyDone{})
	}
	if in := w.copyIn; in != nil {
		w.copyIn = nil
		if _, err := io.Copy(io.Discard, in); err != nil {
			return err
		}
	}
	return nil
}

// copyOut sends each Write as one CopyData message.
type copyOut struct{ c *conn }

func (o copyOut) Write(p []byte) (int, error) {
	if err := o.c.send(&pgproto3.CopyData{Data: p}); err != nil {
		return 0, err
	}
	return len(p), o.c.maybeFlush()
}

// copyIn reads the client's CopyData payloads. A payload is valid only
// until the next Receive, so Read copies out of it before receiving again.
type copyIn struct {
	c    *conn
	ctx  context.Context // the statement's: its end interrupts a waiting read
	rest []byte          // unread part of the current payload
	err  error           // io.EOF after CopyDone, the error after a failure
}

// receive waits for the client's next message, or for the statement's
// context to end: then it makes the blocked read return at once with an
// immediate deadline. pgproto3 keeps a partly read message and resumes it
// on the next Receive, so the connection stays in step with the client.
func (in *copyIn) receive() (pgproto3.FrontendMessage, error) {
	woken := make(chan struct{})
	stop := context.AfterFunc(in.ctx, func() {
		in.c.nc.SetReadDeadline(time.Unix(1, 0))
		close(woken)
	})
	msg, err := in.c.be.Receive()
	if stop() {
		return msg, err
	}
	<-woken
	in.c.nc.SetReadDeadline(time.Time{})
	if err == nil {
		return msg, nil // the message arrived first; the next read sees ctx
	}
	return nil, canceledErr(in.ctx)
}

// canceledErr is the error of a statement whose context has ended.
func canceledErr(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to statement timeout")
	}
	return engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
}

func (in *copyIn) Read(p []byte) (int, error) {
	for len(in.rest) == 0 {
		if in.err != nil {
			return 0, in.err
		}
		if in.ctx.Err() != nil {
			in.err = canceledErr(in.ctx)
			return 0, in.err
		}
		msg, err := in.receive()
		var pe *engine.Error
		if errors.As(err, &pe) && pe.Code == engine.CodeQueryCanceled {
			in.err = err
			return 0, err
		}
		if err != nil {
			// The connection closed (FIN or RST) or broke before CopyDone:
			// the COPY fails and commits nothing. The cause is logged but
			// not wrapped, so that no reader mistakes it for the end of
			// the data.
			in.c.log.Debug("connection lost during COPY FROM STDIN", "pid", in.c.pid, "err", err)
			in.err = engine.Errorf(engine.CodeConnectionFailure, "unexpected EOF on client connection with an open transaction").
				WithDetail("%s", "The connection closed before CopyDone; COPY from stdin was aborted and loaded nothing.")
			return 0, in.err
		}
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			in.rest = m.Data
		case *pgproto3.CopyDone:
			in.err = io.EOF
		case *pgproto3.CopyFail:
			in.err = engine.Errorf(engine.CodeQueryCanceled, "COPY from stdin failed: %s", m.Message)
		case *pgproto3.Flush, *pgproto3.Sync:
			// PostgreSQL ignores these during COPY IN.
		default:
			in.err = engine.Errorf(engine.CodeProtocolViolation, "unexpected message type 0x%02X during COPY from stdin", msgType(msg))
		}
	}
	n := copy(p, in.rest)
	in.rest = in.rest[n:]
	return n, nil
}

// msgType is the type byte of a frontend message.
func msgType(msg pgproto3.FrontendMessage) byte {
	b, err := msg.Encode(nil)
	if err != nil || len(b) == 0 {
		return 0
	}
	return b[0]
}
