package kernel

// Exports for the tests of package kernel_test.

// EnvVar is the environment variable that caps the implementation.
const EnvVar = envVar

// Best returns the best implementation this CPU can run, ignoring EnvVar.
func Best() *Impl { return best() }
