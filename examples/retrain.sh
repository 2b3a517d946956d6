#!/bin/sh
# Retrains bgbot's networks from scratch, in the order they were made:
# TD(λ) self-play, then fits to gnubg's labels of self-play positions and
# of positions met in game records against gnubg 0-ply. docs/retraining.md
# explains each step, its inputs and its time (days of CPU on 2 cores).
#
#   examples/retrain.sh WORK [RECORDS]
#
# WORK receives every file; a step whose output is already there is not run
# again, so a stopped run resumes with the same command. RECORDS (default
# WORK/records) holds the game records the later steps label, one directory
# per run, named as docs/retraining.md lists them; a step whose records are
# missing stops the script with their name. ALL (a comma-separated list of
# record directories) is needed by the last step. gnubg 1.07 must be
# installed (/usr/games/gnubg) for the labelling steps.
#
# The results are WORK/default.bgnet (V17), WORK/second.bgnet (W14),
# WORK/window1.bgnet, WORK/window2.bgnet and WORK/pruner.bgpr; copy them
# to engine/bgbot/weights/ to embed them.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:?usage: retrain.sh WORK [RECORDS]}
mkdir -p "$work"
work=$(cd "$work" && pwd)
records=${2:-$work/records}
case $records in /*) ;; *) records=$(pwd)/$records ;; esac
(cd "$root" && go build -o bin/ ./cmd/bgtrain)
PATH=$root/bin:$PATH:/usr/games
cd "$work"

# have FILE: the step that writes FILE has run.
have() { [ -s "$1" ]; }
# recs NAME...: the record directories, comma-separated, or stop.
recs() {
	list=
	for r in "$@"; do
		[ -d "$records/$r" ] || { echo "retrain.sh: records $records/$r missing (docs/retraining.md, Game records)" >&2; exit 1; }
		list=${list:+$list,}$records/$r
	done
	echo "$list"
}
# label FROM PLIES POSITIONS ALTERNATIVES SEED OUT [FLAGS...]: gnubg labels
# of self-play positions of FROM's network.
label() {
	from=$1 plies=$2 n=$3 alt=$4 seed=$5 out=$6
	shift 6
	have "$out" || bgtrain supervise --from "$from" --teacher gnubg --plies "$plies" \
		--positions "$n" --alternatives "$alt" --parallel 2 --epochs 1 --seed "$seed" \
		--save-labels "$out" --out unused.bgnet "$@"
}
# adam FROM OUT BATCH RANK EPOCHS ALPHA ALPHA_END SEED LABELS [FLAGS...]
adam() {
	from=$1 out=$2 batch=$3 rank=$4 epochs=$5 a=$6 aend=$7 seed=$8 labels=$9
	shift 9
	have "$out" || bgtrain supervise --from "$from" --labels "$labels" --optimizer adam \
		--batch "$batch" --rank "$rank" --epochs "$epochs" --alpha "$a" --alpha-end "$aend" \
		--seed "$seed" --out "$out" "$@"
}

# 1. TD(λ) self-play: three stages at input layout 1 and 80 hidden units,
# then widened to layout 2 and 128 units and trained on.
have stage1.bgnet || bgtrain train --games 250000 --hidden 80 --alpha 0.1 --alpha-end 0.02 \
	--lambda 0.7 --seed 1 --parallel 2 --sync 250 --out stage1.bgnet
have stage2.bgnet || bgtrain train --resume stage1.bgnet --games 200000 --alpha 0.03 \
	--alpha-end 0.005 --lambda 0.7 --seed 7 --parallel 2 --sync 250 --out stage2.bgnet
have stage3.bgnet || bgtrain train --resume stage2.bgnet --games 200000 --alpha 0.01 \
	--alpha-end 0.002 --lambda 0.7 --seed 8 --parallel 2 --sync 250 --out stage3.bgnet
have stage4.bgnet || bgtrain train --resume stage3.bgnet --widen --layout 2 --hidden 128 \
	--games 360000 --alpha 0.02 --alpha-end 0.002 --lambda 0.7 --parallel 1 --sync 250 \
	--seed 21 --out stage4.bgnet
have stage5.bgnet || bgtrain train --resume stage4.bgnet --games 210000 --alpha 0.005 \
	--alpha-end 0.001 --lambda 0.7 --parallel 1 --sync 250 --seed 22 --out stage5.bgnet

# 2. gnubg's labels of stage 5's self-play; SGD fits, then 256 hidden
# units with Adam (V2), then its contact network alone (V2c).
label stage5.bgnet 1 1000000 5 211 g1-1m.bin
label stage5.bgnet 2 300000 3 221 g2-300k.bin
have stage6.bgnet || bgtrain supervise --from stage5.bgnet --labels g1-1m.bin --epochs 30 \
	--alpha 0.03 --alpha-end 0.0005 --seed 212 --out stage6.bgnet
have stage7.bgnet || bgtrain supervise --from stage6.bgnet --labels g2-300k.bin --epochs 10 \
	--alpha 0.01 --alpha-end 0.0005 --seed 212 --out stage7.bgnet
for seed in 231 232 233; do
	label stage7.bgnet 2 100000 3 $seed g2-s$seed.bin
done
G2=g2-300k.bin,g2-s231.bin,g2-s232.bin,g2-s233.bin
have stage8.bgnet || bgtrain supervise --from stage5.bgnet --labels g1-1m.bin --hidden 256 \
	--optimizer adam --batch 256 --epochs 10 --alpha 0.002 --alpha-end 0.0001 \
	--seed 212 --out stage8.bgnet
have stage9.bgnet || bgtrain supervise --from stage8.bgnet --labels $G2 --optimizer adam \
	--batch 64 --epochs 10 --alpha 0.001 --alpha-end 0.0001 --seed 212 --out stage9.bgnet
have v2c.bgnet || bgtrain supervise --from stage9.bgnet --classes contact --labels $G2 \
	--optimizer adam --batch 64 --epochs 20 --alpha 0.0005 --alpha-end 0.0001 --seed 213 \
	--out v2c.bgnet

# 3. The second network, W3: stage 5 widened to 256 units with a crashed
# network and its idle units revived, then three fits. The widening run's
# game count was not recorded (docs/retraining.md); this one is short.
have w256c.bgnet || bgtrain train --resume stage5.bgnet --widen --layout 2 --hidden 256 \
	--crashed --revive --games 10000 --alpha 0.005 --alpha-end 0.001 --lambda 0.7 \
	--parallel 1 --sync 250 --seed 23 --out w256c.bgnet
have w3-1.bgnet || bgtrain supervise --from w256c.bgnet --labels g1-1m.bin --epochs 10 \
	--alpha 0.03 --alpha-end 0.001 --seed 212 --out w3-1.bgnet
have w3-2.bgnet || bgtrain supervise --from w3-1.bgnet --labels g1-1m.bin --optimizer adam \
	--batch 256 --epochs 10 --alpha 0.002 --alpha-end 0.0001 --seed 212 --out w3-2.bgnet
have w3.bgnet || bgtrain supervise --from w3-2.bgnet --labels $G2 --optimizer adam \
	--batch 64 --epochs 10 --alpha 0.001 --alpha-end 0.0001 --seed 212 --out w3.bgnet

# 4. V3 and W4: fresh labels from V2c's self-play; V2c given a crashed
# network; all three networks fitted to the 1-ply labels, contact and
# crashed to the 2-ply ones.
label v2c.bgnet 1 600000 5 261 g1-600k.bin
label v2c.bgnet 1 600000 5 281 g1-s281.bin
label v2c.bgnet 1 2000000 5 283 g1-s283.bin
for seed in 241 242 243; do
	label v2c.bgnet 2 100000 3 $seed g2-s$seed.bin
done
G1=g1-s281.bin,g1-600k.bin,g1-s283.bin
G2B=g2-s241.bin,g2-s242.bin,g2-s243.bin
adam v2c.bgnet v3-1.bgnet 256 0 3 0.0003 0.00005 351 $G1 --crashed --classes contact,crashed,race
adam w3.bgnet w4-1.bgnet 256 0 3 0.0003 0.00005 352 $G1 --classes contact,crashed,race
adam v3-1.bgnet v3.bgnet 64 0 3 0.0003 0.00005 353 $G2B --classes contact,crashed
adam w4-1.bgnet w4.bgnet 64 0 3 0.0003 0.00005 354 $G2B --classes contact,crashed

# 5. V4: fresh labels from V3's self-play, the main network fitted to all
# the 1-ply labels, then to all the 2-ply ones. W4 stays.
label v3.bgnet 1 1200000 5 361 g1-s361.bin
label v3.bgnet 2 100000 3 371 g2-s371.bin
adam v3.bgnet v4-1.bgnet 256 0 3 0.0003 0.00005 363 $G1,g1-s361.bin --classes contact,crashed,race
adam v4-1.bgnet v4.bgnet 64 0 3 0.0003 0.00005 365 $G2B,g2-s371.bin --classes contact,crashed

# 6. V5 and W6: labels from V4's self-play that keep each decision's
# candidates, fitted with the ranking term (--rank). The pruner is
# distilled from V5 (later networks changed too little to need another).
label v4.bgnet 1 1200000 5 401 g1-s401.bin
label v4.bgnet 2 100000 3 402 g2-s402.bin
adam v4.bgnet v5-1.bgnet 256 50 3 0.0003 0.00005 403 g1-s401.bin
adam v5-1.bgnet v5.bgnet 64 50 3 0.0003 0.00005 405 g2-s402.bin --classes contact,crashed
adam w4.bgnet w6-1.bgnet 256 25 3 0.0003 0.00005 403 g1-s401.bin
adam w6-1.bgnet w6.bgnet 64 25 3 0.0003 0.00005 405 g2-s402.bin --classes contact,crashed
have pruner.bgpr || bgtrain makepruner --weights v5.bgnet --hidden 16 --epochs 6 \
	--positions 40000 --out pruner.bgpr
# V5's self-play labels for the contact fits of step 9.
label v5.bgnet 1 1200000 5 411 g1-s411.bin
label v5.bgnet 2 100000 3 412 g2-s412.bin

# 7. V7 and W8: labels for one network class at a time; the race network
# in input layout 3.
have bearoff15.bgbo || bgtrain makebearoff --out bearoff15.bgbo
label v5.bgnet 1 300000 5 421 race-g1-s421.bin --sample-classes race --bearoff bearoff15.bgbo --classes race
label v5.bgnet 1 400000 5 431 crashed-g1-s431.bin --sample-classes crashed --classes crashed
label v5.bgnet 2 100000 3 432 crashed-g2-s432.bin --sample-classes crashed --classes crashed
for net in "v5 50 423 433 437 v7" "w6 25 425 435 439 w8"; do
	set -- $net
	adam $1.bgnet $1-race.bgnet 256 $2 15 0.0003 0.00005 $3 race-g1-s421.bin --classes race --layout 3
	adam $1-race.bgnet $1-crashed1.bgnet 256 $2 15 0.0003 0.00005 $4 crashed-g1-s431.bin --classes crashed
	adam $1-crashed1.bgnet $6.bgnet 64 $2 10 0.0003 0.00005 $5 crashed-g2-s432.bin --classes crashed
done

# 8. V8 and W9: races from game records against gnubg 0-ply, the race
# networks fitted further.
if ! have rec-race-g1.bin; then
	r=$(recs m42300.games v5-money.games v7-money.games v5-cubeless.games v7-cubeless.games)
	bgtrain supervise --from v7.bgnet --teacher gnubg --plies 1 --records "$r" \
		--sample-classes race --alternatives 3 --positions 3000000 --bearoff bearoff15.bgbo \
		--save-labels rec-race-g1.bin --classes race --epochs 1 --out unused.bgnet
fi
RACE=race-g1-s421.bin,rec-race-g1.bin
adam v7.bgnet v7-r1.bgnet 256 50 15 0.0003 0.00005 441 $RACE --classes race
adam v7-r1.bgnet v7-r2.bgnet 256 50 15 0.001 0.0001 445 $RACE --classes race
adam v7-r2.bgnet v7-r3.bgnet 256 50 30 0.001 0.0001 447 $RACE --classes race
adam v7-r3.bgnet v8.bgnet 256 50 30 0.001 0.0001 451 $RACE --classes race
adam w8.bgnet w8-r1.bgnet 256 25 15 0.0003 0.00005 443 $RACE --classes race
adam w8-r1.bgnet w8-r2.bgnet 256 25 15 0.001 0.0001 449 $RACE --classes race
adam w8-r2.bgnet w9.bgnet 256 25 30 0.001 0.0001 453 $RACE --classes race

# 9. V11 and W12: contact positions from game records, labelled at 1 and
# 2 ply, with V5's self-play labels.
if ! have rec-contact-g1.bin; then
	r=$(recs m42500.games m42300.games v8-money.games v8-cubeless.games)
	bgtrain supervise --records "$r" --sample-classes contact,crashed --alternatives 2 \
		--positions 1200000 --teacher gnubg --plies 1 --parallel 2 --from v8.bgnet \
		--bearoff bearoff15.bgbo --classes contact --epochs 1 \
		--save-labels rec-contact-g1.bin --out unused.bgnet
fi
if ! have rec-contact-g2.bin; then
	r=$(recs m42500.games m42300.games)
	bgtrain supervise --records "$r" --sample-classes contact --alternatives 2 \
		--positions 150000 --teacher gnubg --plies 2 --parallel 2 --from v8.bgnet \
		--bearoff bearoff15.bgbo --classes contact --epochs 1 \
		--save-labels rec-contact-g2.bin --out unused.bgnet
fi
adam v8.bgnet v10-1.bgnet 256 50 3 0.0003 0.00005 461 rec-contact-g1.bin,g1-s411.bin --classes contact
adam w9.bgnet w11-1.bgnet 256 25 3 0.0003 0.00005 463 rec-contact-g1.bin,g1-s411.bin --classes contact
adam v10-1.bgnet v11.bgnet 64 50 3 0.0003 0.00005 481 rec-contact-g2.bin,g2-s412.bin --classes contact
adam w11-1.bgnet w12.bgnet 64 25 3 0.0003 0.00005 483 rec-contact-g2.bin,g2-s412.bin --classes contact

# 10. The networks of the doubling window: V11 fitted to self-play
# positions whose 0-ply win chance lies in 55%-95%, labelled by its own
# 1-ply (window1) and 2-ply (window2) searches.
have win1-5101.labels || bgtrain supervise --from v11.bgnet --sample-window 0.55,0.95 \
	--positions 400000 --plies 1 --seed 5101 --epochs 2 --optimizer adam --alpha 0.0005 \
	--alpha-end 0.0001 --save-labels win1-5101.labels --out unused.bgnet
have win2-5102.labels || bgtrain supervise --from v11.bgnet --sample-window 0.55,0.95 \
	--positions 120000 --plies 2 --seed 5102 --epochs 2 --optimizer adam --alpha 0.0005 \
	--alpha-end 0.0001 --save-labels win2-5102.labels --out unused.bgnet
for net in "win1-5101 window1" "win2-5102 window2"; do
	set -- $net
	have $2.bgnet || bgtrain supervise --from v11.bgnet --labels $1.labels --epochs 6 \
		--optimizer adam --alpha 0.001 --alpha-end 0.0001 --out $2.bgnet
done

# 11. V13 and W14: the crashed networks refitted in input layout 4 (the
# race features in crashed positions) to gnubg 2-ply labels of crashed
# positions from game records.
if ! have crashed-g2.labels; then
	r=$(recs base.games train.games moneyB.games money.games)
	bgtrain supervise --from v11.bgnet --records "$r" --sample-classes crashed \
		--alternatives 3 --positions 400000 --teacher gnubg --plies 2 --classes crashed \
		--bearoff bearoff15.bgbo --epochs 1 --save-labels crashed-g2.labels --out unused.bgnet
fi
adam v11.bgnet v13.bgnet 64 50 40 0.001 0.0001 611 crashed-g2.labels --classes crashed --layout 4
adam w12.bgnet w14.bgnet 64 25 40 0.001 0.0001 613 crashed-g2.labels --classes crashed --layout 4

# 12. V15: V13's contact and crashed networks fitted to gnubg 2-ply labels
# of positions where the mover trails by 60 pips or more, with 250,000
# 2-ply labels of recorded contact decisions. W14 stays.
if ! have rec-contact-g2-b.labels; then
	r=$(recs train.games money.games)
	bgtrain supervise --from v13.bgnet --records "$r" --sample-classes contact \
		--alternatives 2 --positions 250000 --teacher gnubg --plies 2 --parallel 2 \
		--classes contact --bearoff bearoff15.bgbo --epochs 1 \
		--save-labels rec-contact-g2-b.labels --out unused.bgnet
fi
for src in "m44100.games match" "money44500.games money"; do
	set -- $src
	if ! have $2.labels; then
		r=$(recs $1)
		bgtrain supervise --from v13.bgnet --records "$r" --sample-lead -400,-60 \
			--sample-classes contact,crashed --alternatives 3 --positions 25000 --parallel 1 \
			--teacher gnubg --plies 2 --classes contact,crashed --bearoff bearoff15.bgbo \
			--save-labels $2.labels --epochs 1 --out unused.bgnet
	fi
done
have v15.bgnet || bgtrain supervise --from v13.bgnet \
	--labels match.labels,money.labels,rec-contact-g2-b.labels --classes contact,crashed \
	--bearoff bearoff15.bgbo --optimizer adam --alpha 0.0003 --alpha-end 0.00005 \
	--batch 256 --epochs 3 --rank 50 --out v15.bgnet

# 13. V17: V15's crashed network fitted to gnubg labels of crashed
# positions, and a fourth network, leading, fitted to labels of the
# positions trailing sides' moves leave.
# reclabel OUT POSITIONS PLIES RECORDS FLAGS...
reclabel() {
	out=$1 n=$2 plies=$3 r=$4
	shift 4
	have $out.labels || bgtrain supervise --from v15.bgnet --records "$r" "$@" \
		--alternatives 3 --positions $n --teacher gnubg --plies $plies \
		--bearoff bearoff15.bgbo --save-labels $out.labels --epochs 1 --out unused.bgnet
}
s46100=
for f in trail crashed late behind; do
	have $f.labels || s46100=$(recs s46100.games)
done
reclabel trail 50000 2 "$s46100" --sample-lead -400,-60 --sample-classes contact,crashed --parallel 1
reclabel crashed 25000 2 "$s46100" --sample-lead -59,400 --sample-classes crashed --parallel 1
reclabel late 25000 2 "$s46100" --sample-scores crawford,post-crawford --sample-lead -59,400 \
	--sample-classes contact --parallel 1
reclabel behind 25000 2 "$s46100" --sample-lead -59,-20 --sample-classes contact --parallel 1
if ! have trail-g0.labels || ! have crashed-g0.labels; then
	: "${ALL:?retrain.sh: set ALL to the comma-separated record directories of docs/retraining.md, step 13}"
fi
reclabel trail-g0 3000000 0 "${ALL:-}" --sample-lead -400,-60 --sample-classes contact,crashed --parallel 2
reclabel crashed-g0 3000000 0 "${ALL:-}" --sample-lead -59,400 --sample-classes crashed --parallel 2
# fit FROM OUT LABELS FLAGS...
fit() {
	from=$1 out=$2 labels=$3
	shift 3
	have $out || bgtrain supervise --from $from "$@" --labels $labels --bearoff bearoff15.bgbo \
		--optimizer adam --alpha 0.0003 --alpha-end 0.00005 --batch 256 --epochs 3 --rank 50 \
		--out $out
}
fit v15.bgnet v17-1.bgnet crashed-g0.labels,trail-g0.labels,crashed.labels,trail.labels,crashed-g2.labels \
	--classes crashed
fit v17-1.bgnet v17.bgnet \
	trail-g0.labels,trail.labels,match.labels,money.labels,behind.labels,late.labels,rec-contact-g2-b.labels \
	--leading --classes leading

cp v17.bgnet default.bgnet
cp w14.bgnet second.bgnet
echo "retrain.sh: $work/default.bgnet (V17), second.bgnet (W14), window1.bgnet, window2.bgnet, pruner.bgpr"
