package procmem

import (
	"testing"
)

func TestParseStatus(t *testing.T) {
	const status = "Name:\travel\nVmHWM:\t  20480 kB\nVmRSS:\t   10240 kB\nRssAnon:\t    6144 kB\nRssFile:\t    4096 kB\nRssShmem:\t       0 kB\n"
	u, ok := parseStatus([]byte(status))
	if !ok || u != (Usage{Anon: 6144 << 10, File: 4096 << 10, HWM: 20480 << 10}) {
		t.Errorf("parseStatus = %+v, %v", u, ok)
	}
	for _, bad := range []string{"", "VmHWM:\t1 kB\n", "RssAnon:\t1 MB\nRssFile:\t1 kB\n", "RssAnon:\tx kB\nRssFile:\t1 kB\n"} {
		if u, ok := parseStatus([]byte(bad)); ok {
			t.Errorf("parseStatus(%q) = %+v, true; want not ok", bad, u)
		}
	}
}
