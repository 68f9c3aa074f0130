module github.com/ravelmc/ravel

go 1.26

require (
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/mitchellh/copystructure v1.2.0
)

require (
	github.com/mitchellh/reflectwalk v1.0.2 // indirect
	go.yaml.in/yaml/v3 v3.0.4 // indirect
)
