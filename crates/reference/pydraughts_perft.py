#!/usr/bin/env python3
"""Perft counts from pydraughts, an independent draughts library, as reference data for crowned's tests.

What it computes: for each variant pydraughts plays, the number of move sequences of each depth from the start
position and from a few set-up positions (PDN FEN with square numbers, as pydraughts reads them). A move is
counted as crowned's `perft` counts it: once per start square, order of pieces taken and end square, so that
routes of a flying king that differ only in where it stopped between two captures are one move. pydraughts lists
every such route separately; the script prints that count too ("routes") for the first ply, to show where the two
conventions part.

Square numbers: pydraughts numbers the playable squares row by row from the top of the diagram (Black's side),
left to right, 1 first; on the all-squares Turkish board square n is row (n-1)//8 from the top and column
(n-1)%8, so 1 is a8 and 64 is h1. White moves up the board in every variant.

Version used: pydraughts 0.6.7 (PyPI), Python 3.11.

How to run:
    python3 -m venv /tmp/pyref && /tmp/pyref/bin/pip install pydraughts==0.6.7
    /tmp/pyref/bin/python crates/reference/pydraughts_perft.py > pydraughts-perft.txt
    /tmp/pyref/bin/python crates/reference/pydraughts_perft.py --ends    # only ENDS_POSITIONS, in about 2 s

It takes about 5 minutes on one core (most of it Turkish depth 5, English, Italian and Russian depth 6).
"""

import sys
import time
from fractions import Fraction

from draughts.core.game import Game

# Depths: what runs in about a minute in all (pydraughts is slow: it copies the board for every jump).
START_DEPTHS = {
    "turkish": 5,
    "standard": 4,
    "english": 6,
    "italian": 6,
    "russian": 6,
    "brazilian": 5,
    "antidraughts": 4,
    "breakthrough": 4,
    "frisian": 4,
    "frysk!": 5,
}

# Set-up positions, each chosen for a rule: (variant, FEN, depth, what it exercises).
POSITIONS = [
    # Turkish: all 64 squares, numbered 1 (a8) to 64 (h1).
    ("turkish", "W:WK57,44,45,30:B28,20,12,36,35,22,14",
     4, "a white king on a1 flying up the a-file and along rows; men of both sides; majority capture"),
    ("turkish", "W:WK36,51:B35,19,21,28,13,44,46,54",
     4, "a king in a crowd: long multi-captures, squares crossed twice, no 180-degree turns"),
    ("turkish", "W:W19,K64:B11,4,6,43,22",
     4, "a white man that reaches the far row in the middle of a capture and could go on along it"),
    ("turkish", "B:WK29,K40,50,51,53:BK20,27,38,43,K9",
     4, "kings on both sides, Black to move"),
    ("turkish", "W:WK41,51:B43,45,28,18,33,13",
     4, "a king that must cross the square of a piece it took (c3) to take the most"),
    ("turkish", "W:WK36,55:B20,52,22,15",
     4, "a king between two men on its file: no turning straight back"),
    # International (pydraughts' "standard"), 50 squares.
    ("standard", "W:WK46,28,33,34,39:B9,12,17,19,22,23,K45",
     4, "flying kings and a majority capture"),
    ("standard", "W:W6,7,31,32,K50:B11,12,21,22,K3,36",
     4, "men about to crown, one only by a capture that ends on the far row"),
    ("standard", "B:W20,21,22,29,31,32,33,K48:B2,7,13,K4,K44",
     4, "Black kings taking several pieces"),
    # 8x8 boards, 32 squares.
    ("russian", "W:W18,19,27,K30:B5,6,7,14,22,K1",
     4, "a man crowned in a capture goes on as a king"),
    ("brazilian", "W:W18,19,27,K30:B5,6,7,14,22,K1",
     4, "the same as Russian: majority, crowned only at the end"),
    ("english", "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
     5, "kings and men, short jumps, crowning ends the move"),
    ("italian", "W:W21,22,23,K30,28:B10,14,15,18,K6,K9",
     4, "the Italian capture priorities; men cannot take kings"),
    ("frisian", "W:W31,32,33,K46,28:B17,18,22,23,K3",
     3, "orthogonal and diagonal captures, value of kings"),
]

# Set-up positions where the game ends inside the tree (run alone with `--ends`). For these the script also prints
# perft with a finished game as a leaf without moves ("game over terminal"): pydraughts' `Game.legal_moves` does
# not look at whether the game is over, so its plain counts go on playing after a breakthrough man has crowned.
ENDS_POSITIONS = [
    ("breakthrough", "B:W28,31,33,34,36-38,41-43,45,46,49,50:B1,3-8,10-13,21,24,30",
     3, "Black's only move 30x48 ends on Black's crowning row: Black has won"),
    ("breakthrough", "W:W7,32,37,38:B4,19,23,44",
     4, "crowning by a plain move: White 7-1 or 7-2 at once, Black 44-49 or 44-50 at the next ply"),
    ("breakthrough", "W:W12,31,48:B2,19,38",
     4, "crowning by a capture: White 48-42/43 lets Black 38x47/49, Black 2-7/8 lets White 12x1/3"),
    ("breakthrough", "W:W15,22,36,45,47:B3,9,10,18,26,34",
     4, "two captures of two: 22x13x4 ends on the far row (crowns), 15x4x13 passes it (stays a man)"),
    ("breakthrough", "B:W20,31,35,42,43,50:B1,5,14,26,39",
     4, "the same for Black: 26x37x48 crowns, 39x48x37 passes the far row and stays a man"),
    ("frisian", "W:WK44,K11,27:BK6,23,8,28",
     3, "white kings taking three along diagonals and rows, several end squares; black kings"),
    ("frisian", "B:WK48,K5,11,41,18:BK31,K24,12,15,3",
     3, "black kings taking along a file (31x1) or a diagonal; white kings answer"),
    ("frisian", "W:WK7,K24,33:BK46,40,9,23",
     3, "a white king taking along a row then a diagonal or a file (7x10x50); two routes of one move"),
    ("antidraughts", "B:W27,28,33:B17,21,22",
     4, "a side left without a move (it wins) inside the tree"),
]

POSITIONS += ENDS_POSITIONS


def key(move, captures):
    """A move as crowned counts it: start, pieces taken in order, end."""
    return (move[0][0], tuple(c for c in captures if c is not None), move[-1][1])


def passes_over_a_piece(game, move, captures):
    """Whether a Turkish move that takes nothing passes over a piece on its way.

    pydraughts 0.6.7 lets a Turkish king's quiet move go through pieces along its row or file (its function for
    those moves, `get_directional_orthogonal_multiple_squares_adjacent_positions`, does not stop at the first
    piece as the diagonal one does). Every rule text has kings move over empty squares only, so such moves are
    dropped here. (The other correction made to pydraughts is `frisian_legal`.)
    """
    if game.variant != "turkish" or any(c is not None for c in captures):
        return False
    (start, end), = move
    (r0, c0), (r1, c1) = divmod(start - 1, 8), divmod(end - 1, 8)
    dr, dc = (r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)
    filled = game.board.searcher.filled_positions
    r, c = r0 + dr, c0 + dc
    while (r, c) != (r1, c1):
        if r * 8 + c + 1 in filled:
            return True
        r, c = r + dr, c + dc
    return False


def frisian_legal(game):
    """pydraughts' Frisian choice of captures, with the values added exactly.

    pydraughts 0.6.7 (`Game.legal_moves`) values a man 1 and a king 1.501 (a king is worth more than a man and
    less than two; of equal captures the one taking kings is preferred) and keeps the routes whose float sum equals
    the largest exactly. The sum depends on the order: 1 + 1.501 + 1 + 1 + 1.501 is 6.001999999999999 and
    1 + 1.501 + 1.501 + 1 + 1 is 6.002, so a route taking the same pieces in another order is dropped (in
    `W:WK48,K5,11,41:BK9,K24,12,15,3`, 15 of 38 routes). Here the values are fractions; the rest of its choice is
    kept as it is: a king's capture before a man's of the same value. (Its limit on a king's quiet moves looks at
    the game's history, which `copy_fast` does not keep, so it never applies in these trees.)
    """
    moves, captures = game.get_moves()
    piece_at = game.board.searcher.get_piece_by_position
    king, man = Fraction(1501, 1000), Fraction(1)
    values = [sum((king if piece_at(p).king else man) for p in c if p is not None) for c in captures]
    best = max(values, default=Fraction(0))
    kept = [(m, c) for m, c, v in zip(moves, captures, values) if v == best]
    if any(piece_at(m[0][0]).king for m, c in kept if c[0] is not None):
        kept = [(m, c) for m, c in kept if c[0] is None or piece_at(m[0][0]).king]
    return [m for m, _ in kept], [c for _, c in kept]


def legal(game):
    """pydraughts' legal moves and their captures, less the Turkish quiet moves through pieces, with Frisian
    captures chosen by exact values (`frisian_legal`)."""
    if game.variant in ("frisian", "frysk!"):
        moves, captures = frisian_legal(game)
    else:
        moves, captures = game.legal_moves()
    kept = [(m, c) for m, c in zip(moves, captures) if not passes_over_a_piece(game, m, c)]
    return [m for m, _ in kept], [c for _, c in kept]


def moves_of(game):
    """The distinct moves of a position (by `key`) with one route for each, and the number of routes."""
    moves, captures = legal(game)
    distinct = {}
    for move, taken in zip(moves, captures):
        distinct.setdefault(key(move, taken), move)
    return list(distinct.values()), len(moves)


def walk(game, depth, moves_at, ends=False):
    """The leaves `depth` plies below `game`, the moves of each position given by `moves_at`. With `ends`, a
    position where pydraughts says the game is over (`Game.is_over`) has no moves: in breakthrough, one where a
    side has a king (`Game.has_player_won`), the first man to crown having won. A finished game reached at the last
    ply still counts as one leaf, as any other position there."""
    if depth == 0:
        return 1
    if ends and game.is_over():
        return 0
    moves = moves_at(game)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = game.copy_fast()
        child.push(move)
        total += walk(child, depth - 1, moves_at, ends)
    return total


def every_route(game, depth, ends=False):
    """Perft counting every route pydraughts lists, as it lists them."""
    return walk(game, depth, lambda g: legal(g)[0], ends)


def perft(game, depth, ends=False):
    """Perft counting moves as crowned does (`key`)."""
    return walk(game, depth, lambda g: moves_of(g)[0], ends)


def report(variant, fen, depth, why):
    game = Game(variant=variant, fen=fen)
    began = time.time()
    counts = [perft(game, d) for d in range(1, depth + 1)]
    routes = [every_route(game, d) for d in range(1, min(depth, 3) + 1)]
    print(f"{variant:<12} {fen}")
    print(f"    {why}")
    print(f"    perft 1..{depth}: {counts}  (every route: {routes}; {time.time() - began:.1f} s)", flush=True)


def report_ends(variant, fen, depth, why):
    """`report` for a position of ENDS_POSITIONS: the plain counts, then with a finished game as a leaf."""
    game = Game(variant=variant, fen=fen)
    began = time.time()
    counts = [perft(game, d) for d in range(1, depth + 1)]
    routes = [every_route(game, d) for d in range(1, min(depth, 2) + 1)]
    ends = [perft(game, d, ends=True) for d in range(1, depth + 1)]
    ends_routes = [every_route(game, d, ends=True) for d in range(1, min(depth, 2) + 1)]
    print(f"{variant:<12} {fen}")
    print(f"    {why}")
    print(f"    plain:                perft 1..{depth}: {counts}  (every route 1..{len(routes)}: {routes})")
    print(f"    game over terminal:   perft 1..{depth}: {ends}  (every route 1..{len(ends_routes)}: {ends_routes})"
          f"  ({time.time() - began:.1f} s)", flush=True)


def main():
    if "--ends" in sys.argv[1:]:
        for variant, fen, depth, why in ENDS_POSITIONS:
            report_ends(variant, fen, depth, why)
        return
    for variant, depth in START_DEPTHS.items():
        report(variant, "startpos", depth, "the start position")
    for variant, fen, depth, why in POSITIONS:
        if (variant, fen, depth, why) in ENDS_POSITIONS:
            report_ends(variant, fen, depth, why)
        else:
            report(variant, fen, depth, why)


if __name__ == "__main__":
    main()
