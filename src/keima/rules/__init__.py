"""The referee: board, rulesets, game flow, counting and life. Pure Python, no I/O, imports nothing else of keima."""

from keima.rules.board import BLACK, EMPTY, WHITE, Board, Chain, color_name, opponent, parse_color
from keima.rules.coords import CoordinateError, from_gtp, from_sgf, to_gtp, to_sgf
from keima.rules.game import Event, Game, GameError, IllegalMove, MoveRecord
from keima.rules.ruleset import PRESETS, RulesError, Ruleset, get_ruleset
from keima.rules.scoring import METHODS, Breakdown, MethodScore, Score
from keima.rules.shape import PlayEffect, is_true_eye, play_effect

__all__ = [
    "BLACK",
    "EMPTY",
    "METHODS",
    "PRESETS",
    "WHITE",
    "Board",
    "Breakdown",
    "Chain",
    "CoordinateError",
    "Event",
    "Game",
    "GameError",
    "IllegalMove",
    "MethodScore",
    "MoveRecord",
    "PlayEffect",
    "RulesError",
    "Ruleset",
    "Score",
    "color_name",
    "from_gtp",
    "from_sgf",
    "get_ruleset",
    "is_true_eye",
    "opponent",
    "parse_color",
    "play_effect",
    "to_gtp",
    "to_sgf",
]
