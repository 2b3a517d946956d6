package ratings

import "math"

// normalQuantile returns z such that P(Z <= z) = p for a standard normal Z.
// It uses Phi^{-1}(p) = -sqrt(2)*erfcinv(2p). Go's Erfcinv is accurate to
// about 1e-12 relative for the probabilities confidence levels use, less
// (about 1e-9) far in the tail, such as p = 1e-10.
func normalQuantile(p float64) float64 {
	switch {
	case math.IsNaN(p) || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	}
	return -math.Sqrt2 * math.Erfcinv(2*p)
}

// normalCDF returns P(Z <= z) for a standard normal Z.
func normalCDF(z float64) float64 {
	return 0.5 * math.Erfc(-z/math.Sqrt2)
}

// twoSidedQuantile converts a two-sided confidence level into the upper
// quantile probability (1+level)/2, or NaN for a level outside (0, 1).
func twoSidedQuantile(level float64) float64 {
	if !(level > 0 && level < 1) {
		return math.NaN()
	}
	return (1 + level) / 2
}

// regIncBeta returns the regularized incomplete beta function I_x(a, b)
// for a, b > 0 and 0 <= x <= 1.
//
// It evaluates the continued fraction of Abramowitz & Stegun 26.5.8 with
// the modified Lentz method (Lentz 1976; Thompson & Barnett 1986), using
// the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) so that the fraction is always
// evaluated where it converges quickly, x < (a+1)/(a+b+2).
func regIncBeta(a, b, x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsNaN(a) || math.IsNaN(b) || a <= 0 || b <= 0 || x < 0 || x > 1:
		return math.NaN()
	case x == 0:
		return 0
	case x == 1:
		return 1
	}
	if x > (a+1)/(a+b+2) {
		return 1 - regIncBeta(b, a, 1-x)
	}
	lga, _ := math.Lgamma(a)
	lgb, _ := math.Lgamma(b)
	lgab, _ := math.Lgamma(a + b)
	// Prefactor x^a (1-x)^b / (a B(a,b)), in logs to avoid overflow.
	front := math.Exp(a*math.Log(x) + b*math.Log1p(-x) - (lga + lgb - lgab) - math.Log(a))
	return front * betaContinuedFraction(a, b, x)
}

// betaContinuedFraction evaluates 1/(1+ d1/(1+ d2/(1+ ...))) where
//
//	d_{2m+1} = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1))
//	d_{2m}   =  m(b-m)x       / ((a+2m-1)(a+2m))
//
// by the modified Lentz method.
func betaContinuedFraction(a, b, x float64) float64 {
	const (
		tiny    = 1e-300
		eps     = 1e-15
		maxIter = 100000
	)
	clamp := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	// f = 1/(1 + d1/(1 + d2/(...))): start with the leading "1 +" term.
	c := 1.0
	d := 1 / clamp(1-(a+b)*x/(a+1)) // d1 = -(a)(a+b)x/(a(a+1))
	f := d
	for m := 1; m <= maxIter; m++ {
		fm := float64(m)
		// Even step d_{2m}.
		num := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		d = 1 / clamp(1+num*d)
		c = clamp(1 + num/c)
		f *= d * c
		// Odd step d_{2m+1}.
		num = -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))
		d = 1 / clamp(1+num*d)
		c = clamp(1 + num/c)
		delta := d * c
		f *= delta
		if math.Abs(delta-1) < eps {
			break
		}
	}
	return f
}

// studentTCDF returns P(T <= t) for Student's t distribution with df > 0
// degrees of freedom, via P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2)
// (Abramowitz & Stegun 26.7.1 with 26.5.27).
func studentTCDF(t, df float64) float64 {
	if math.IsNaN(t) || math.IsNaN(df) || df <= 0 {
		return math.NaN()
	}
	if math.IsInf(df, 1) {
		return normalCDF(t)
	}
	if math.IsInf(t, 0) {
		if t > 0 {
			return 1
		}
		return 0
	}
	tail := 0.5 * regIncBeta(df/2, 0.5, df/(df+t*t))
	if t > 0 {
		return 1 - tail
	}
	return tail
}

// largeDF is the number of degrees of freedom above which studentTQuantile
// switches from inverting the exact CDF to the Cornish-Fisher expansion
// about the normal quantile. At this df the expansion's first omitted term
// is below 1e-14 for the levels reports use.
const largeDF = 1e5

// studentTQuantile returns t such that P(T <= t) = p for Student's t with
// df > 0 degrees of freedom (df may be fractional or +Inf).
//
// For df <= largeDF it inverts the exact CDF by bracketing and bisection,
// which is slow-ish (a few hundred incomplete-beta evaluations) but robust.
// For larger df it uses the Cornish-Fisher expansion of Abramowitz &
// Stegun 26.7.5, which converges to the normal quantile as df grows.
func studentTQuantile(p, df float64) float64 {
	switch {
	case math.IsNaN(p) || math.IsNaN(df) || p < 0 || p > 1 || df <= 0:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	case p < 0.5:
		return -studentTQuantile(1-p, df)
	}
	z := normalQuantile(p)
	if df > largeDF {
		z2 := z * z
		g1 := (z2 + 1) * z / 4
		g2 := ((5*z2+16)*z2 + 3) * z / 96
		g3 := (((3*z2+19)*z2+17)*z2 - 15) * z / 384
		g4 := ((((79*z2+776)*z2+1482)*z2-1920)*z2 - 945) * z / 92160
		return z + g1/df + g2/(df*df) + g3/(df*df*df) + g4/(df*df*df*df)
	}
	// The t quantile is at least the normal one for p > 0.5; grow the
	// upper end of the bracket until it covers p.
	lo, hi := z, 2*z+1
	for studentTCDF(hi, df) < p {
		lo = hi
		hi *= 2
		if math.IsInf(hi, 1) {
			return hi
		}
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if studentTCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}
