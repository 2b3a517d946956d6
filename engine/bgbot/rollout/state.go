package rollout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/gamemill/gamemill/internal/atomicfile"
)

// stateFormat names the layout of a saved rollout. Layout 1 had no trial
// weights and rolled out without bearoff truncation and with the cubeless
// luck correction, which is how Load reads it.
const (
	stateFormat   = "gamemill-rollout-2"
	stateFormatV1 = "gamemill-rollout-1"
)

type savedRollout struct {
	Format string `json:"format"`
	*Rollout
}

// Save writes the rollout to path whole or not at all. The sums are
// written as the shortest decimals that read back to the same float64s, so
// a rollout loaded and run on adds up exactly as one never saved.
func (r *Rollout) Save(path string) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(savedRollout{Format: stateFormat, Rollout: r})
	})
}

// Load reads a rollout saved by Save.
func Load(path string) (*Rollout, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load rollout: %w", err)
	}
	saved := savedRollout{Rollout: &Rollout{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&saved); err != nil {
		return nil, fmt.Errorf("load rollout %s: %w", path, err)
	}
	switch saved.Format {
	case stateFormat:
	case stateFormatV1:
		set := &saved.Settings
		set.NoBearoffTruncation, set.CubelessLuck, set.Stratify = true, set.Cubeful, 36
		for i := range saved.Alternatives {
			a := &saved.Alternatives[i]
			a.Weight, a.WeightSq = float64(a.Trials), float64(a.Trials)
		}
	default:
		return nil, fmt.Errorf("load rollout %s: format %q, want %q", path, saved.Format, stateFormat)
	}
	for i, a := range saved.Alternatives {
		if a.Trials < 0 || a.Weight < 0 || a.WeightSq < 0 || (a.Trials > 0 && a.Fixed == nil && a.Weight == 0) {
			return nil, fmt.Errorf("load rollout %s: alternative %d (%s): %d trials of weight %v", path, i+1, a.Name, a.Trials, a.Weight)
		}
	}
	return saved.Rollout, nil
}

// SameQuestion reports whether o rolls out the same alternatives as r
// with the same settings and rules, so that o's trials can go on where
// r's stopped; the error says what differs.
func (r *Rollout) SameQuestion(o *Rollout) error {
	if r.Settings != o.Settings {
		return fmt.Errorf("settings differ: %+v, now %+v", r.Settings, o.Settings)
	}
	if r.Rules != o.Rules {
		return fmt.Errorf("rules differ: %+v, now %+v", r.Rules, o.Rules)
	}
	if len(r.Alternatives) != len(o.Alternatives) {
		return fmt.Errorf("%d alternatives, now %d", len(r.Alternatives), len(o.Alternatives))
	}
	for i := range r.Alternatives {
		a, b := &r.Alternatives[i], &o.Alternatives[i]
		if a.Name != b.Name || a.PositionID != b.PositionID || a.MatchID != b.MatchID || a.NoDoubleFirst != b.NoDoubleFirst ||
			a.Invert != b.Invert || a.BaseCube != b.BaseCube || (a.Fixed == nil) != (b.Fixed == nil) {
			return fmt.Errorf("alternative %d differs: %s (%s:%s), now %s (%s:%s)", i+1, a.Name, a.PositionID, a.MatchID, b.Name, b.PositionID, b.MatchID)
		}
	}
	return nil
}
