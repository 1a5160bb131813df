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
    /tmp/pyref/bin/python tests/reference/pydraughts_perft.py > pydraughts-perft.txt

It takes about 5 minutes on one core (most of it Turkish depth 5, English, Italian and Russian depth 6).
"""

import time

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


def key(move, captures):
    """A move as crowned counts it: start, pieces taken in order, end."""
    return (move[0][0], tuple(c for c in captures if c is not None), move[-1][1])


def passes_over_a_piece(game, move, captures):
    """Whether a Turkish move that takes nothing passes over a piece on its way.

    pydraughts 0.6.7 lets a Turkish king's quiet move go through pieces along its row or file (its function for
    those moves, `get_directional_orthogonal_multiple_squares_adjacent_positions`, does not stop at the first
    piece as the diagonal one does). Every rule text has kings move over empty squares only, so such moves are
    dropped here; this is the only correction made to pydraughts.
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


def legal(game):
    """pydraughts' legal moves and their captures, less the Turkish quiet moves through pieces."""
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


def every_route(game, depth):
    """Perft counting every route pydraughts lists, as it lists them."""
    moves, _ = legal(game)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = game.copy_fast()
        child.push(move)
        total += every_route(child, depth - 1)
    return total


def perft(game, depth):
    if depth == 0:
        return 1
    moves, _ = moves_of(game)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = game.copy_fast()
        child.push(move)
        total += perft(child, depth - 1)
    return total


def report(variant, fen, depth, why):
    game = Game(variant=variant, fen=fen)
    began = time.time()
    counts = [perft(game, d) for d in range(1, depth + 1)]
    routes = [every_route(game, d) for d in range(1, min(depth, 3) + 1)]
    print(f"{variant:<12} {fen}")
    print(f"    {why}")
    print(f"    perft 1..{depth}: {counts}  (every route: {routes}; {time.time() - began:.1f} s)", flush=True)


def main():
    for variant, depth in START_DEPTHS.items():
        report(variant, "startpos", depth, "the start position")
    for variant, fen, depth, why in POSITIONS:
        report(variant, fen, depth, why)


if __name__ == "__main__":
    main()
