package perceptron

import "fmt"

// Kind is the shape of a kernel model: how many expansions it has and how
// it turns scores into a label. It is stored in model files. (A linear
// model's shape is linear.Kind.)
type Kind uint8

// String returns "kernel-binary", "kernel-ovr" or "kernel-argmax".
func (k Kind) String() string {
	switch k {
	case KindKernelBinary:
		return "kernel-binary"
	case KindKernelOneVsRest:
		return "kernel-ovr"
	case KindKernelArgmax:
		return "kernel-argmax"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}
