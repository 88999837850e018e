package parse

import (
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// position is the 1-based character position of byte offset off in src,
// as PostgreSQL reports it.
func position(src string, off int) int {
	if off > len(src) {
		off = len(src)
	}
	return utf8.RuneCountInString(src[:off]) + 1
}

// syntaxErrAt is PostgreSQL's "<msg> at or near "<near>"" with a position.
func syntaxErrAt(src string, off int, msg, near string) *engine.Error {
	return &engine.Error{
		Code:     engine.CodeSyntaxError,
		Message:  msg + ` at or near "` + near + `"`,
		Position: position(src, off),
	}
}

// lexErr is an unterminated-literal error: PostgreSQL quotes the rest of
// the input from the literal's start.
func lexErr(src string, off int, msg string) *engine.Error {
	return syntaxErrAt(src, off, msg, src[off:])
}

// notSupportedAt is a 0A000 error pointing at off.
func notSupportedAt(src string, off int, msg string) *engine.Error {
	return &engine.Error{Code: engine.CodeFeatureNotSupported, Message: msg, Position: position(src, off)}
}

// syntaxErr is "syntax error at or near" the token t, or "at end of
// input" for the end of the query.
func syntaxErr(src string, t token) *engine.Error {
	if t.kind == kEOF {
		return &engine.Error{
			Code:     engine.CodeSyntaxError,
			Message:  "syntax error at end of input",
			Position: position(src, t.pos),
		}
	}
	return syntaxErrAt(src, t.pos, "syntax error", src[t.pos:t.end])
}

// notSupported is a 0A000 error pointing at t.
func notSupported(src string, t token, msg string) *engine.Error {
	return notSupportedAt(src, t.pos, msg)
}

// errAt is an error with code and message pointing at t.
func errAt(src string, t token, code, msg string) *engine.Error {
	return &engine.Error{Code: code, Message: msg, Position: position(src, t.pos)}
}
