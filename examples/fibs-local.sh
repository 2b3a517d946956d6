#!/bin/sh
# A local FIBS-style server and two bgbot bridges playing a 5-point match on
# it, one over TCP and one over WebSocket (see docs/fibs.md). Everything goes
# to a temporary directory; the three .mat records are listed at the end.
# The programs are built into bin/ at the repository root, as everywhere.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root" && go build -o bin/ ./cmd/fibsd ./cmd/fibsbridge)
bin=$root/bin
dir=$(mktemp -d)
for u in alice bob; do
	echo "pw-$u" > "$dir/$u.pw"
	"$bin/fibsd" adduser --db "$dir/fibsd.db" "$u" < "$dir/$u.pw"
done
"$bin/fibsd" serve --db "$dir/fibsd.db" --tcp 127.0.0.1:14321 --ws 127.0.0.1:14380 \
	--records "$dir/server" 2> "$dir/fibsd.log" &
server=$!
trap 'kill $server 2>/dev/null' EXIT
sleep 1
"$bin/fibsbridge" --server ws://127.0.0.1:14380/fibs --user alice --password-file "$dir/alice.pw" \
	--accept all --matches 1 --records "$dir/alice" --builtin "--level net" 2> "$dir/alice.log" &
alice=$!
"$bin/fibsbridge" --server tcp://127.0.0.1:14321 --user bob --password-file "$dir/bob.pw" \
	--invite alice:5 --matches 1 --records "$dir/bob" --builtin "--level net" 2> "$dir/bob.log"
wait $alice
ls "$dir"/server/*.mat "$dir"/alice/*.mat "$dir"/bob/*.mat
