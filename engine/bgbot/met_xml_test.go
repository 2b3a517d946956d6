package bgbot

import (
	"math"
	"testing"
)

func TestDefaultMET(t *testing.T) {
	m, err := DefaultMET()
	if err != nil {
		t.Fatal(err)
	}
	if m.Len != 25 {
		t.Fatalf("length %d, want 25", m.Len)
	}
	// Entries of the published table: the Crawford game at 1-away/2-away,
	// post-Crawford 2-away and 4-away, 3-away/5-away.
	for _, c := range []struct {
		me, opp int
		post    bool
		want    float64
	}{
		{1, 2, false, 0.67736},
		{2, 1, true, 0.48803},
		{4, 1, true, 0.31002},
		{3, 5, false, 0.64795},
		{1, 1, false, 0.5},
		{0, 3, false, 1},
	} {
		if got := m.Win(c.me, c.opp, c.post); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Win(%d, %d, %v) = %v, want %v", c.me, c.opp, c.post, got, c.want)
		}
	}
	// Complementary and monotone, as a table of match chances must be.
	for a := 1; a <= 25; a++ {
		for b := 1; b <= 25; b++ {
			if s := m.Win(a, b, false) + m.Win(b, a, false); math.Abs(s-1) > 1e-4 {
				t.Errorf("Win(%d,%d) + Win(%d,%d) = %v", a, b, b, a, s)
			}
			if a > 1 && m.Win(a, b, false) > m.Win(a-1, b, false)+1e-9 {
				t.Errorf("needing %d is better than needing %d against %d", a, a-1, b)
			}
		}
	}
}

func TestParseMETXMLErrors(t *testing.T) {
	for name, doc := range map[string]string{
		"not xml":    "<met",
		"no length":  "<met><info></info></met>",
		"short rows": `<met><info><length>2</length></info><pre-crawford-table type="explicit"><row><me>0.5</me></row><row><me>0.5</me><me>0.5</me></row></pre-crawford-table><post-crawford-table type="explicit" player="both"><row><me>0.5</me><me>0.4</me></row></post-crawford-table></met>`,
		"above one":  `<met><info><length>2</length></info><pre-crawford-table type="explicit"><row><me>0.5</me><me>1.5</me></row><row><me>0.5</me><me>0.5</me></row></pre-crawford-table><post-crawford-table type="explicit" player="both"><row><me>0.5</me><me>0.4</me></row></post-crawford-table></met>`,
		"no post":    `<met><info><length>2</length></info><pre-crawford-table type="explicit"><row><me>0.5</me><me>0.7</me></row><row><me>0.3</me><me>0.5</me></row></pre-crawford-table></met>`,
	} {
		if _, err := ParseMETXML([]byte(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// metFuzzMax is the largest input FuzzParseMETXML parses: room for a
// table of a few points, the sizes where the parser's checks differ.
const metFuzzMax = 4 << 10

func FuzzParseMETXML(f *testing.F) {
	// Small seeds only, and inputs past metFuzzMax skipped: the fuzzer
	// minimises each new input byte by byte, and at the full Kazaross
	// table's size (TestDefaultMET parses it) that took the whole
	// fuzz time, leaving it at 0 executions a second. The seeds keep the
	// shape of gnubg's files: declaration, comment, info block.
	f.Add([]byte(`<?xml version="1.0" encoding="ISO-8859-1" ?>
<!-- a three-point table in gnubg's layout -->
<met><info><name>small</name><description>test</description><length>3</length></info>
<pre-crawford-table type="explicit">
<row><me>0.5</me><me>0.68</me><me>0.75</me></row>
<row><me>0.32</me><me>0.5</me><me>0.6</me></row>
<row><me>0.25</me><me>0.4</me><me>0.5</me></row>
</pre-crawford-table>
<post-crawford-table type="explicit" player="both"><row><me>0.5</me><me>0.49</me><me>0.32</me></row></post-crawford-table>
</met>`))
	f.Add([]byte(`<met><info><length>2</length></info><pre-crawford-table type="explicit"><row><me>0.5</me><me>0.7</me></row><row><me>0.3</me><me>0.5</me></row></pre-crawford-table><post-crawford-table type="explicit" player="both"><row><me>0.5</me><me>0.4</me></row></post-crawford-table></met>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > metFuzzMax {
			return
		}
		m, err := ParseMETXML(data)
		if err != nil {
			return
		}
		for a := 0; a <= m.Len+1; a++ {
			for b := 0; b <= m.Len+1; b++ {
				for _, pc := range []bool{false, true} {
					if v := m.Win(a, b, pc); !(v >= 0 && v <= 1) {
						t.Fatalf("Win(%d, %d, %v) = %v", a, b, pc, v)
					}
				}
			}
		}
	})
}
