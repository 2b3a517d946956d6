// Package ratings holds the estimators Gamemill uses to say what a set of
// game results means: points per game with standard errors and
// t-distribution confidence intervals with a variance floor (plain and
// duplicate-dice paired; see Summary), Elo from a score with Wilson's
// score interval, likelihood of superiority,
// sequential probability ratio tests (trinomial and pentanomial), a
// Bradley-Terry fit for all-play-all tournaments, the FIBS rating
// formula, and FitBradleyTerry: maximum-likelihood ratings from any set of
// games, with a first-move advantage, draws, backgammon matches of
// different lengths on the FIBS scale, the full covariance matrix, 95%
// intervals and a likelihood-of-superiority matrix.
//
// Everything here is a pure function of its arguments: no I/O, no package
// state, no randomness. Only the standard library is imported.
//
// Conventions:
//   - Elo differences use the logistic model: a player rated D Elo above
//     another is expected to score 1/(1+10^(-D/400)).
//   - Quantities that cannot be estimated from the data given (for example
//     a standard deviation from one sample) are NaN rather than zero, so
//     that a report shows them as unknown instead of as exact.
//   - A level argument is a two-sided confidence level in (0, 1), such as
//     0.95. A level outside that range gives NaN bounds.
package ratings
