# Run by gnubg (gnubg -t -q -r -p decisions.py) for package verdict: it
# imports one record, has gnubg analyse it, writes one JSON object a line
# for each chequer decision with a choice to the file named by
# GAMEMILL_VERDICT_OUT (a file of its own, so that nothing gnubg prints can
# fall between its lines) and then prints gnubg's statistics of the record
# as "show statistics match" does.
import gnubg, json, os

plies = int(os.environ['GAMEMILL_VERDICT_PLIES'])
path = os.environ['GAMEMILL_VERDICT_FILE']
out = open(os.environ['GAMEMILL_VERDICT_OUT'], 'w')
gnubg.command('set analysis chequerplay evaluation plies %d' % plies)
gnubg.command('set analysis cubedecision evaluation plies %d' % plies)
gnubg.command('import mat "%s"' % path)
gnubg.command('analyse match')


def text(move):
    return ' '.join('%d/%d' % step for step in move)


m = gnubg.match(analysis=1, boards=1, statistics=0, verbose=0)
info = m['match-info']
length = info.get('match-length', 0)
crawford_rule = length > 1 and 'Crawford' in info.get('rules', ())
crawford_played = False
for number, g in enumerate(m['games'], 1):
    score = {'X': g['info']['score-X'], 'O': g['info']['score-O']}
    # Under the Crawford rule, the Crawford game is the first game in
    # which a side is 1-away.
    crawford = (crawford_rule and not crawford_played and length - 1 in score.values())
    crawford_played = crawford_played or crawford
    cube, owner = 1, None
    for a in g['game']:
        if a['action'] == 'take':
            cube, owner = 2 * cube, a['player']
        if a['action'] != 'move':
            continue
        moves = (a.get('analysis') or {}).get('moves') or ()
        if len(moves) < 2:
            continue
        me = a['player']
        you = 'O' if me == 'X' else 'X'
        rank = a['analysis']['imove']
        best, played = moves[0], moves[rank]
        out.write(json.dumps({
            'game': number,
            'player': info[me]['name'],
            'length': length,
            'score': score[me],
            'opponent_score': score[you],
            'crawford': crawford,
            'cube': cube,
            'owner': 'centre' if owner is None else ('mover' if owner == me else 'opponent'),
            'position_id': a['board'],
            'dice': '%d%d' % tuple(a['dice']),
            'choices': len(moves),
            'rank': rank,
            'error': best['score'] - played['score'],
            'played': text(a['move']),
            'best': text(best['move']),
        }) + '\n')
out.close()

gnubg.command('show statistics match')
