package fibs

import "testing"

func BenchmarkParse(b *testing.B) {
	for _, c := range []struct{ name, line string }{
		{"board", "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"},
		{"moves", "gflohr moves 17-20 17-20 19-20 19-20 ."},
		{"who", "5 GibbonTestA barrack - 0 0 1418.61 1914 23 1306926526 173.223.48.110 Gibbon_0.1.1 president@whitehouse.gov"},
		{"matchend", "GibbonTestA wins the 3 point match 3-0 ."},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Parse(c.line)
			}
		})
	}
}
