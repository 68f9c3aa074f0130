package main

import "example.com/lazybackup"
import "github.com/ravelmc/ravel/ravelcli"

func main() { ravelcli.Main(ravelcli.Systems(lazybackup.System)) }
