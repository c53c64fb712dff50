// The theory the quantization lab's measurements are checked against: N(0, 1) on the symmetric
// narrow grid (2L+1 levels k s, L = 2^(b-1)-1, s = clip / L). Every value rounds to the nearest
// level; beyond the clip it saturates to +-clip. The exact MSE is a sum over the levels' rounding
// intervals of closed-form Gaussian integrals,
//   int_l^u (x - a)^2 phi(x) dx = [(1 + a^2) Phi(x) + (2a - x) phi(x)]_l^u,
// and the textbook approximation treats rounding as uniform noise s^2/12 inside the clip plus the
// clipping noise 2 int_c^inf (x - c)^2 phi = 2 [(1 + c^2) Q(c) - c phi(c)] outside it (Widrow and
// Kollar, "Quantization Noise", 2008; Banner et al., "ACIQ", 2019).
#pragma once

namespace warpscope::numerics {

// Mean squared error of N(0, 1) quantized with `bits` bits and clip c: exact.
double gaussianQuantMse(int bits, double clip);
// The same, by the uniform-noise approximation.
double gaussianQuantMseApprox(int bits, double clip);
// The clip that minimises gaussianQuantMse (golden-section search, to 1e-9 sigma).
double gaussianMseOptimalClip(int bits);
// c with P(|x| <= c) = p / 100 for x ~ N(0, 1) (p in (0, 100)).
double gaussianAbsPercentile(double p);
// Expected maximum of |x| over n samples of N(0, 1): the median, solving (1 - 2 Q(c))^n = 1/2.
double gaussianMedianAbsMax(double n);

} // namespace warpscope::numerics
