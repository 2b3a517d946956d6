# Run by gnubg (gnubg -t -q -r -p decisions.py) for package verdict: it
# imports one record, has gnubg analyse it, writes one JSON object a line
# for each chequer decision with a choice to the file named by
# GAMEMILL_VERDICT_OUT and for each cube decision to the file named by
# GAMEMILL_VERDICT_CUBE_OUT (files of their own, so that nothing gnubg
# prints can fall between their lines) and then prints gnubg's statistics
# of the record as "show statistics match" does. With
# GAMEMILL_VERDICT_CUBE_ONLY=1 gnubg analyses the cube decisions alone,
# about ten times as fast.
import gnubg, json, os

plies = int(os.environ['GAMEMILL_VERDICT_PLIES'])
path = os.environ['GAMEMILL_VERDICT_FILE']
out = open(os.environ['GAMEMILL_VERDICT_OUT'], 'w')
cube_out = open(os.environ['GAMEMILL_VERDICT_CUBE_OUT'], 'w')
cube_only = os.environ.get('GAMEMILL_VERDICT_CUBE_ONLY') == '1'
gnubg.command('set analysis chequerplay evaluation plies %d' % plies)
gnubg.command('set analysis cubedecision evaluation plies %d' % plies)
# The statistics read afterwards include the luck section.
gnubg.command('set analysis luck on')
if cube_only:
    gnubg.command('set analysis moves off')
gnubg.command('import mat "%s"' % path)
gnubg.command('analyse match')


def text(move):
    return ' '.join('%d/%d' % step for step in move)


# gnubg's cube analysis gives the cubeful equities of no double and of
# double/take in match winning chances in a match (in money play in
# equity normalised to the cube already); the statistics count errors in
# equity normalised to the cube, where double/pass is +1, so the script
# converts match winning chances with gnubg's own mwc2eq.
# Players: O is gnubg's player 0, X player 1.
SIDE = {'O': 0, 'X': 1}

# A no double counts among gnubg's "close or actual" cube decisions when
# the best action is within 0.16 of double/take (capped at a pass's +1),
# or when doubling was right; doubles and answers always count.
CLOSE = 0.16


def owner_name(owner, me):
    return 'centre' if owner is None else ('mover' if owner == me else 'opponent')


def situation(number, me, you, a):
    # What every decision records of the match and the position, from the
    # decider's side, as the loop below has them now.
    return {
        'game': number,
        'player': info[me]['name'],
        'length': length,
        'score': score[me],
        'opponent_score': score[you],
        'crawford': crawford,
        'cube': cube,
        'owner': owner_name(owner, me),
        'position_id': a['board'],
    }


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
    offered = None  # the last double's record, for the answer to it

    for a in g['game']:
        me = a['player']
        you = 'O' if me == 'X' else 'X'
        an = a.get('analysis') or {}
        if a['action'] in ('move', 'double') and 'nd-cubeful-eq' in an:
            sc = [0, 0]
            sc[SIDE['X']], sc[SIDE['O']] = score['X'], score['O']
            ci = gnubg.cubeinfo(cube, -1 if owner is None else SIDE[owner], SIDE[me],
                                length, tuple(sc), 1 if crawford else 0)
            nd, dt = an['nd-cubeful-eq'], an['dt-cubeful-eq']
            if length > 0:
                nd, dt = gnubg.mwc2eq(nd, ci), gnubg.mwc2eq(dt, ci)
            dp = 1.0
            double = min(dt, dp)
            best = max(nd, double)
            doubled = a['action'] == 'double'
            record = dict(situation(number, me, you, a), role='doubler')
            record.update({
                'no_double': nd,
                'double_take': dt,
                'double_pass': dp,
                'action': 'double' if doubled else 'no double',
                # gnubg's cubeless probabilities of the position at the
                # analysis depth: win, win gammon, win backgammon, lose
                # gammon, lose backgammon, for the doubler.
                'probs': an['probs'],
                'error': best - (double if doubled else nd),
                'close': doubled or best - min(dt, 1.0) < CLOSE or nd < best,
            })
            cube_out.write(json.dumps(record) + '\n')
            offered = record if doubled else None
        if a['action'] in ('take', 'drop') and offered is not None:
            # The taker's error, in the same (the doubler's) equities.
            took = a['action'] == 'take'
            dt, dp = offered['double_take'], offered['double_pass']
            answer = dict(offered, player=info[me]['name'], role='taker',
                          score=offered['opponent_score'], opponent_score=offered['score'],
                          owner=owner_name(owner, me), action='take' if took else 'pass',
                          error=max(0.0, dt - dp) if took else max(0.0, dp - dt), close=True)
            cube_out.write(json.dumps(answer) + '\n')
            offered = None
        if a['action'] == 'take':
            cube, owner = 2 * cube, a['player']
        if a['action'] != 'move':
            continue
        moves = (a.get('analysis') or {}).get('moves') or ()
        if len(moves) < 2:
            continue
        rank = a['analysis']['imove']
        best, played = moves[0], moves[rank]
        record = situation(number, me, you, a)
        record.update({
            'dice': '%d%d' % tuple(a['dice']),
            'choices': len(moves),
            'rank': rank,
            'error': best['score'] - played['score'],
            'played': text(a['move']),
            'best': text(best['move']),
        })
        out.write(json.dumps(record) + '\n')
out.close()
cube_out.close()

gnubg.command('show statistics match')
