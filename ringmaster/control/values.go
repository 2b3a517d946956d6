package control

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// typeName describes a decoded TOML value for error messages.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date-time"
	}
	return fmt.Sprintf("a %T", v)
}

func (l *loader) wrongType(p keyPath, want string, v any) {
	l.errorf(p, "must be %s, not %s", want, typeName(v))
}

func (l *loader) str(p keyPath, v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		l.wrongType(p, "a string", v)
	}
	return s, ok
}

func (l *loader) boolean(p keyPath, v any) (bool, bool) {
	b, ok := v.(bool)
	if !ok {
		l.wrongType(p, "true or false", v)
	}
	return b, ok
}

func (l *loader) integer(p keyPath, v any) (int64, bool) {
	n, ok := v.(int64)
	if !ok {
		l.wrongType(p, "an integer", v)
	}
	return n, ok
}

// float accepts an integer too.
func (l *loader) float(p keyPath, v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		if !finite(v) {
			l.errorf(p, "must be a finite number, not %v", v)
			return 0, false
		}
		return v, true
	case int64:
		return float64(v), true
	}
	l.wrongType(p, "a number", v)
	return 0, false
}

func (l *loader) table(p keyPath, v any) (map[string]any, bool) {
	t, ok := v.(map[string]any)
	if !ok {
		l.wrongType(p, "a table", v)
	}
	return t, ok
}

func (l *loader) strList(p keyPath, v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		if _, tables := v.([]map[string]any); tables {
			l.errorf(p, "must be an array of strings, not an array of tables")
			return nil, false
		}
		l.wrongType(p, "an array of strings", v)
		return nil, false
	}
	out := make([]string, 0, len(list))
	good := true
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			l.wrongType(p.At(i), "a string", e)
			good = false
			continue
		}
		out = append(out, s)
	}
	return out, good
}

// tableList accepts an array of tables ([[x]]) or an inline array of
// tables.
func (l *loader) tableList(p keyPath, v any) ([]map[string]any, bool) {
	switch v := v.(type) {
	case []map[string]any:
		return v, true
	case []any:
		out := make([]map[string]any, 0, len(v))
		good := true
		for i, e := range v {
			t, ok := e.(map[string]any)
			if !ok {
				l.wrongType(p.At(i), "a table", e)
				good = false
				continue
			}
			out = append(out, t)
		}
		return out, good
	}
	l.wrongType(p, "an array of tables", v)
	return nil, false
}

// maxTimeout bounds a per-decision timeout.
const maxTimeout = 365 * 24 * time.Hour

// duration reads a positive duration: a string such as "30s" or "1m30s",
// or a number of seconds (in a string or not).
func (l *loader) duration(p keyPath, v any) (time.Duration, bool) {
	var secs float64
	switch v := v.(type) {
	case string:
		s := strings.TrimSpace(v)
		if d, err := time.ParseDuration(s); err == nil {
			secs = d.Seconds()
		} else if f, err := strconv.ParseFloat(s, 64); err == nil {
			secs = f
		} else {
			l.errorf(p, `must be a duration such as "30s" or a number of seconds, got %q`, v)
			return 0, false
		}
	case int64:
		secs = float64(v)
	case float64:
		secs = v
	default:
		l.wrongType(p, `a duration such as "30s" or a number of seconds`, v)
		return 0, false
	}
	d := time.Duration(secs * float64(time.Second))
	if !(secs > 0 && secs <= maxTimeout.Seconds()) || d <= 0 {
		l.errorf(p, "must be positive and at most %v, got %v", maxTimeout, v)
		return 0, false
	}
	return d, true
}
