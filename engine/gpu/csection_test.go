package gpu

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// querySection is cuda/query.cu from the line "// ---- begin" up to the
// line "// ---- end": a part of the kernels that is plain C under its
// macros, which the C twin tests compile with the host's compiler.
func querySection(t *testing.T, begin, end string) string {
	t.Helper()
	s := queryCU(t)
	i := strings.Index(s, "// ---- "+begin)
	j := strings.Index(s, "// ---- "+end)
	if i < 0 || j < i {
		t.Fatalf("query.cu has no section from %q to %q", begin, end)
	}
	return s[i:j]
}

// queryCU is the text of cuda/query.cu.
func queryCU(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "cuda", "query.cu"))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}
