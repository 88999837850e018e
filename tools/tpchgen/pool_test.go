package main

import (
	"bytes"
	"testing"
	"time"
)

// TestTextPool checks that buildTextPool makes go-tpc's text pool byte for
// byte and leaves random stream 5 as go-tpc's initTextPool does (15 to 30
// seconds: it runs go-tpc's builder).
func TestTextPool(t *testing.T) {
	initDbGen(1) // reads the word lists once
	initSeeds()
	start := time.Now()
	goTPCTextPool()
	t.Logf("go-tpc's initTextPool: %.1fs", time.Since(start).Seconds())
	want, wantSeed := szTextPool, seeds[poolStream]
	szTextPool = nil
	initSeeds()
	start = time.Now()
	buildTextPool()
	t.Logf("buildTextPool: %.1fs", time.Since(start).Seconds())
	if len(szTextPool) != len(want) {
		t.Fatalf("pool of %d bytes, want %d", len(szTextPool), len(want))
	}
	if !bytes.Equal(szTextPool, want) {
		for i := range want {
			if szTextPool[i] != want[i] {
				t.Fatalf("pools differ from byte %d: %q, want %q", i, szTextPool[i:min(i+60, len(want))], want[i:min(i+60, len(want))])
			}
		}
	}
	if seeds[poolStream] != wantSeed {
		t.Errorf("stream 5 after the pool: %+v, want %+v", seeds[poolStream], wantSeed)
	}
}
