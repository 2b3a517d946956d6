package ratings

import (
	"math"
	"testing"
)

func close(got, want, tol float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || (math.IsNaN(got) && math.IsNaN(want))
	}
	return math.Abs(got-want) <= tol
}

func TestStudentTQuantileTable(t *testing.T) {
	// Reference values from standard t tables (e.g. NIST/SEMATECH
	// e-Handbook, Table 1.3.6.7.2), given to the table's precision.
	tests := []struct {
		p, df, want, tol float64
	}{
		{0.975, 1, 12.7062047, 1e-6},
		{0.975, 2, 4.30265273, 1e-7},
		{0.975, 5, 2.57058184, 1e-7},
		{0.975, 10, 2.22813885, 1e-7},
		{0.975, 30, 2.04227246, 1e-7},
		{0.975, 100, 1.98397152, 1e-7},
		{0.975, 1000, 1.96233908, 1e-7},
		{0.995, 10, 3.16927267, 1e-7},
		{0.95, 20, 1.72471824, 1e-7},
		{0.9, 3, 1.63774435, 1e-7},
		{0.025, 10, -2.22813885, 1e-7},
		{0.5, 7, 0, 0},
		{0.975, 1e6, 1.95996636, 1e-7}, // z + (z^3+z)/(4df)
		{0.975, math.Inf(1), 1.95996398, 1e-7},
	}
	for _, tc := range tests {
		got := studentTQuantile(tc.p, tc.df)
		if !close(got, tc.want, tc.tol) {
			t.Errorf("studentTQuantile(%g, %g) = %.9f, want %.9f", tc.p, tc.df, got, tc.want)
		}
	}
}

func TestStudentTQuantileClosedForms(t *testing.T) {
	// df=1 is the Cauchy distribution: t = tan(pi(p-1/2)).
	// df=2 has t = (2p-1)/sqrt(2p(1-p)).
	for _, p := range []float64{0.001, 0.01, 0.1, 0.3, 0.6, 0.75, 0.9, 0.99, 0.999} {
		want1 := math.Tan(math.Pi * (p - 0.5))
		if got := studentTQuantile(p, 1); math.Abs(got-want1) > 1e-9*math.Max(1, math.Abs(want1)) {
			t.Errorf("df=1 p=%g: got %.12g want %.12g", p, got, want1)
		}
		want2 := (2*p - 1) / math.Sqrt(2*p*(1-p))
		if got := studentTQuantile(p, 2); math.Abs(got-want2) > 1e-9*math.Max(1, math.Abs(want2)) {
			t.Errorf("df=2 p=%g: got %.12g want %.12g", p, got, want2)
		}
	}
}

func TestStudentTRoundTrip(t *testing.T) {
	for _, df := range []float64{1, 2.5, 4, 9, 29, 150, 5000, 99999} {
		for _, p := range []float64{0.0005, 0.05, 0.3, 0.5, 0.8, 0.975, 0.9995} {
			q := studentTQuantile(p, df)
			if got := studentTCDF(q, df); math.Abs(got-p) > 1e-10 {
				t.Errorf("CDF(quantile(%g, df=%g)) = %.12g", p, df, got)
			}
		}
	}
}

func TestStudentTQuantileContinuousAtLargeDF(t *testing.T) {
	// The switch from exact inversion to Cornish-Fisher must not jump.
	a := studentTQuantile(0.975, largeDF)
	b := studentTQuantile(0.975, math.Nextafter(largeDF, math.Inf(1)))
	if math.Abs(a-b) > 1e-9 {
		t.Errorf("jump at largeDF: %.12g vs %.12g", a, b)
	}
}

func TestStudentTQuantileDecreasesWithDF(t *testing.T) {
	prev := math.Inf(1)
	for df := 1.0; df < 1e7; df *= 1.7 {
		q := studentTQuantile(0.975, df)
		if !(q < prev) {
			t.Fatalf("quantile not decreasing at df=%g: %g after %g", df, q, prev)
		}
		prev = q
	}
}

func TestRegIncBeta(t *testing.T) {
	tests := []struct{ a, b, x, want float64 }{
		{1, 1, 0.3, 0.3},                    // uniform
		{2, 1, 0.5, 0.25},                   // x^2
		{1, 3, 0.2, 1 - 0.8*0.8*0.8},        // 1-(1-x)^3
		{0.5, 0.5, 0.5, 0.5},                // symmetric
		{2, 2, 0.25, 3*0.0625 - 2*0.015625}, // 3x^2-2x^3
	}
	for _, tc := range tests {
		if got := regIncBeta(tc.a, tc.b, tc.x); math.Abs(got-tc.want) > 1e-13 {
			t.Errorf("I_%g(%g,%g) = %.15g want %.15g", tc.x, tc.a, tc.b, got, tc.want)
		}
	}
}

func TestNormalQuantile(t *testing.T) {
	// math.Erfcinv loses relative precision far in the tail (it is
	// computed as Erfinv(1-x)), hence the looser tolerance at 1e-10;
	// confidence levels never go there.
	tests := []struct{ p, want, tol float64 }{
		{0.975, 1.959963984540054, 1e-12},
		{0.5, 0, 0},
		{0.995, 2.5758293035489004, 1e-12},
		{0.025, -1.959963984540054, 1e-12},
		{1e-10, -6.361340902404056, 1e-7},
	}
	for _, tc := range tests {
		if got := normalQuantile(tc.p); math.Abs(got-tc.want) > tc.tol {
			t.Errorf("normalQuantile(%g) = %.15g want %.15g", tc.p, got, tc.want)
		}
	}
}

func TestDistEdges(t *testing.T) {
	if !math.IsInf(normalQuantile(0), -1) || !math.IsInf(normalQuantile(1), 1) || !math.IsNaN(normalQuantile(1.5)) {
		t.Error("normalQuantile edges")
	}
	if !math.IsInf(studentTQuantile(1, 3), 1) || !math.IsInf(studentTQuantile(0, 3), -1) || !math.IsNaN(studentTQuantile(0.9, 0)) {
		t.Error("studentTQuantile edges")
	}
	if studentTCDF(math.Inf(1), 3) != 1 || studentTCDF(math.Inf(-1), 3) != 0 || !math.IsNaN(studentTCDF(1, -1)) {
		t.Error("studentTCDF edges")
	}
	if got := studentTCDF(1.959963984540054, math.Inf(1)); !close(got, 0.975, 1e-12) {
		t.Errorf("studentTCDF(z, Inf) = %g", got)
	}
	if !math.IsNaN(regIncBeta(1, 1, 2)) || regIncBeta(2, 3, 0) != 0 || regIncBeta(2, 3, 1) != 1 {
		t.Error("regIncBeta edges")
	}
}
