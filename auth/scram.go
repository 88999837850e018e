// Package auth holds gpusql's roles and their passwords: the role store
// kept in the data directory (store.go), and the server side of the two
// password exchanges the PostgreSQL protocol offers, SCRAM-SHA-256
// (RFC 5802 and RFC 7677) and md5.
//
// Passwords are never stored. A role's password is kept as a verifier:
// "SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>" (base64), the
// form PostgreSQL keeps in pg_authid.rolpassword, or "md5<hex>" when the
// server runs with --auth md5, whose exchange needs that hash.
package auth

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/text/secure/precis"
)

// Method is a client authentication method.
type Method string

const (
	Trust  Method = "trust"
	SCRAM  Method = "scram-sha-256"
	MD5    Method = "md5"
	scramM        = "SCRAM-SHA-256"
)

// ParseMethod checks a --auth value.
func ParseMethod(s string) (Method, error) {
	switch m := Method(strings.ToLower(s)); m {
	case Trust, SCRAM, MD5:
		return m, nil
	}
	return "", fmt.Errorf("unknown authentication method %q: want trust, scram-sha-256 or md5", s)
}

// scramIterations is the PBKDF2 iteration count of new verifiers, as
// PostgreSQL's default scram_iterations.
const scramIterations = 4096

// normalize is SASLprep of a password, as PostgreSQL applies it: a
// password that is not valid under the profile is used as its bytes.
func normalize(password string) []byte {
	if p, err := precis.OpaqueString.String(password); err == nil {
		return []byte(p)
	}
	return []byte(password)
}

// SCRAMVerifier makes the SCRAM-SHA-256 verifier of password, with a
// fresh random salt.
func SCRAMVerifier(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	return scramVerifierSalt(password, salt, scramIterations)
}

func scramVerifierSalt(password string, salt []byte, iter int) (string, error) {
	salted, err := pbkdf2.Key(sha256.New, string(normalize(password)), salt, iter, sha256.Size)
	if err != nil {
		return "", err
	}
	clientKey := hmacSHA256(salted, "Client Key")
	stored := sha256.Sum256(clientKey)
	serverKey := hmacSHA256(salted, "Server Key")
	b64 := base64.StdEncoding.EncodeToString
	return fmt.Sprintf("%s$%d:%s$%s:%s", scramM, iter, b64(salt), b64(stored[:]), b64(serverKey)), nil
}

func hmacSHA256(key []byte, msg string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msg))
	return h.Sum(nil)
}

// scramSecret is a parsed SCRAM-SHA-256 verifier.
type scramSecret struct {
	iter                 int
	salt                 []byte
	storedKey, serverKey []byte
}

var errBadVerifier = errors.New("auth: malformed SCRAM-SHA-256 verifier")

// IsSCRAM reports whether v is a SCRAM-SHA-256 verifier.
func IsSCRAM(v string) bool { return strings.HasPrefix(v, scramM+"$") }

func parseSCRAM(v string) (*scramSecret, error) {
	rest, ok := strings.CutPrefix(v, scramM+"$")
	if !ok {
		return nil, errBadVerifier
	}
	head, keys, ok := strings.Cut(rest, "$")
	if !ok {
		return nil, errBadVerifier
	}
	iterS, saltS, ok1 := strings.Cut(head, ":")
	storedS, serverS, ok2 := strings.Cut(keys, ":")
	if !ok1 || !ok2 {
		return nil, errBadVerifier
	}
	iter, err := strconv.Atoi(iterS)
	if err != nil || iter < 1 {
		return nil, errBadVerifier
	}
	s := &scramSecret{iter: iter}
	dec := base64.StdEncoding.DecodeString
	var e1, e2, e3 error
	s.salt, e1 = dec(saltS)
	s.storedKey, e2 = dec(storedS)
	s.serverKey, e3 = dec(serverS)
	if e1 != nil || e2 != nil || e3 != nil || len(s.storedKey) != sha256.Size || len(s.serverKey) != sha256.Size || len(s.salt) == 0 {
		return nil, errBadVerifier
	}
	return s, nil
}

// ErrAuthFailed is a failed exchange: a wrong password, an unknown role,
// or a client that broke the protocol. The server reports each the same
// way to the client.
var ErrAuthFailed = errors.New("auth: authentication failed")

// SCRAMExchange is the server side of one SCRAM-SHA-256 exchange
// without channel binding. Start it with NewSCRAMExchange, answer the
// client's first message with First and its final message with Final.
type SCRAMExchange struct {
	secret *scramSecret
	// mock: the role has no usable verifier. The exchange runs with a
	// made-up one, so that a client learns nothing from it, and fails.
	mock bool

	clientFirstBare, serverFirst, nonce string
	gs2                                 string
}

// NewSCRAMExchange starts an exchange against verifier; an empty or
// non-SCRAM verifier (no such role, no password) gives an exchange that
// always fails at its end.
func NewSCRAMExchange(verifier string) *SCRAMExchange {
	x := &SCRAMExchange{}
	s, err := parseSCRAM(verifier)
	if err != nil {
		x.mock = true
		s = &scramSecret{iter: scramIterations, salt: randomBytes(16), storedKey: randomBytes(32), serverKey: randomBytes(32)}
	}
	x.secret = s
	return x
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("auth: crypto/rand failed: " + err.Error())
	}
	return b
}

// printable reports whether s is a valid nonce: printable ASCII other
// than ','.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e || s[i] == ',' {
			return false
		}
	}
	return s != ""
}

// First takes the client-first-message and returns the
// server-first-message.
func (x *SCRAMExchange) First(msg []byte) ([]byte, error) {
	m := string(msg)
	// gs2-header: "n,," or "y,," (no channel binding), then the bare
	// message "n=<user>,r=<nonce>[,extensions]".
	var rest string
	switch {
	case strings.HasPrefix(m, "n,"), strings.HasPrefix(m, "y,"):
		rest = m[2:]
	case strings.HasPrefix(m, "p="):
		return nil, fmt.Errorf("%w: channel binding is not supported", ErrAuthFailed)
	default:
		return nil, fmt.Errorf("%w: malformed SCRAM message", ErrAuthFailed)
	}
	authzid, bare, ok := strings.Cut(rest, ",")
	if !ok || (authzid != "" && !strings.HasPrefix(authzid, "a=")) {
		return nil, fmt.Errorf("%w: malformed SCRAM message", ErrAuthFailed)
	}
	x.gs2 = m[:len(m)-len(bare)]
	fields := strings.Split(bare, ",")
	if len(fields) < 2 || !strings.HasPrefix(fields[0], "n=") || !strings.HasPrefix(fields[1], "r=") {
		return nil, fmt.Errorf("%w: malformed SCRAM message", ErrAuthFailed)
	}
	cnonce := fields[1][2:]
	if !printable(cnonce) {
		return nil, fmt.Errorf("%w: malformed SCRAM nonce", ErrAuthFailed)
	}
	x.clientFirstBare = bare
	x.nonce = cnonce + base64.RawStdEncoding.EncodeToString(randomBytes(18))
	x.serverFirst = fmt.Sprintf("r=%s,s=%s,i=%d", x.nonce, base64.StdEncoding.EncodeToString(x.secret.salt), x.secret.iter)
	return []byte(x.serverFirst), nil
}

// Final takes the client-final-message and returns the
// server-final-message, or ErrAuthFailed when the proof is wrong.
func (x *SCRAMExchange) Final(msg []byte) ([]byte, error) {
	if x.serverFirst == "" {
		return nil, fmt.Errorf("%w: SCRAM final message before the first", ErrAuthFailed)
	}
	m := string(msg)
	i := strings.LastIndex(m, ",p=")
	if i < 0 {
		return nil, fmt.Errorf("%w: malformed SCRAM message", ErrAuthFailed)
	}
	withoutProof, proofS := m[:i], m[i+3:]
	fields := strings.Split(withoutProof, ",")
	if len(fields) < 2 || !strings.HasPrefix(fields[0], "c=") || !strings.HasPrefix(fields[1], "r=") {
		return nil, fmt.Errorf("%w: malformed SCRAM message", ErrAuthFailed)
	}
	cbind, err := base64.StdEncoding.DecodeString(fields[0][2:])
	if err != nil || string(cbind) != x.gs2 {
		return nil, fmt.Errorf("%w: SCRAM channel binding check failed", ErrAuthFailed)
	}
	if subtle.ConstantTimeCompare([]byte(fields[1][2:]), []byte(x.nonce)) != 1 {
		return nil, fmt.Errorf("%w: SCRAM nonce mismatch", ErrAuthFailed)
	}
	proof, err := base64.StdEncoding.DecodeString(proofS)
	if err != nil || len(proof) != sha256.Size {
		return nil, fmt.Errorf("%w: malformed SCRAM proof", ErrAuthFailed)
	}
	authMsg := x.clientFirstBare + "," + x.serverFirst + "," + withoutProof
	sig := hmacSHA256(x.secret.storedKey, authMsg)
	clientKey := make([]byte, sha256.Size)
	for k := range clientKey {
		clientKey[k] = proof[k] ^ sig[k]
	}
	got := sha256.Sum256(clientKey)
	if subtle.ConstantTimeCompare(got[:], x.secret.storedKey) != 1 || x.mock {
		return nil, ErrAuthFailed
	}
	return []byte("v=" + base64.StdEncoding.EncodeToString(hmacSHA256(x.secret.serverKey, authMsg))), nil
}
