package wire

// Encryption and authentication of a connection's startup: TLS on
// SSLRequest, the refusal of plain connections under Config.TLSRequired,
// the connection limit, and the password exchanges (SCRAM-SHA-256 or
// md5, through package auth).

import (
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/engine"
	"github.com/jackc/pgx/v5/pgproto3"
)

// Verifiers finds the password verifier a connecting role must match
// (an *auth.Store is one): ok is false for an unknown role or one that
// may not log in; verifier is "" for a role without a password.
type Verifiers interface {
	LoginVerifier(role string) (verifier string, ok bool)
}

// authTimeout bounds a connection's startup: TLS handshake and password
// exchange, as PostgreSQL's authentication_timeout does.
const authTimeout = time.Minute

// maxAuthMessage bounds a password or SASL message.
const maxAuthMessage = 4096

// startTLS answers an SSLRequest: 'S' and a TLS handshake when the
// server has a certificate, 'N' otherwise. It reports whether the
// connection goes on.
func (c *conn) startTLS() bool {
	if c.srv.cfg.TLS == nil || c.tls {
		_, err := c.nc.Write([]byte{'N'})
		return err == nil
	}
	if _, err := c.nc.Write([]byte{'S'}); err != nil {
		return false
	}
	tc := tls.Server(c.nc, c.srv.cfg.TLS)
	tc.SetDeadline(time.Now().Add(authTimeout))
	if err := tc.Handshake(); err != nil {
		c.log.Info("TLS handshake failed", "err", err)
		return false
	}
	tc.SetDeadline(time.Time{})
	c.nc, c.tls = tc, true
	return true
}

// errAuthFailed is the 28P01 that every failed password check reports,
// whatever failed: a wrong password, an unknown role, a role without a
// password. The log says which.
func errAuthFailed(user string) *engine.Error {
	return engine.Errorf(engine.CodeInvalidPassword, "password authentication failed for user %q", user)
}

// authenticate runs the configured password exchange for user and
// reports whether the client proved its password. On failure it has
// sent the FATAL error.
func (c *conn) authenticate(user string) bool {
	method := c.srv.cfg.Auth
	if method == "" || method == auth.Trust {
		return true
	}
	verifier, ok := "", false
	if c.srv.cfg.Roles != nil {
		verifier, ok = c.srv.cfg.Roles.LoginVerifier(user)
	}
	why := ""
	switch {
	case !ok:
		why = "no such role, or it may not log in"
	case verifier == "":
		why = "the role has no password"
	}
	c.nc.SetReadDeadline(time.Now().Add(authTimeout))
	defer c.nc.SetReadDeadline(time.Time{})
	// The session's message reader starts here, so that nothing a client
	// sends after its password is lost between two readers.
	c.be = pgproto3.NewBackend(c.nc, c.nc)
	c.be.SetMaxBodyLen(maxAuthMessage)
	be := c.be
	var err error
	// md5 is used only with an md5 verifier; a role whose password is a
	// SCRAM verifier authenticates with SCRAM, as PostgreSQL does.
	if method == auth.MD5 && (!ok || !auth.IsSCRAM(verifier)) {
		err = c.md5Exchange(be, verifier)
	} else {
		err = c.scramExchange(be, verifier)
	}
	if err != nil {
		if why == "" {
			why = err.Error()
		}
		c.log.Info("authentication failed", "user", user, "method", string(method), "why", why)
		if c.writeErr == nil {
			c.fatal(engine.CodeInvalidPassword, errAuthFailed(user).Message)
		}
		return false
	}
	return true
}

// errAuthProtocol is a client that answered an authentication request
// with something else, or went away.
var errAuthProtocol = errors.New("client broke off the password exchange")

func (c *conn) md5Exchange(be *pgproto3.Backend, verifier string) error {
	var salt [4]byte
	if _, err := rand.Read(salt[:]); err != nil {
		return err
	}
	c.send(&pgproto3.AuthenticationMD5Password{Salt: salt})
	if err := c.flush(); err != nil {
		return err
	}
	be.SetAuthType(pgproto3.AuthTypeMD5Password)
	msg, err := be.Receive()
	if err != nil {
		return fmt.Errorf("%w: %v", errAuthProtocol, err)
	}
	pw, isPW := msg.(*pgproto3.PasswordMessage)
	if !isPW {
		return fmt.Errorf("%w: expected a password message, got %T", errAuthProtocol, msg)
	}
	if !auth.CheckMD5(verifier, salt, pw.Password) {
		return auth.ErrAuthFailed
	}
	return nil
}

func (c *conn) scramExchange(be *pgproto3.Backend, verifier string) error {
	c.send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{"SCRAM-SHA-256"}})
	if err := c.flush(); err != nil {
		return err
	}
	be.SetAuthType(pgproto3.AuthTypeSASL)
	msg, err := be.Receive()
	if err != nil {
		return fmt.Errorf("%w: %v", errAuthProtocol, err)
	}
	init, isInit := msg.(*pgproto3.SASLInitialResponse)
	if !isInit {
		return fmt.Errorf("%w: expected SASLInitialResponse, got %T", errAuthProtocol, msg)
	}
	if init.AuthMechanism != "SCRAM-SHA-256" {
		return fmt.Errorf("%w: unsupported SASL mechanism %q", errAuthProtocol, init.AuthMechanism)
	}
	x := auth.NewSCRAMExchange(verifier)
	first, err := x.First(init.Data)
	if err != nil {
		return err
	}
	c.send(&pgproto3.AuthenticationSASLContinue{Data: first})
	if err := c.flush(); err != nil {
		return err
	}
	be.SetAuthType(pgproto3.AuthTypeSASLContinue)
	msg, err = be.Receive()
	if err != nil {
		return fmt.Errorf("%w: %v", errAuthProtocol, err)
	}
	resp, isResp := msg.(*pgproto3.SASLResponse)
	if !isResp {
		return fmt.Errorf("%w: expected SASLResponse, got %T", errAuthProtocol, msg)
	}
	final, err := x.Final(resp.Data)
	if err != nil {
		return err
	}
	c.send(&pgproto3.AuthenticationSASLFinal{Data: final})
	return nil
}

// reserveSlot takes one of Config.MaxConnections session slots; false
// when all are taken.
func (s *Server) reserveSlot() bool {
	if s.cfg.MaxConnections <= 0 {
		return true
	}
	for {
		n := s.sessionsIn.Load()
		if n >= int64(s.cfg.MaxConnections) {
			return false
		}
		if s.sessionsIn.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func (s *Server) releaseSlot() {
	if s.cfg.MaxConnections > 0 {
		s.sessionsIn.Add(-1)
	}
}
