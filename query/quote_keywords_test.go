package query

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestQuoteKeywordsMatchGPU checks that the keyword list of the GPU's
// quote_ident (tlKeywords in cuda/query.cu) is reservedKeywords.
func TestQuoteKeywordsMatchGPU(t *testing.T) {
	src, err := os.ReadFile("../cuda/query.cu")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)char tlKeywords\[\] =(.*?);`).FindSubmatch(src)
	if m == nil {
		t.Fatal("cuda/query.cu has no tlKeywords")
	}
	var gpu []string
	for _, lit := range regexp.MustCompile(`"([^"]*)"`).FindAllSubmatch(m[1], -1) {
		if !strings.HasSuffix(string(lit[1]), " ") {
			t.Errorf("tlKeywords: %q does not end in a blank", lit[1])
		}
		gpu = append(gpu, strings.Fields(string(lit[1]))...)
	}
	var cpu []string
	for w := range reservedKeywords {
		cpu = append(cpu, w)
	}
	sort.Strings(gpu)
	sort.Strings(cpu)
	if strings.Join(gpu, " ") != strings.Join(cpu, " ") {
		t.Errorf("tlKeywords and reservedKeywords differ:\n gpu %v\n cpu %v", gpu, cpu)
	}
}
