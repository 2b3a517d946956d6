#!/bin/sh
# The same-positions verdict of issue 12 (docs/results/issue12-gnubg0.md):
# every chequer decision of a competition's records between bgbot and
# gnubg, priced by gnubg at 0 ply; the choices of bgbot's default player and
# of gnubg 0-ply where they differ, priced again at 2 ply; then each
# player's loss by gnubg 2-ply's judgement, decision by decision, at 95%
# and 99%, with the binding checks (each recorded move is its player's
# choice) and the split by class, lead, cube, stage and mover.
#   examples/same-positions.sh STEM
# STEM is the control file's path without .toml (STEM.games holds the
# records); the results go to STEM.paired/, and a step whose output is
# already there is not run again, so an interrupted run resumes.
set -eu
stem=${1:?usage: same-positions.sh STEM}
root=$(cd "$(dirname "$0")/.." && pwd)
games=$(cd "$(dirname "$stem")" && pwd)/$(basename "$stem").games
out=$stem.paired
mkdir -p "$out"
(cd "$root" && go build -o bin/ ./cmd/bgtool ./cmd/bgtrain)
PATH=$root/bin:$PATH:/usr/games
W=$root/engine/bgbot/weights
# The default player: cubeful moves, race gammons from the 15-checker
# bearoff database, the second network's opinion.
bearoff=$out/bearoff15.bgbo
[ -s "$bearoff" ] || bgtrain makebearoff --out "$bearoff"
BOT="--cubeful-moves --race-gammons --bearoff $bearoff --move-weights $W/second.bgnet --set $root/engine/bgbot/testdata/benchset.txt"
cd "$out"
[ -s g0.txt ] || bgtool gnubg-moveset --cubeful -q --plies 0 -j 2 --out g0.txt "$games"
[ -s n0.txt ] || bgtrain benchmark --moves g0.txt --choices g0.txt $BOT --narrow-out n0.txt > b0.out
[ -s n2.txt ] || bgtool gnubg-moveset -q --plies 2 -j 2 --reprice n0.txt --out n2.txt
bgtrain benchmark --moves n2.txt --choices n0.txt $BOT > b2-95.out
bgtrain benchmark --moves n2.txt --choices n0.txt $BOT --confidence 0.99 > b2-99.out
echo "the verdict: $out/b2-95.out and $out/b2-99.out"
