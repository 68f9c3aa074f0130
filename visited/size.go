package visited

import (
	"fmt"
	"math/big"
	"strings"
)

// sizeUnits are the units ParseSize accepts, lower-cased: SI (powers of 1000) and IEC
// (powers of 1024).
var sizeUnits = map[string]int64{
	"":    1,
	"b":   1,
	"kb":  1e3,
	"mb":  1e6,
	"gb":  1e9,
	"tb":  1e12,
	"kib": 1 << 10,
	"mib": 1 << 20,
	"gib": 1 << 30,
	"tib": 1 << 40,
}

// ParseSize parses a byte count such as "4096", "64KiB", "512MiB", "2GiB", "100MB" or
// "1.5 GiB". Units are B, KB, MB, GB, TB (powers of 1000) and KiB, MiB, GiB, TiB
// (powers of 1024), in any letter case, with or without a space after the number. A
// fractional count is rounded down to whole bytes. The bare letters K, M, G and T are
// refused as ambiguous, as are negative sizes and sizes beyond math.MaxInt64; the error
// names the input and says what is accepted.
func ParseSize(s string) (int64, error) {
	bad := func(why string) (int64, error) {
		return 0, fmt.Errorf("bad size %q: %s", s, why)
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return bad("empty (write a byte count such as 512MiB)")
	}
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	if num == "" {
		if t[0] == '-' {
			return bad("negative")
		}
		return bad("no number (write a byte count such as 512MiB)")
	}
	whole, frac, hasDot := strings.Cut(num, ".")
	if strings.Contains(frac, ".") || (whole == "" && frac == "") || (hasDot && frac == "") {
		return bad(fmt.Sprintf("%q is not a number", num))
	}
	mult, ok := sizeUnits[strings.ToLower(unit)]
	if !ok {
		switch strings.ToLower(unit) {
		case "k", "m", "g", "t":
			u := strings.ToUpper(unit)
			return bad(fmt.Sprintf("ambiguous unit %q: write %siB (powers of 1024) or %sB (powers of 1000)", unit, u, u))
		}
		return bad(fmt.Sprintf("unknown unit %q (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)", unit))
	}
	// Exact arithmetic: whole.frac × mult, rounded down.
	r, ok := new(big.Rat).SetString("0" + whole + "." + frac + "0")
	if !ok {
		return bad(fmt.Sprintf("%q is not a number", num))
	}
	r.Mul(r, new(big.Rat).SetInt64(mult))
	n := new(big.Int).Quo(r.Num(), r.Denom())
	if !n.IsInt64() {
		return bad("too large")
	}
	return n.Int64(), nil
}
