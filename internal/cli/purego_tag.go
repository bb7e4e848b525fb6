//go:build purego

package cli

// Purego notes the build tag in messages about missing implementations.
const Purego = ", -tags purego"
