#!/usr/bin/env python3
"""IDA* with Manhattan distance, speaking tilebench's solver protocol (docs/solver-protocol.md).

Reads {"width", "height", "tiles", "goal"} from standard input and prints one JSON line with the
moves (named by the direction the blank travels) and its node counts, counted as tilebench counts
them: a node is *generated* when it is created as a child after parent pruning (even if the bound
then prunes it), *expanded* when its children are generated; the root is not generated.
Operators are tried in Korf's order: the blank moves up, left, right, down.

Try it:  tilebench solve --solver "python3 examples/solvers/ida_manhattan.py" 8 6 7 2 5 4 3 0 1
"""
import json
import sys


def main():
    request = json.loads(sys.stdin.readline())
    w, h = request["width"], request["height"]
    board, goal = list(request["tiles"]), request["goal"]
    n = w * h
    goal_cell = [0] * n
    for cell, tile in enumerate(goal):
        goal_cell[tile] = cell

    def distance(tile, cell):
        g = goal_cell[tile]
        return abs(cell // w - g // w) + abs(cell % w - g % w)

    # Operators per blank cell, in Korf's order; index 3 - i is the opposite of move i.
    moves = [("U", -w, lambda c: c >= w), ("L", -1, lambda c: c % w > 0),
             ("R", 1, lambda c: c % w < w - 1), ("D", w, lambda c: c < n - w)]
    ops = [[(i, letter, c + step) for i, (letter, step, ok) in enumerate(moves) if ok(c)]
           for c in range(n)]

    # The parity rule: the permutation's parity must match the blank's taxicab distance.
    seen, cycles = [False] * n, 0
    for start in range(n):
        cycles += not seen[start]
        c = start
        while not seen[c]:
            seen[c], c = True, goal_cell[board[c]]
    if (n - cycles) % 2 != distance(0, board.index(0)) % 2:
        print(json.dumps({"solvable": False}))
        return

    path, count = [], {"generated": 0, "expanded": 0}

    def search(g, blank, back, h, bound):
        """Depth-first below the current board; returns True when solved, else the next bound."""
        count["expanded"] += 1
        next_bound = float("inf")
        for i, letter, to in ops[blank]:
            if i == back:  # parent pruning: never undo the last move
                continue
            count["generated"] += 1
            tile = board[to]
            child_h = h - distance(tile, to) + distance(tile, blank)
            if g + 1 + child_h > bound:  # the cutoff test comes before the goal test
                next_bound = min(next_bound, g + 1 + child_h)
                continue
            board[blank], board[to] = tile, 0
            path.append(letter)
            if child_h == 0:
                return True
            result = search(g + 1, to, 3 - i, child_h, bound)
            if result is True:
                return True
            next_bound = min(next_bound, result)
            path.pop()
            board[blank], board[to] = 0, tile
        return next_bound

    h0 = sum(distance(t, c) for c, t in enumerate(board) if t != 0)
    bound, iterations = h0, []
    while True:
        before = dict(count)
        result = True if board == goal else search(0, board.index(0), None, h0, bound)
        iterations.append({"bound": bound,
                           "generated": count["generated"] - before["generated"],
                           "expanded": count["expanded"] - before["expanded"]})
        if result is True:
            break
        bound = result
    print(json.dumps({"moves": "".join(path), "nodes_generated": count["generated"],
                      "nodes_expanded": count["expanded"], "iterations": iterations}))


if __name__ == "__main__":
    main()
