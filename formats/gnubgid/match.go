package gnubgid

import (
	"fmt"
	"math/bits"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// CubeCentred is the cube owner value a match key uses for a centred cube.
const CubeCentred = 3

// MatchKey holds the fields of a match ID's key, as raw as the key stores
// them. The key is 66 bits as the GNU Backgammon manual describes them, plus
// bit 66, which gnubg 1.07 sets when the Jacoby rule is not in force: it
// writes it for every match it starts and for money sessions played without
// the Jacoby rule, and `set matchid` reads it back into the session's Jacoby
// setting.
type MatchKey struct {
	CubeLog2    int    // bits 0-3: the cube value is 1 << CubeLog2
	CubeOwner   int    // bits 4-5: 0, 1, or CubeCentred
	DiceOwner   int    // bit 6: the player on roll (gnubg's fMove)
	Crawford    bool   // bit 7: this game is the Crawford game
	GameState   int    // bits 8-10: backgammon.GameState values 0..4
	Turn        int    // bit 11: the player to decide next (gnubg's fTurn)
	Doubled     bool   // bit 12: a double awaits an answer
	Resigned    int    // bits 13-14: resignation on offer: 0 none, 1 single, 2 gammon, 3 backgammon
	Dice        [2]int // bits 15-17 and 18-20: 0 when not rolled, else 1..6
	MatchLength int    // bits 21-35: 0 for money play
	Score       [2]int // bits 36-50 and 51-65
	JacobyOff   bool   // bit 66: the Jacoby rule is not in force
}

// matchField is one field of the match key: its first bit and width.
type matchField struct {
	name        string
	start, size int
}

var matchFields = [...]matchField{
	{"cube value", 0, 4},
	{"cube owner", 4, 2},
	{"dice owner", 6, 1},
	{"Crawford flag", 7, 1},
	{"game state", 8, 3},
	{"turn", 11, 1},
	{"double offered", 12, 1},
	{"resignation", 13, 2},
	{"die 1", 15, 3},
	{"die 2", 18, 3},
	{"match length", 21, 15},
	{"score 0", 36, 15},
	{"score 1", 51, 15},
	{"Jacoby-off flag", 66, 1},
}

// matchKeyBits is the number of bits gnubg 1.07 uses; the rest of the 72
// bits that 12 base64 characters hold must be zero.
const matchKeyBits = 67

func (k *MatchKey) values() [len(matchFields)]int {
	return [...]int{
		k.CubeLog2, k.CubeOwner, k.DiceOwner, b2i(k.Crawford), k.GameState, k.Turn,
		b2i(k.Doubled), k.Resigned, k.Dice[0], k.Dice[1], k.MatchLength,
		k.Score[0], k.Score[1], b2i(k.JacobyOff),
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// EncodeMatchKey writes the 12-character match ID of a key. Each field is
// masked to its width; use DecodeMatchKey's checks to validate a key.
func EncodeMatchKey(k MatchKey) string {
	var key [9]byte
	for i, v := range k.values() {
		f := matchFields[i]
		for j := 0; j < f.size; j++ {
			if v&(1<<j) != 0 {
				bit := f.start + j
				key[bit/8] |= 1 << (bit % 8)
			}
		}
	}
	return idEncoding.EncodeToString(key[:])
}

// DecodeMatchKey reads a match ID. It rejects IDs that are not 12 base64
// characters, set bits beyond bit 66, or hold impossible field values (a cube
// owner of 2, a game state above 4, a die above 6, one die rolled without the
// other); the error names the character or field at fault.
func DecodeMatchKey(id string) (MatchKey, error) {
	var k MatchKey
	if len(id) != 12 {
		return k, fmt.Errorf("match ID %q: want 12 characters, got %d", id, len(id))
	}
	if err := checkAlphabet(id); err != nil {
		return k, fmt.Errorf("match ID %q: %w", id, err)
	}
	key, err := idEncoding.DecodeString(id)
	if err != nil {
		return k, fmt.Errorf("match ID %q: %w", id, err)
	}
	if key[8]>>(matchKeyBits-64) != 0 {
		return k, fmt.Errorf("match ID %q: character 12 %q sets bits beyond bit %d", id, id[11], matchKeyBits-1)
	}
	var v [len(matchFields)]int
	for i, f := range matchFields {
		for j := 0; j < f.size; j++ {
			bit := f.start + j
			if key[bit/8]&(1<<(bit%8)) != 0 {
				v[i] |= 1 << j
			}
		}
	}
	k = MatchKey{
		CubeLog2: v[0], CubeOwner: v[1], DiceOwner: v[2], Crawford: v[3] != 0,
		GameState: v[4], Turn: v[5], Doubled: v[6] != 0, Resigned: v[7],
		Dice: [2]int{v[8], v[9]}, MatchLength: v[10], Score: [2]int{v[11], v[12]},
		JacobyOff: v[13] != 0,
	}
	switch {
	case k.CubeOwner == 2:
		return MatchKey{}, fmt.Errorf("match ID %q: cube owner field is 2 (want 0, 1 or 3 for centred)", id)
	case k.GameState > int(backgammon.GameDropped):
		return MatchKey{}, fmt.Errorf("match ID %q: game state field is %d (want 0..4)", id, k.GameState)
	case k.Dice[0] > 6 || k.Dice[1] > 6:
		return MatchKey{}, fmt.Errorf("match ID %q: dice fields are %d and %d (want 0..6)", id, k.Dice[0], k.Dice[1])
	case (k.Dice[0] == 0) != (k.Dice[1] == 0):
		return MatchKey{}, fmt.Errorf("match ID %q: dice fields are %d and %d (one die rolled without the other)", id, k.Dice[0], k.Dice[1])
	}
	return k, nil
}

// checkAlphabet names the first character outside unpadded standard base64.
func checkAlphabet(id string) error {
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/') {
			return fmt.Errorf("character %d %q is not in the base64 alphabet", i+1, c)
		}
	}
	return nil
}

// MatchKeyOf extracts the match key of a state as gnubg would write it.
// Finished games follow gnubg's conventions rather than the engine's: after
// a game played out, the loser is on roll and the board is seen from the
// loser; after a dropped double the turn is the dropper's; after an accepted
// resignation the key keeps the resigned level. The dice read 0 once a game
// has ended.
func MatchKeyOf(s *backgammon.State) MatchKey {
	cube := s.CubeValue
	if cube < 1 {
		cube = 1
	}
	owner := s.CubeOwner
	if owner != 0 && owner != 1 {
		owner = CubeCentred
	}
	k := MatchKey{
		CubeLog2:    bits.Len(uint(cube)) - 1,
		CubeOwner:   owner,
		DiceOwner:   s.Move,
		Crawford:    s.CrawfordGame,
		GameState:   int(s.GameState),
		Turn:        s.Turn,
		Doubled:     s.Doubled,
		Resigned:    int(s.Resigned),
		Dice:        s.Dice,
		MatchLength: s.MatchLength,
		Score:       s.Score,
		JacobyOff:   !s.Jacoby,
	}
	switch s.GameState {
	case backgammon.GameOver:
		if s.Board.OnBoard(backgammon.OnRoll) == 0 {
			k.DiceOwner, k.Turn = 1-s.Move, 1-s.Move
		}
	case backgammon.GameDropped:
		k.Turn = 1 - s.Move
	case backgammon.GameResigned:
		if s.Resigned == backgammon.NoResult {
			k.Resigned = int(s.ResultLevel)
		}
	}
	if s.GameState > backgammon.GamePlaying {
		k.Dice = [2]int{}
		k.Doubled = false
	}
	return k
}

// positionBoard is the board a position ID records: gnubg's, which after a
// game played out is seen from the loser.
func positionBoard(s *backgammon.State) backgammon.Board {
	if s.GameState == backgammon.GameOver && s.Board.OnBoard(backgammon.OnRoll) == 0 {
		return s.Board.Swap()
	}
	return s.Board
}

// EncodeMatch writes the match ID of a state. Bit 66 is set when s.Jacoby is
// false, as gnubg does (so every match-play ID ends in a character with that
// bit set, such as E).
func EncodeMatch(s *backgammon.State) string {
	return EncodeMatchKey(MatchKeyOf(s))
}

// Encode writes the position ID and match ID of a state. The position ID is
// seen from the player on roll (s.Move), as gnubg writes it, also while a
// double or a resignation awaits the other player's answer; after a game
// played out it is seen from the loser, as gnubg leaves it.
func Encode(s *backgammon.State) (positionID, matchID string) {
	return EncodePosition(positionBoard(s)), EncodeMatch(s)
}

// DecodeState builds a state from a position ID and a match ID. The variant,
// Crawford rule, beavers and cube use come from rules; the match length and
// the Jacoby rule come from the match ID (bit 66 clear means Jacoby on, kept
// even in match play so that the IDs round-trip). PostCrawford is inferred:
// a match game that is not the Crawford game, begun while a player was
// 1-away.
// A finished game is brought into the engine's convention (the winner on
// roll and deciding, Resigned cleared into ResultLevel), the inverse of
// MatchKeyOf; Winner, ResultLevel and Points are inferred from the board,
// the cube and the way the game ended.
func DecodeState(positionID, matchID string, rules backgammon.Rules) (*backgammon.State, error) {
	board, err := DecodePosition(positionID)
	if err != nil {
		return nil, err
	}
	if err := board.Validate(rules.Variant); err != nil {
		return nil, fmt.Errorf("position ID %q: %w", positionID, err)
	}
	k, err := DecodeMatchKey(matchID)
	if err != nil {
		return nil, err
	}
	rules.MatchLength = k.MatchLength
	rules.Jacoby = !k.JacobyOff
	s := backgammon.NewMatch(rules)
	s.Board = board
	s.Move, s.Turn = k.DiceOwner, k.Turn
	s.Dice = k.Dice
	s.CubeValue = 1 << k.CubeLog2
	s.CubeOwner = k.CubeOwner
	if k.CubeOwner == CubeCentred {
		s.CubeOwner = -1
	}
	s.Doubled = k.Doubled
	s.Resigned = backgammon.Result(k.Resigned)
	s.Score = k.Score
	s.CrawfordGame = k.Crawford
	s.GameState = backgammon.GameState(k.GameState)
	s.Winner = -1
	if err := checkState(s, &k); err != nil {
		return nil, fmt.Errorf("match ID %q: %w", matchID, err)
	}
	if s.GameState == backgammon.GamePlaying && (board.OnBoard(backgammon.OnRoll) == 0 || board.OnBoard(backgammon.Opponent) == 0) {
		return nil, fmt.Errorf("position ID %q: a side has no checkers left, but match ID %q has the game in progress", positionID, matchID)
	}
	finishFromKey(s)
	// A game that is not the Crawford game, begun while a player was 1-away,
	// is post-Crawford; for a finished game, look at the score before it.
	before := s.Score
	if s.GameState > backgammon.GamePlaying && s.Winner >= 0 {
		before[s.Winner] -= s.Points
	}
	if !s.Money() && !s.CrawfordGame && (before[0] == s.MatchLength-1 || before[1] == s.MatchLength-1) {
		s.PostCrawford = true
	}
	return s, nil
}

// checkState rejects match keys whose fields contradict each other.
func checkState(s *backgammon.State, k *MatchKey) error {
	playing := s.GameState == backgammon.GamePlaying
	switch {
	case s.Money() && s.CrawfordGame:
		return fmt.Errorf("Crawford flag set in money play")
	case s.CrawfordGame && s.Score[0] != s.MatchLength-1 && s.Score[1] != s.MatchLength-1:
		return fmt.Errorf("Crawford flag set but neither player is 1-away at %d-%d in a %d-point match", s.Score[0], s.Score[1], s.MatchLength)
	case !s.Money() && playing && (s.Score[0] >= s.MatchLength || s.Score[1] >= s.MatchLength):
		return fmt.Errorf("score %d-%d reaches the match length %d while a game is in progress", s.Score[0], s.Score[1], s.MatchLength)
	case s.Doubled && s.Resigned != backgammon.NoResult:
		return fmt.Errorf("double offered and resignation on offer at once")
	case s.Doubled && s.Dice[0] != 0:
		return fmt.Errorf("double offered after the dice were rolled (%d%d)", s.Dice[0], s.Dice[1])
	case playing && (s.Doubled || s.Resigned != backgammon.NoResult) && s.Turn == s.Move:
		return fmt.Errorf("turn field is %d, the player on roll, while an answer is awaited from the other player", k.Turn)
	case playing && !s.Doubled && s.Resigned == backgammon.NoResult && s.Turn != s.Move:
		return fmt.Errorf("turn field %d differs from dice owner %d with nothing to answer", k.Turn, k.DiceOwner)
	}
	return nil
}

// finishFromKey turns gnubg's record of a finished game into the engine's.
func finishFromKey(s *backgammon.State) {
	level := backgammon.NoResult
	switch s.GameState {
	case backgammon.GameOver:
		if s.Board.OnBoard(backgammon.Opponent) == 0 {
			s.Board = s.Board.Swap()
			s.Move = 1 - s.Move
		}
		if s.Board.OnBoard(backgammon.OnRoll) == 0 {
			s.Winner = s.Move
			level = playedOutLevel(&s.Board, s.Variant)
		}
	case backgammon.GameDropped:
		s.Winner, level = s.Move, backgammon.Single
	case backgammon.GameResigned:
		s.Winner, level = 1-s.Move, s.Resigned
		s.Resigned = backgammon.NoResult
	default:
		return
	}
	if s.Winner >= 0 {
		s.Turn = s.Winner
	}
	s.ResultLevel = level
	if level != backgammon.NoResult {
		counted := level
		if s.Money() && s.Cube && s.Jacoby && s.CubeValue == 1 {
			counted = backgammon.Single
		}
		s.Points = int(counted) * s.CubeValue
	}
}

// playedOutLevel judges the win of the player on roll, who has borne off.
func playedOutLevel(b *backgammon.Board, v backgammon.Variant) backgammon.Result {
	if b.Borne(backgammon.Opponent, v) > 0 {
		return backgammon.Single
	}
	for i := 18; i < 25; i++ {
		if b[backgammon.Opponent][i] > 0 {
			return backgammon.Backgammon
		}
	}
	return backgammon.Gammon
}
