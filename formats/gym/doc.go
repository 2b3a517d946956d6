// Package gym reads and writes the encodings of the backgammon reinforcement
// learning environments gym-backgammon (github.com/dellalibera/gym-backgammon,
// backgammon-v0) and PettingZoo's classic backgammon (backgammon_v3, which
// wraps gym-backgammon's rules and was removed from PettingZoo in 1.22):
// the 198-unit observation vector and PettingZoo's Discrete(1353) action ids.
//
// # Colours and points
//
// Both environments keep one absolute board of 24 points, indexes 0..23, and
// two colours: White (X, colour 0) moves from index 23 towards 0 and bears off
// beyond index 0; Black (O, colour 1) moves from 0 towards 23 and bears off
// beyond 23. In our notation, where each side counts its own points 1..24
// from its own home board, White's point p is absolute index p-1 and Black's
// point p is absolute index 24-p. The starting position has White on indexes
// 5 (5), 7 (3), 12 (5), 23 (2) and Black on 0 (2), 11 (5), 16 (3), 18 (5).
// A backgammon.Board is seen from the player on roll, so every function here
// is told which colour that player has.
//
// # Observation
//
// The observation (gym-backgammon's Backgammon.get_board_features, used
// unchanged by PettingZoo) is 198 float32 units:
//
//	0..95     White, absolute points 0..23 in index order, 4 units each
//	96        White checkers on the bar / 2
//	97        White checkers borne off / 15
//	98..193   Black, absolute points 0..23 in index order, 4 units each
//	194       Black checkers on the bar / 2
//	195       Black checkers borne off / 15
//	196, 197  the colour to play: [1, 0] White, [0, 1] Black
//
// so the units of absolute point i are 4i..4i+3 for White and 98+4i..98+4i+3
// for Black. A point with n checkers of the colour is [0,0,0,0] for n = 0,
// [1,0,0,0] for 1, [1,1,0,0] for 2 and [1,1,1,(n-3)/2] for n >= 3; a point
// held by the other colour is all zeros. Both environments play 15 checkers,
// so only the standard variant is encoded.
//
// gym-backgammon's step returns the vector for the player to move next.
// PettingZoo's observe passes the agent's name ("player_0") where a colour is
// expected, so its turn units are always [0, 1] whoever is to play; EncodeTurn
// reproduces such vectors.
//
// # Actions
//
// PettingZoo's action space is Discrete(26*26*2 + 1) = 1353. Action 1352 is
// "do nothing" (the only legal action when no die can be played). Any other
// action a is split as
//
//	block = a / 676       0: the first half-move uses the low die, 1: the high die
//	first = a % 676 % 26  location id of the first half-move's source
//	second = a % 676 / 26 location id of the second half-move's source, 0 for none
//
// and the second half-move uses the other die. Location ids are absolute
// index + 1 (1..24) for points and 25 for the bar. "Low" and "high" are the
// minimum and maximum of PettingZoo's signed roll, in which White's dice are
// negated: for Black the low die is the smaller one, for White the larger.
// A half-move's destination is its source moved by its die, past the edge
// meaning borne off; a checker on the bar enters on index 24-die (White) or
// die-1 (Black).
//
// Encoding (bg_utils.to_gym_format) follows the signed difference target -
// source of each half-move: a single half-move is in block 1 when its die is
// the high die; a pair is in block 1 when the first difference is greater
// than the second. A half-move that bears off has its difference replaced by
// a die: a single bear-off counts as the high die when its distance exceeds
// the low die and as the low die otherwise; in a pair where only one
// half-move bears off, it takes the die the other does not use; where both
// bear off the raw differences are compared.
//
// PettingZoo accepts only the actions in its mask, which lists one action per
// play that gym-backgammon's generator returns. For two different dice a play
// is one or two half-moves (two whenever both dice can be played). Its
// half-moves are ordered from the back: by source farthest from home first,
// then by destination farthest from home first (so two checkers leaving the
// same point list the smaller die first), except that two checkers entering
// from the bar are listed in the order the dice were rolled. The same checker
// moved by both dice appears once for each order of the dice whose
// intermediate point is open.
//
// For doubles PettingZoo asks the same agent for two actions with the same
// roll. Each time its mask holds the first two half-moves (first one, where
// only one die can be played) of the plays of four dice that the generator
// returns from the current position, sorted from the back as above (bar
// entries first). The second request is thus computed afresh as if four dice
// remained: a pair of half-moves that would finish the roll legally but after
// which no further die could be played is not offered when some other pair
// allows more. LegalActions mirrors this: call it once on the position before
// the roll and once on the position after the first action, with the same
// dice.
//
// Differences from the Python code:
//   - LegalActions derives the plays from engine/backgammon's move generator,
//     not from gym-backgammon's. Run against PettingZoo's own code on 58,755
//     positions from random games (masks for the first and, for doubles,
//     the second action), it differed once: with doubles, one checker on
//     the bar and exactly two more half-moves by different checkers after
//     the entry, gym-backgammon keeps those two in Python set iteration
//     order, and LegalActions lists them from the back. testdata holds 330
//     of those positions with PettingZoo's masks.
//   - PettingZoo's to_bg_format drops a second half-move whose source is the
//     bar, so the actions for entering two checkers (25 + 26*25 and that
//     plus 676) enter only one there. DecodeAction enters both, as
//     to_gym_format meant when it produced the action.
//   - Decode and DecodeAction reject vectors and ids that are no encoding of
//     a position or play, where Python would index out of range or quietly
//     play something else.
package gym
