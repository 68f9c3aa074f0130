package procmem

import (
	"bytes"
	"strconv"
)

// parseStatus reads the RssAnon, RssFile and VmHWM lines ("RssAnon:	  1234 kB") of a
// status file; ok is false unless RssAnon and RssFile are there (kernels before 4.5).
func parseStatus(b []byte) (u Usage, ok bool) {
	var anon, file bool
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		key, val, found := bytes.Cut(line, []byte(":"))
		if !found {
			continue
		}
		var dst *int64
		switch string(key) {
		case "RssAnon":
			dst, anon = &u.Anon, true
		case "RssFile":
			dst, file = &u.File, true
		case "VmHWM":
			dst = &u.HWM
		default:
			continue
		}
		f := bytes.Fields(val)
		if len(f) != 2 || string(f[1]) != "kB" {
			return Usage{}, false
		}
		n, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return Usage{}, false
		}
		*dst = n << 10
	}
	return u, anon && file
}
