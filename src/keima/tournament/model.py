"""A tournament as data: its parameters, players, games and byes, with OpenGotha's defaults.

Everything here is a frozen dataclass, so a tournament is a value: pairing a round or entering a result returns a
new :class:`Tournament`. Ranks are integers as OpenGotha counts them: 30 kyu is -30, 1 kyu is -1, 1 dan is 0,
9 dan is 8 (:func:`parse_rank`, :func:`rank_text`). Rounds and tables are numbered from 1, as a director reads
them. Scores that can hold a half (a draw, an absence worth half a point) are kept doubled, as integers
(``..._x2``), which is what OpenGotha does and what makes its rounding rules exact.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from keima.rules.ruleset import RulesError, Ruleset, get_ruleset

#: 30 kyu and 9 dan, the weakest and strongest ranks a player may register with.
MIN_RANK = -30
MAX_RANK = 8
#: OpenGotha keeps one participation flag per possible round.
MAX_ROUNDS = 20


class TournamentError(ValueError):
    """A tournament, file or request that cannot be right (unknown player, repeated table, bad rank...)."""


def is_line_breaking(ch: str) -> bool:
    """Whether ``ch`` has no place in a one-line text field: a control character (C0, DEL, C1: CR and LF among
    them) or a line or paragraph separator."""
    return unicodedata.category(ch) in ("Cc", "Zl", "Zp")


def one_line(text: str) -> str:
    """``text`` with every control character and line or paragraph separator made a space: a name as a file sent
    to a federation (``.tou``, ``.h9``) or the XML may carry it, one line that forges no other."""
    return "".join(" " if is_line_breaking(ch) else ch for ch in text)


def parse_rank(text: str, *, strict: bool = False) -> int:
    """Return the rank written ``12K``, ``3D`` (also ``12k``, ``3d``, a bare number for kyu, ``1P``..``9P`` for
    professionals, counted as 7D to 9D as OpenGotha does), clamped to 30K..9D.

    ``strict`` (what a person types: the server's forms) takes only 1K..30K, 1D..9D and 1P..9P, with their letter,
    and clamps nothing: "40k" is refused rather than registered as 30K.

    Raises :class:`TournamentError` for anything else."""
    s = text.strip()
    if strict:
        m = re.fullmatch(r"([1-9][0-9]?)\s*([kKdDpP])", s)
        limit = {"K": 30, "D": 9, "P": 9}.get(m.group(2).upper(), 0) if m else 0
        if m is None or int(m.group(1)) > limit:
            raise TournamentError(f"not a rank: {text[:20]!r}: write 30k to 1k, 1d to 9d or 1p to 9p")
    if not s:
        raise TournamentError("empty rank")
    suffix = s[-1].upper()
    digits = s if suffix.isdigit() else s[:-1]
    try:
        number = int(digits)
    except ValueError:
        raise TournamentError(f"not a rank: {text!r}") from None
    if suffix.isdigit() or suffix == "K":
        rank = -number
    elif suffix == "D":
        rank = number - 1
    elif suffix == "P":
        rank = 6 if number <= 3 else 7 if number <= 6 else 8
    else:
        raise TournamentError(f"not a rank: {text!r}")
    return max(MIN_RANK, min(MAX_RANK, rank))


def rank_text(rank: int) -> str:
    """Return ``rank`` as a director writes it: ``3D``, ``12K``."""
    return f"{rank + 1}D" if rank >= 0 else f"{-rank}K"


def rank_from_rating(rating: int) -> int:
    """The rank OpenGotha gives a rating (2100 is 1D, 2000 is 1K, each 100 points a rank, rounded at 50)."""
    return max(MIN_RANK, min(MAX_RANK, (rating + 950) // 100 - 30))


def rating_from_rank(rank: int) -> int:
    """The rating OpenGotha gives a rank when nothing better is known (the middle of the rank's band)."""
    return (rank + 30) * 100 - 900


def player_key(name: str, first_name: str) -> str:
    """The key OpenGotha identifies a player by in its files: name then first name, blanks removed, upper case."""
    return (name + first_name).replace(" ", "").upper()


class System(enum.Enum):
    """The tournament system: which score players are grouped and ranked by."""

    MCMAHON = "MCMAHON"
    SWISS = "SWISS"
    SWISSCAT = "SWISSCAT"


class Result(enum.Enum):
    """A game's result; ``by_default`` on :class:`Game` says it was not played (forfeit)."""

    UNKNOWN = "UNKNOWN"
    WHITE_WINS = "WHITEWINS"
    BLACK_WINS = "BLACKWINS"
    DRAW = "EQUAL"
    BOTH_WIN = "BOTHWIN"
    BOTH_LOSE = "BOTHLOSE"


class TimeSystem(enum.Enum):
    """What follows the main time."""

    SUDDEN_DEATH = "SUDDENDEATH"
    BYO_YOMI = "STDBYOYOMI"
    CANADIAN = "CANBYOYOMI"
    FISCHER = "FISCHER"


class Seeding(enum.Enum):
    """How players of one score group are paired: top half against bottom half, in some order."""

    SPLIT_AND_RANDOM = "SPLITANDRANDOM"
    SPLIT_AND_FOLD = "SPLITANDFOLD"
    SPLIT_AND_SLIP = "SPLITANDSLIP"


class DrawMode(enum.Enum):
    """Where in its group a player drawn up or down is preferably taken from."""

    TOP = "TOP"
    MID = "MID"
    BOT = "BOT"


@dataclass(frozen=True)
class Player:
    """A registered player. ``participating[r - 1]`` is false when the player asked not to be paired in round r."""

    name: str
    first_name: str
    rank: int
    rating: int = 0
    club: str = ""
    country: str = ""
    ffg_licence: str = ""
    ffg_licence_status: str = ""
    egf_pin: str = ""
    aga_id: str = ""
    aga_expiration_date: str = ""
    rating_origin: str = ""
    grade: str = ""
    smms_correction: int = 0
    participating: tuple[bool, ...] = (True,) * MAX_ROUNDS
    registering_status: str = "FIN"

    @property
    def key(self) -> str:
        """The identifier games and byes refer to (see :func:`player_key`)."""
        return player_key(self.name, self.first_name)

    def plays(self, round_number: int) -> bool:
        """Whether the player takes part in round ``round_number`` (from 1)."""
        return 1 <= round_number <= len(self.participating) and self.participating[round_number - 1]


@dataclass(frozen=True)
class Game:
    """A game of round ``round`` at table ``table``; players by key. ``handicap`` stones go to Black."""

    round: int
    table: int
    white: str
    black: str
    handicap: int = 0
    result: Result = Result.UNKNOWN
    by_default: bool = False
    known_color: bool = True

    def opponent(self, key: str) -> str:
        """The other player of the game. Raises :class:`TournamentError` when ``key`` did not play it."""
        if key == self.white:
            return self.black
        if key == self.black:
            return self.white
        raise TournamentError(f"{key} does not play round {self.round} table {self.table}")

    def points_x2(self, key: str) -> int:
        """Twice the points ``key`` scores in this game: 2 a win, 1 a draw, 0 a loss or no result yet."""
        r = self.result
        if r is Result.BOTH_WIN:
            return 2
        if r is Result.DRAW:
            return 1
        if r is Result.WHITE_WINS:
            return 2 if key == self.white else 0
        if r is Result.BLACK_WINS:
            return 2 if key == self.black else 0
        return 0


@dataclass(frozen=True)
class GeneralParameters:
    """What a tournament is: names, dates, rounds, game settings, McMahon bar and floor, special results.

    The defaults are OpenGotha's for a McMahon tournament: bar 4D, floor 20K, an absence worth half a point of MMS
    and nothing of NBW, a bye worth a full point, half points from absences rounded down."""

    name: str = "Tournament"
    short_name: str = "tournament"
    location: str = ""
    director: str = ""
    begin_date: str = "2000-01-01"
    end_date: str = "2000-01-01"
    number_of_rounds: int = 5
    size: str = "19"
    komi: str = "7.5"
    rules: str = "french"
    internet: bool = False
    basic_time: int = 60
    time_system: TimeSystem = TimeSystem.BYO_YOMI
    byo_yomi_time: int = 30
    canadian_moves: int = 15
    canadian_time: int = 300
    fischer_time: int = 10
    mm_bar: int = 3
    mm_floor: int = -20
    mm_zero: int = -30
    nbw2_absent: int = 0
    nbw2_bye: int = 2
    mms2_absent: int = 1
    mms2_bye: int = 2
    round_down: bool = True
    count_not_played_as_half: bool = False
    number_of_categories: int = 1
    category_lower_limits: tuple[int, ...] = ()

    def ruleset(self) -> Ruleset:
        """The rules the tournament's games are played under: the preset ``rules`` with the tournament's komi.

        Raises :class:`TournamentError` for an unknown preset or a komi that is not a number."""
        try:
            return get_ruleset(self.rules, default_komi=float(self.komi))
        except (RulesError, ValueError) as exc:
            raise TournamentError(f"rules {self.rules!r}, komi {self.komi!r}: {exc}") from None


@dataclass(frozen=True)
class HandicapParameters:
    """How the handicap of a pair is found (OpenGotha's McMahon defaults: from the MMS, one stone less, at most 9,
    none when both are 1D or more)."""

    based_on_mms: bool = True
    no_handicap_above: int = 0
    correction: int = 1
    ceiling: int = 9


#: OpenGotha's default placement criteria per system.
DEFAULT_CRITERIA: Mapping[System, tuple[str, ...]] = {
    System.MCMAHON: ("MMS", "SOSM", "SOSOSM"),
    System.SWISS: ("NBW", "SOSW", "SOSOSW"),
    System.SWISSCAT: ("CAT", "NBW", "EXT", "EXR"),
}


@dataclass(frozen=True)
class PairingParameters:
    """The weights of the pairing cost, as OpenGotha names and sizes them (its McMahon defaults).

    Each weight is the most its criterion adds to the cost of a pair; the matching keeps the pairs of greatest
    total cost, so a larger weight is a stronger wish. ``last_round_seed_system_1`` is the last round (from 1)
    paired with ``seed_system_1``."""

    nx1_factor: float = 0.5
    avoid_duplicate: int = 500_000_000_000_000
    random: int = 0
    deterministic: bool = True
    balance_wb: int = 1_000_000
    avoid_mixing_categories: int = 0
    minimize_score_difference: int = 100_000_000_000
    dudd_weight: int = 100_000_000
    compensate_dudd: bool = True
    dudd_upper_mode: DrawMode = DrawMode.MID
    dudd_lower_mode: DrawMode = DrawMode.MID
    maximize_seeding: int = 5_000_000
    last_round_seed_system_1: int = 2
    seed_system_1: Seeding = Seeding.SPLIT_AND_RANDOM
    seed_system_2: Seeding = Seeding.SPLIT_AND_SLIP
    additional_criterion_1: str = "Rating"
    additional_criterion_2: str = "NULL"
    secondary_bar_threshold: bool = True
    secondary_rank_threshold: int = 0
    secondary_wins_threshold: bool = True
    default_secondary: int = 100_000_000_000
    minimize_handicap: int = 0
    avoid_same_geo: int = 100_000_000_000
    prefer_score_gap_to_same_country: int = 1
    prefer_score_gap_to_same_clubs_group: int = 2
    prefer_score_gap_to_same_club: int = 3

    @classmethod
    def for_system(cls, system: System) -> PairingParameters:
        """OpenGotha's defaults for ``system``."""
        if system is System.MCMAHON:
            return cls()
        if system is System.SWISS:
            return cls(
                seed_system_1=Seeding.SPLIT_AND_SLIP,
                additional_criterion_2="Rating",
                secondary_rank_threshold=MIN_RANK,
                default_secondary=20_000_000_000_000,
                avoid_same_geo=0,
                prefer_score_gap_to_same_country=0,
                prefer_score_gap_to_same_club=0,
            )
        return cls(
            avoid_mixing_categories=20_000_000_000_000,
            seed_system_2=Seeding.SPLIT_AND_FOLD,
            default_secondary=20_000_000_000_000,
            minimize_handicap=20_000_000_000_000,
            avoid_same_geo=20_000_000_000_000,
        )


@dataclass(frozen=True)
class Tournament:
    """A whole tournament. ``byes`` maps a round (from 1) to the key of its bye player.

    ``extra`` keeps what an OpenGotha file holds that keima does not use (display settings, teams, its version
    attributes), keyed by where it was, so that writing the file back loses nothing."""

    general: GeneralParameters = field(default_factory=GeneralParameters)
    handicap: HandicapParameters = field(default_factory=HandicapParameters)
    criteria: tuple[str, ...] = DEFAULT_CRITERIA[System.MCMAHON]
    pairing: PairingParameters = field(default_factory=PairingParameters)
    players: tuple[Player, ...] = ()
    games: tuple[Game, ...] = ()
    byes: Mapping[int, str] = field(default_factory=dict)
    clubs_groups: tuple[tuple[str, tuple[str, ...]], ...] = ()
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def system(self) -> System:
        """The system the placement criteria imply: McMahon when MMS comes before NBW, Swiss with categories when
        CAT leads, Swiss otherwise (OpenGotha's rule)."""
        for crit in self.criteria:
            if crit == "CAT":
                return System.SWISSCAT
            if crit == "MMS":
                return System.MCMAHON
            if crit in ("NBW", "CPS"):
                return System.SWISS
        return System.SWISS

    def player(self, key: str) -> Player:
        """The player of key ``key``; raises :class:`TournamentError` when there is none."""
        for p in self.players:
            if p.key == key:
                return p
        raise TournamentError(f"no player {key!r}")

    def with_player(self, player: Player) -> Tournament:
        """This tournament with ``player`` registered. Raises :class:`TournamentError` when a player of the same
        name and first name (the same key) is already registered."""
        if any(p.key == player.key for p in self.players):
            who = " ".join(x for x in (player.name.strip(), player.first_name.strip()) if x)
            raise TournamentError(f"{who} is already registered")
        return replace(self, players=self.players + (player,))

    def games_of_round(self, round_number: int) -> list[Game]:
        """The games of a round, by table."""
        return sorted((g for g in self.games if g.round == round_number), key=lambda g: g.table)

    def with_games(self, games: Iterable[Game], bye: str | None, round_number: int) -> Tournament:
        """This tournament with ``games`` added and ``bye`` (or none) as the bye of ``round_number``."""
        byes = {r: k for r, k in self.byes.items() if r != round_number}
        if bye is not None:
            byes[round_number] = bye
        return replace(self, games=self.games + tuple(games), byes=byes)

    def check(self) -> None:
        """Raise :class:`TournamentError` when the rules or komi are unknown, two players share a key, a game names
        an unknown player or a player twice in a round, or two games share a table."""
        self.general.ruleset()
        keys = [p.key for p in self.players]
        if len(set(keys)) != len(keys):
            raise TournamentError("two players have the same name and first name")
        known = set(keys)
        seen: set[tuple[int, str]] = set()
        tables: set[tuple[int, int]] = set()
        for g in self.games:
            if (g.round, g.table) in tables:
                raise TournamentError(f"round {g.round} has two games at table {g.table}")
            tables.add((g.round, g.table))
            for k in (g.white, g.black):
                if k not in known:
                    raise TournamentError(f"round {g.round} table {g.table}: unknown player {k!r}")
                if (g.round, k) in seen:
                    raise TournamentError(f"{k} plays twice in round {g.round}")
                seen.add((g.round, k))
        for r, k in self.byes.items():
            if k not in known:
                raise TournamentError(f"round {r}: unknown bye player {k!r}")
            if (r, k) in seen:
                raise TournamentError(f"{k} has the bye of round {r} and a game")
