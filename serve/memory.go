package serve

import (
	"bufio"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// memoryLimit is MemoryLimit.
func memoryLimit() (int64, string) {
	if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
		return l, "GOMEMLIMIT"
	}
	phys, src := physicalMemory()
	if l, ok := cgroupLimit(); ok && l > 0 && (phys <= 0 || l < phys) {
		return l, "the cgroup's memory limit"
	}
	return phys, src
}

// cgroupLimit reads the memory limit of this process's control group:
// cgroup v2's memory.max or cgroup v1's memory.limit_in_bytes, under
// /sys/fs/cgroup, for the group /proc/self/cgroup names and then for the
// root of the mount (a container sees its own group there).
func cgroupLimit() (int64, bool) {
	var v2, v1 string
	if f, err := os.Open("/proc/self/cgroup"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// hierarchy-ID:controller-list:cgroup-path
			parts := strings.SplitN(sc.Text(), ":", 3)
			if len(parts) != 3 {
				continue
			}
			switch {
			case parts[0] == "0" && parts[1] == "":
				v2 = parts[2]
			case strings.Contains(","+parts[1]+",", ",memory,"):
				v1 = parts[2]
			}
		}
		f.Close()
	}
	var try []string
	if v2 != "" {
		try = append(try, "/sys/fs/cgroup"+v2+"/memory.max")
	}
	if v1 != "" {
		try = append(try, "/sys/fs/cgroup/memory"+v1+"/memory.limit_in_bytes")
	}
	try = append(try, "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")
	for _, p := range try {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			return 0, false
		}
		if l, err := strconv.ParseInt(s, 10, 64); err == nil && l > 0 {
			return l, true
		}
	}
	return 0, false
}
