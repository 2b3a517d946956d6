#!/bin/sh
# Runs BayesElo and Ordo on the example PGN files here and saves their
# outputs beside them, for ratings/peers_test.go. Both are public C/C++
# sources built with the system compilers:
#
#   BayesElo 0057 (Rémi Coulom), as imported into github.com/fsmosca/BayesianElo
#   at commit b2e6869cbec4336439273b850bb88a336fcf0e3e (before that
#   repository's own changes): cd src && make
#   Ordo 1.2.6 (Miguel Ballicora), github.com/michiguel/Ordo at commit
#   17eec774f2e4b9fdd2b1b38739f55ea221fb851a: make
#
# Usage: BAYESELO=/path/to/bayeselo ORDO=/path/to/ordo ./run.sh
set -eu
cd "$(dirname "$0")"
BAYESELO=${BAYESELO:-bayeselo}
ORDO=${ORDO:-ordo}

# Ordo's logistic has the Elo scale when a difference of 400*log10(19/6)
# points gives 76% (its -z); its default, 202, is 0.9% wider.
Z=200.24094022767414

# bayeselo NAME PRIOR1 PRIOR2: prior PRIOR1 with the advantage fixed at 0
# and the draw parameter fitted (mm 0 1), then prior PRIOR2 with both fitted
# (mm 1 1). After each fit: the display scale BayesElo chose and the ratings
# as it shows them, then at scale 1 (the model's own ratings) each player's
# rating to six digits, the intervals from the full Hessian (covariance),
# the likelihood of superiority and the log-likelihood.
bayeselo() {
	name=$1
	n=$(sed -n 's/^\[\(White\|Black\) "\(.*\)"\]$/\2/p' "$name.pgn" | sort -u | wc -l)
	{
		echo "# bayeselo < commands below; BayesElo 0057, fsmosca/BayesianElo b2e6869"
		cmds="readpgn $name.pgn
elo
prior $2
advantage 0
mm 0 1
$(fitted "$n")
prior $3
mm 1 1
$(fitted "$n")
x
x"
		echo "$cmds" | sed 's/^/# > /'
		echo "$cmds" | "$BAYESELO" 2>&1
	} >"$name.bayeselo.txt"
}

fitted() {
	echo "advantage
drawelo
scale
ratings
scale 1"
	i=0
	while [ "$i" -lt "$1" ]; do
		echo "elo $i"
		i=$((i + 1))
	done
	echo "covariance
ratings
los 0 $1 5
likelihood"
}

# ordo NAME SUFFIX ARGS...: one Ordo run, its command line first.
ordo() {
	name=$1 suffix=$2
	shift 2
	{
		echo "# ordo -p $name.pgn $*; Ordo 1.2.6, michiguel/Ordo 17eec77"
		"$ORDO" -p "$name.pgn" "$@" 2>&1
	} >"$name.ordo-$suffix.txt"
}

for name in decisive draws; do
	bayeselo $name 0 0
	ordo $name plain -q -z $Z -a 0 -N 4,2
	ordo $name white -q -z $Z -a 0 -N 4,2 -W
	ordo $name sim -q -z $Z -a 0 -N 4,2 -W -D -s 1000
done
ordo decisive anchor -q -z $Z -a 1500 -A Charlie -N 4,2 -W -D -s 1000
ordo draws anchor -q -z $Z -a 1500 -A Golf -N 4,2 -W -D -s 1000

# Juliet won every game: BayesElo's prior keeps its rating finite; Ordo
# rates the others without Juliet's games (and needs -G to go on) and
# gives Juliet a floor, the rating at which winning every game has
# probability 1/2 under its draw model.
bayeselo perfect 2 4
ordo perfect plain -q -z $Z -a 0 -N 4,2 -G
ordo perfect white -q -z $Z -a 0 -N 4,2 -G -W
