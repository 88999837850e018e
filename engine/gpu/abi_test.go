package gpu

import (
	"testing"
	"unsafe"
)

// TestABI checks the Go mirrors against the sizes and offsets of the
// structs of cuda/query.cu (x86-64 and the CUDA ABI agree on natural
// alignment).
func TestABI(t *testing.T) {
	cases := []struct {
		name string
		got  uintptr
		want uintptr
	}{
		{"QIns", unsafe.Sizeof(qIns{}), 32},
		{"QIns.imm", unsafe.Offsetof(qIns{}.Imm), 24},
		{"QCol", unsafe.Sizeof(qCol{}), 24},
		{"CmpTerm", unsafe.Sizeof(cmpTerm{}), 32},
		{"ColKey", unsafe.Sizeof(colKey{}), 48},
		{"ColKey.lo", unsafe.Offsetof(colKey{}.Lo), 24},
		{"QConst", unsafe.Sizeof(qConst{}), 24},
		{"QErr", unsafe.Sizeof(qErr{}), 16},
		{"QAgg", unsafe.Sizeof(qAgg{}), 16},
		{"QAcc", unsafe.Sizeof(qAcc{}), 32},
		{"QKey", unsafe.Sizeof(qKey{}), 48},
		{"QKey.lo", unsafe.Offsetof(qKey{}.Lo), 16},
		{"QArgs", unsafe.Sizeof(qArgs{}), 14*8 + 8 + 8*4 + 16 + 16},
		{"QArgs.regs", unsafe.Offsetof(qArgs{}.Regs), 14*8 + 8 + 8*4 + 16},
		{"QArgs.nregs", unsafe.Offsetof(qArgs{}.NRegs), 14*8 + 8 + 8*4 + 24},
		{"QArgs.scratch", unsafe.Offsetof(qArgs{}.Scratch), 14*8 + 8 + 8*4},
		{"QArgs.n", unsafe.Offsetof(qArgs{}.N), 14 * 8},
		{"QArgs.accgroups", unsafe.Offsetof(qArgs{}.AccGroups), 14*8 + 8 + 7*4},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
}
