package auth

import (
	"crypto/md5"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// MD5Verifier is the md5 verifier of a role's password, as PostgreSQL
// stores it: "md5" and the hex MD5 of the password followed by the role
// name. The role name is its salt, so renaming a role voids it.
func MD5Verifier(role, password string) string {
	sum := md5.Sum([]byte(password + role))
	return "md5" + hex.EncodeToString(sum[:])
}

// IsMD5 reports whether v is an md5 verifier.
func IsMD5(v string) bool {
	if len(v) != 35 || !strings.HasPrefix(v, "md5") {
		return false
	}
	_, err := hex.DecodeString(v[3:])
	return err == nil
}

// CheckMD5 checks the client's answer to an AuthenticationMD5Password
// request with salt: "md5" and the hex MD5 of the verifier's hex digits
// followed by the salt. A verifier that is not md5 never matches.
func CheckMD5(verifier string, salt [4]byte, response string) bool {
	if !IsMD5(verifier) {
		// Compare against something all the same, so that an unknown
		// role takes as long as a wrong password.
		verifier = "md5" + strings.Repeat("0", 32)
		response += "\x00"
	}
	sum := md5.Sum(append([]byte(verifier[3:]), salt[:]...))
	want := "md5" + hex.EncodeToString(sum[:])
	return subtle.ConstantTimeCompare([]byte(want), []byte(response)) == 1
}
