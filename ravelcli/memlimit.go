package ravelcli

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// defaultMemLimit is lincheck's --mem-limit when none is given: three quarters of the
// memory the process may use — its cgroup's limit if it has one, else the machine's —
// so that a check too large for the machine ends with the verdict unknown rather than
// an out-of-memory kill. Where neither can be read, 4 GiB.
func defaultMemLimit() int64 {
	avail := int64(0)
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 {
			avail = n
		}
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) >= 2 && fields[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil && kb > 0 && (avail == 0 || kb<<10 < avail) {
					avail = kb << 10
				}
			}
		}
		f.Close()
	}
	if avail == 0 {
		return 4 << 30
	}
	return avail / 4 * 3
}
