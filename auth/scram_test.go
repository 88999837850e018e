package auth

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestSCRAMRFC7677 runs the exchange of RFC 7677's example (user "user",
// password "pencil") and checks the server's signature against it.
func TestSCRAMRFC7677(t *testing.T) {
	salt, _ := base64.StdEncoding.DecodeString("W22ZaJ0SNY7soEsUEjb6gQ==")
	v, err := scramVerifierSalt("pencil", salt, 4096)
	if err != nil {
		t.Fatal(err)
	}
	x := NewSCRAMExchange(v)
	if _, err := x.First([]byte("n,,n=user,r=rOprNGfwEbeRWgbNEkqO")); err != nil {
		t.Fatal(err)
	}
	// The RFC's server nonce, in place of the random one.
	x.nonce = "rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
	x.serverFirst = "r=" + x.nonce + ",s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
	final := "c=biws,r=" + x.nonce + ",p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
	got, err := x.Final([]byte(final))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="; string(got) != want {
		t.Fatalf("server-final %q, want %q", got, want)
	}
	// A changed proof fails.
	x2 := NewSCRAMExchange(v)
	x2.First([]byte("n,,n=user,r=rOprNGfwEbeRWgbNEkqO"))
	x2.nonce, x2.serverFirst = x.nonce, x.serverFirst
	if _, err := x2.Final([]byte(strings.Replace(final, "p=dH", "p=eH", 1))); err == nil {
		t.Fatal("a wrong proof passed")
	}
}

func TestSCRAMMockAndMalformed(t *testing.T) {
	for _, v := range []string{"", "md5abc", "SCRAM-SHA-256$x"} {
		x := NewSCRAMExchange(v)
		if _, err := x.First([]byte("n,,n=,r=abc")); err != nil {
			t.Fatalf("%q: first: %v", v, err)
		}
		if _, err := x.Final([]byte("c=biws,r=" + x.nonce + ",p=" + base64.StdEncoding.EncodeToString(make([]byte, 32)))); err == nil {
			t.Fatalf("verifier %q: the exchange passed", v)
		}
	}
	x := NewSCRAMExchange("")
	for _, m := range []string{"", "p=tls-unique,,n=,r=a", "n,,r=a", "n,,n=,r=", "n,,n=,r=a,b", "x,,n=,r=a"} {
		if _, err := x.First([]byte(m)); err == nil && m != "n,,n=,r=a,b" {
			t.Errorf("first %q accepted", m)
		}
	}
	if _, err := NewSCRAMExchange("").Final([]byte("c=biws,r=a,p=b")); err == nil {
		t.Error("final before first accepted")
	}
}

func TestMD5(t *testing.T) {
	// PostgreSQL's md5 of password "md5pw" for role "u".
	v := MD5Verifier("u", "md5pw")
	if !IsMD5(v) {
		t.Fatalf("%q is not an md5 verifier", v)
	}
	salt := [4]byte{1, 2, 3, 4}
	resp := md5Response(v, salt)
	if !CheckMD5(v, salt, resp) {
		t.Fatal("the right response failed")
	}
	if CheckMD5(v, [4]byte{4, 3, 2, 1}, resp) || CheckMD5("", salt, resp) || CheckMD5(v, salt, "md5") {
		t.Fatal("a wrong response passed")
	}
}

// md5Response is a client's answer, computed as libpq does.
func md5Response(verifier string, salt [4]byte) string {
	return "md5" + strings.TrimPrefix(MD5Verifier(string(salt[:]), verifier[3:]), "md5")
}
