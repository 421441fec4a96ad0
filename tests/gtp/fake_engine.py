"""A deliberately misbehaving GTP engine for the referee tests (run as a script).

Usage: ``python fake_engine.py MODE [ARG...]``. Every command is answered ``=`` except:

* ``genmove``: by MODE. ``pass`` always passes; ``script`` plays the comma-separated vertices of ARG in
  order, then passes; ``illegal`` answers the vertex the opponent just played (occupied) or A1 first;
  ``crash`` exits with code 3 and a message on stderr; ``hang`` sleeps forever; ``garbage`` answers
  ``= banana``; ``noframe`` writes a line that is not GTP; ``fail`` answers ``? out of ideas``;
  ``resign`` resigns.
* ``play``: mode ``refuse`` answers ``? illegal move`` to every ``play`` of a stone (passes are accepted).
* ``final_status_list dead``: ARG of the form ``dead=C3+D4`` lists those vertices (default: none).
* ``known_command``: true only for the commands answered here (never ``kgs-genmove_cleanup``).
"""

from __future__ import annotations

import sys
import time

KNOWN = {"protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
         "clear_board", "komi", "play", "genmove", "final_status_list", "time_settings", "fixed_handicap",
         "set_free_handicap"}


def main() -> int:
    mode = sys.argv[1]
    extra = sys.argv[2:]
    moves = next((a for a in extra if not a.startswith("dead=")), "")
    script = [v for v in moves.split(",") if v] if mode == "script" else []
    dead = next((a[5:].replace("+", " ") for a in extra if a.startswith("dead=")), "")
    last_played = ""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd_id = words[0] if words[0].isdigit() else ""
        if cmd_id:
            words = words[1:]
        name, args = (words[0], words[1:]) if words else ("", [])
        out = "= "
        if name == "genmove":
            if mode == "crash":
                print("fake engine: crashing on purpose", file=sys.stderr, flush=True)
                return 3
            if mode == "hang":
                time.sleep(3600)
            if mode == "noframe":
                sys.stdout.write("this is not gtp\n\n")
                sys.stdout.flush()
                continue
            if mode == "fail":
                out = "? out of ideas"
            elif mode == "garbage":
                out = "= banana"
            elif mode == "resign":
                out = "= resign"
            elif mode == "illegal":
                out = "= " + (last_played or "A1")
                last_played = last_played or "A1"
            elif script:
                out = "= " + script.pop(0)
            else:
                out = "= pass"
        elif name == "play":
            if mode == "refuse" and len(args) == 2 and args[1].lower() != "pass":
                out = "? illegal move"
            elif len(args) == 2:
                last_played = args[1]
        elif name == "final_status_list":
            out = "= " + dead
        elif name == "known_command":
            out = "= " + ("true" if args and args[0] in KNOWN else "false")
        elif name == "name":
            out = "= fake-" + mode
        elif name not in KNOWN:
            out = "? unknown command"
        mark, rest = out[0], out[1:]
        sys.stdout.write(f"{mark}{cmd_id}{rest}\n\n")
        sys.stdout.flush()
        if name == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
