package cuda

import "syscall"

func gettid() int { return syscall.Gettid() }
