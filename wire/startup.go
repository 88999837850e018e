package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"github.com/gpusql/gpusql/engine"
	"github.com/jackc/pgx/v5/pgproto3"
)

// Startup packet codes (the first 4 bytes after the length).
const (
	codeSSLRequest    = 80877103
	codeGSSENCRequest = 80877104
	codeCancelRequest = 80877102
	protocol30        = 3 << 16
)

// Startup packet bounds, as PostgreSQL's MAX_STARTUP_PACKET_LENGTH: the
// length word included, a packet is 8 bytes to 10,000 bytes.
const (
	minStartupPacket = 8
	maxStartupPacket = 10000
)

// startupError is a malformed startup packet.
type startupError struct{ msg string }

func (e *startupError) Error() string { return e.msg }

// readStartupPacket reads one length-prefixed startup packet from r and
// returns its code and the bytes after the code. It reads exactly the
// packet, so no later bytes are consumed.
func readStartupPacket(r io.Reader) (code uint32, body []byte, err error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := int32(binary.BigEndian.Uint32(hdr[:]))
	if n < minStartupPacket || n > maxStartupPacket {
		return 0, nil, &startupError{fmt.Sprintf("invalid length of startup packet: %d", n)}
	}
	buf := make([]byte, n-4)
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	return binary.BigEndian.Uint32(buf), buf[4:], nil
}

// parseStartupParams decodes the name/value pairs of a StartupMessage:
// NUL-terminated strings, then one more NUL.
func parseStartupParams(b []byte) (map[string]string, error) {
	params := map[string]string{}
	for {
		if len(b) == 1 && b[0] == 0 {
			return params, nil
		}
		k := bytes.IndexByte(b, 0)
		if k <= 0 {
			return nil, &startupError{"invalid startup packet layout: expected terminator as last byte"}
		}
		v := bytes.IndexByte(b[k+1:], 0)
		if v < 0 {
			return nil, &startupError{"invalid startup packet layout: expected terminator as last byte"}
		}
		params[string(b[:k])] = string(b[k+1 : k+1+v])
		b = b[k+1+v+1:]
	}
}

// startup runs the connection's startup phase and reports whether a
// session is ready for queries.
func (c *conn) startup() bool {
	sslSeen, gssSeen := false, false
	for {
		code, body, err := readStartupPacket(c.nc)
		if err != nil {
			var se *startupError
			switch {
			case c.srv.isShutting():
				c.refuseShutdown()
			case errors.As(err, &se):
				c.fatal(engine.CodeProtocolViolation, se.msg)
			case errors.Is(err, io.EOF), errors.Is(err, net.ErrClosed), errors.Is(err, os.ErrDeadlineExceeded):
				// A port probe, or a client that gave up: nothing to say.
			default:
				c.log.Info("reading startup packet", "err", err)
			}
			return false
		}
		switch code {
		case codeSSLRequest, codeGSSENCRequest:
			if len(body) != 0 || (code == codeSSLRequest && sslSeen) || (code == codeGSSENCRequest && gssSeen) {
				c.fatal(engine.CodeProtocolViolation, "invalid encryption request")
				return false
			}
			sslSeen = sslSeen || code == codeSSLRequest
			gssSeen = gssSeen || code == codeGSSENCRequest
			if code == codeGSSENCRequest {
				// No GSS encryption: say so and read the next packet.
				if _, err := c.nc.Write([]byte{'N'}); err != nil {
					return false
				}
			} else if !c.startTLS() {
				return false
			}
		case codeCancelRequest:
			if len(body) < 8 {
				c.log.Info("malformed cancel request", "len", len(body))
				return false
			}
			c.srv.cancel(binary.BigEndian.Uint32(body), body[4:])
			return false
		default:
			return c.startSession(code, body)
		}
	}
}

// startSession handles a StartupMessage: it opens the engine session and
// sends the authentication, parameters and key data.
func (c *conn) startSession(version uint32, body []byte) bool {
	if major, minor := version>>16, version&0xffff; major != 3 {
		c.fatal(engine.CodeProtocolViolation, fmt.Sprintf(
			"unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", major, minor))
		return false
	}
	params, err := parseStartupParams(body)
	if err != nil {
		c.fatal(engine.CodeProtocolViolation, err.Error())
		return false
	}
	user := params["user"]
	if user == "" {
		c.fatal(engine.CodeProtocolViolation, "no PostgreSQL user name specified in startup packet")
		return false
	}
	if c.srv.cfg.TLSRequired && !c.tls {
		c.fatal(engine.CodeInvalidAuthorization, fmt.Sprintf(
			"connection for user %q refused: this server accepts only encrypted connections (use sslmode=require or stronger)", user))
		return false
	}
	if !c.srv.reserveSlot() {
		c.fatal(engine.CodeTooManyConnections, "sorry, too many clients already")
		return false
	}
	c.slot = true
	if !c.authenticate(user) {
		return false
	}
	p := engine.SessionParams{
		User:        user,
		Database:    params["database"],
		Application: params["application_name"],
		Options:     map[string]string{},
	}
	if p.Database == "" {
		p.Database = user
	}
	// Protocol extensions (_pq_.*) and minor versions above 3.0 are
	// declined the way PostgreSQL does, with NegotiateProtocolVersion; the
	// client may then go on with 3.0.
	var unknown []string
	for k, v := range params {
		switch k {
		case "user", "database", "application_name":
		default:
			if strings.HasPrefix(k, "_pq_.") {
				unknown = append(unknown, k)
			} else {
				p.Options[k] = v
			}
		}
	}
	// The cancel key comes first so that the session knows its process
	// ID (pg_backend_pid()); a CancelRequest before the session exists
	// finds no query to cancel.
	if err := c.srv.register(c); err != nil {
		c.fatal(engine.CodeInternalError, "could not generate a cancel key: "+err.Error())
		return false
	}
	p.BackendPID, p.Backends = c.pid, c.srv
	sess, err := c.srv.eng.NewSession(p)
	if err != nil {
		c.send(errorResponse(err, "FATAL"))
		c.flush()
		c.log.Info("session refused", "user", user, "err", err)
		return false
	}
	c.sess, c.user = sess, user
	if version != protocol30 || len(unknown) > 0 {
		c.send(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0, UnrecognizedOptions: unknown})
	}
	c.send(&pgproto3.AuthenticationOk{})
	c.reported = map[string]string{}
	for _, ps := range [][2]string{
		{"application_name", p.Application},
		{"client_encoding", "UTF8"},
		{"DateStyle", "ISO, MDY"},
		{"default_transaction_read_only", "off"},
		{"in_hot_standby", "off"},
		{"integer_datetimes", "on"},
		{"IntervalStyle", "postgres"},
		{"is_superuser", superuserSetting(sess)},
		{"server_encoding", "UTF8"},
		{"server_version", c.srv.eng.ServerVersion()},
		{"session_authorization", user},
		{"standard_conforming_strings", "on"},
		{"TimeZone", "UTC"},
	} {
		v := ps[1]
		if r, ok := sess.(engine.SettingReader); ok && reportedFromSession[ps[0]] {
			v = r.Setting(ps[0]) // the client's startup options count
		}
		c.reported[ps[0]] = v
		c.send(&pgproto3.ParameterStatus{Name: ps[0], Value: v})
	}
	var key [4]byte
	binary.BigEndian.PutUint32(key[:], c.secret)
	c.send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: key[:]})
	c.send(&pgproto3.ReadyForQuery{TxStatus: sess.TxStatus()})
	c.log.Debug("session started", "pid", c.pid, "user", user, "database", p.Database, "application", p.Application)
	if c.flush() != nil {
		sess.Close()
		c.sess = nil
		return false
	}
	return true
}

// reportedFromSession are the reported parameters a session can change
// (SET, or the client's startup options): ParameterStatus tells the
// client their new values before ReadyForQuery, as PostgreSQL does.
var reportedFromSession = map[string]bool{
	"application_name": true, "client_encoding": true, "DateStyle": true, "IntervalStyle": true,
	"standard_conforming_strings": true, "TimeZone": true,
}

// reportChanges sends ParameterStatus for each reported parameter whose
// value differs from the one last sent.
func (c *conn) reportChanges() {
	r, ok := c.sess.(engine.SettingReader)
	if !ok || c.reported == nil {
		return
	}
	for _, name := range reportedOrder {
		if v := r.Setting(name); v != c.reported[name] {
			c.reported[name] = v
			c.send(&pgproto3.ParameterStatus{Name: name, Value: v})
		}
	}
}

// reportedOrder is PostgreSQL's order of reporting (its parameters by
// name, case-insensitively).
var reportedOrder = []string{"application_name", "client_encoding", "DateStyle", "IntervalStyle",
	"standard_conforming_strings", "TimeZone"}

// Superuserer is an optional interface of an engine.Session: whether its
// role is a superuser (the is_superuser parameter).
type Superuserer interface {
	Superuser() bool
}

func superuserSetting(sess engine.Session) string {
	if su, ok := sess.(Superuserer); ok && !su.Superuser() {
		return "off"
	}
	return "on"
}
