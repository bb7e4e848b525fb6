//go:build purego

package main

// purego notes the build tag in messages about missing implementations.
const purego = ", -tags purego"
