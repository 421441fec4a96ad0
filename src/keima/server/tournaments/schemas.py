"""The typed bodies of the tournament endpoints (docs/web-api.md, *Tournaments*), as pydantic models: what the
routes accept and what they answer, and what ``/openapi.json`` shows."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from keima.server.games import ClockIn
from keima.tournament.criteria import check_criterion
from keima.tournament.model import is_line_breaking, parse_rank

ResultName = Literal["unknown", "black", "white", "draw", "both_win", "both_lose"]


def _one_line(text: str) -> str:
    # Every text of a tournament is one line of printable text: the files sent to the federations are lines, and
    # a control character once stored made the tournament unreadable (422 names the field).
    bad = next((ch for ch in text if is_line_breaking(ch)), None)
    if bad is not None:
        raise ValueError(f"control character or line break U+{ord(bad):04X}: one line of printable text only")
    return text


def _one_list_line(text: str) -> str:
    # A line of a rating list: a tab may separate its columns, nothing else that breaks a line.
    return _one_line(text.replace("\t", " "))


def _rank(text: str) -> str:
    # Ranks are read strictly (30k..1k, 1d..9d, 1p..9p): "40k" is refused, never registered as 30K.
    if text.strip():
        parse_rank(text, strict=True)
    return text


def _criterion(name: str) -> str:
    if name == "NULL":
        raise ValueError("NULL is no placement criterion")
    return check_criterion(name)


OneLine = AfterValidator(_one_line)
Name = Annotated[str, Field(min_length=1, max_length=100), OneLine]
Short = Annotated[str, Field(max_length=100), OneLine]
Rank = Annotated[str, Field(max_length=4), OneLine, AfterValidator(_rank)]
Day = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]
Seconds = Annotated[int, Field(ge=1, le=3600)]
Club = Annotated[str, Field(max_length=8), OneLine]
Country = Annotated[str, Field(max_length=2), OneLine]
Licence = Annotated[str, Field(max_length=12), OneLine]
Criteria = Annotated[list[Annotated[str, AfterValidator(_criterion)]], Field(min_length=1, max_length=6)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Settings(_Strict):
    """The engine's settings a director may set at creation and change after (``keima.server.tournaments.settings``):
    null or absent keeps the default (at creation) or the value (a change)."""

    short_name: Annotated[str, Field(min_length=1, max_length=20), OneLine] | None = None
    end_date: Day | None = None
    mm_floor: Rank | None = None
    handicap_ceiling: Annotated[int, Field(ge=0, le=9)] | None = None
    handicap_correction: Annotated[int, Field(ge=0, le=3)] | None = None
    handicap_based_on: Literal["mms", "rank"] | None = None
    #: Ranks above this one count as this one for the handicap ("no handicap above").
    no_handicap_above: Rank | None = None
    #: The main time, in minutes, and what follows it.
    main_time: Annotated[int, Field(ge=0, le=600)] | None = None
    overtime: Literal["byoyomi", "canadian", "fischer", "sudden_death"] | None = None
    byoyomi_seconds: Seconds | None = None
    canadian_stones: Annotated[int, Field(ge=1, le=100)] | None = None
    canadian_seconds: Seconds | None = None
    fischer_seconds: Seconds | None = None
    #: The placement criteria in order (OpenGotha's names: MMS, SOSM, SOSOSM, NBW, SOSW...).
    criteria: Criteria | None = None
    #: Registration for the members of this club only (its address, /c/<club>; null: open to all).
    club: Annotated[str, Field(min_length=1, max_length=48)] | None = None


class NewTournament(_Settings):
    """``POST /api/tournaments``: the caller (a registered player) directs it."""

    name: Name
    rounds: Annotated[int, Field(ge=1, le=20)] = 5
    system: Literal["mcmahon", "swiss"] = "mcmahon"
    size: Literal[9, 13, 19] = 19
    komi: Annotated[float, Field(ge=-100, le=100)] = 7.5
    rules: Annotated[str, Field(min_length=1, max_length=40), OneLine] = "french"
    begin_date: Day | None = None
    location: Short = ""
    #: McMahon bar: players at or above this rank start on the same score (``"4d"``).
    mm_bar: Rank = "4d"
    online: bool = False
    rated: bool = False
    registration_open: bool = True
    forfeit_minutes: Annotated[int, Field(ge=1, le=240)] = 15
    clock: ClockIn | None = None


class TournamentPatch(_Settings):
    """``PATCH /api/tournaments/{id}``: the settings to change (what a paired round forbids: 409)."""

    name: Name | None = None
    rounds: Annotated[int, Field(ge=1, le=20)] | None = None
    system: Literal["mcmahon", "swiss"] | None = None
    size: Literal[9, 13, 19] | None = None
    komi: Annotated[float, Field(ge=-100, le=100)] | None = None
    rules: Annotated[str, Field(min_length=1, max_length=40), OneLine] | None = None
    begin_date: Day | None = None
    location: Short | None = None
    mm_bar: Rank | None = None
    online: bool | None = None
    rated: bool | None = None
    registration_open: bool | None = None
    forfeit_minutes: Annotated[int, Field(ge=1, le=240)] | None = None
    clock: ClockIn | None = None


class DirectorIn(_Strict):
    """``POST /api/tournaments/{id}/directors``: the account named co-director."""

    name: Name


class PlayerIn(_Strict):
    """``POST /api/tournaments/{id}/players``: a player typed in (``name`` and ``rank`` at least), or one line of
    the FFG rating list (``ffg_line``) or of the EGD's (``egd_line``). ``account``: the keima account that plays
    for them online and sees their table."""

    name: Short = ""
    first_name: Short = ""
    rank: Rank = ""
    rating: Annotated[int, Field(ge=-900, le=3200)] | None = None
    club: Club = ""
    country: Country = ""
    egf_pin: Annotated[str, Field(max_length=12), OneLine] = ""
    ffg_licence: Licence = ""
    ffg_line: Annotated[str, Field(max_length=200), AfterValidator(_one_list_line)] | None = None
    egd_line: Annotated[str, Field(max_length=300), AfterValidator(_one_list_line)] | None = None
    account: Name | None = None

    @model_validator(mode="after")
    def _one_source(self) -> PlayerIn:
        lines = (self.ffg_line is not None) + (self.egd_line is not None)
        if lines > 1 or (lines == 0 and not (self.name.strip() and self.rank.strip())):
            raise ValueError("give name and rank, or one ffg_line, or one egd_line")
        return self


class PlayerPatch(_Strict):
    """``PATCH /api/tournaments/{id}/players/{key}``: what to change of a player (a new name or first name gives
    a new key). ``account``: the keima account proposed to play for them (it confirms), or null to unlink."""

    name: Annotated[str, Field(min_length=1, max_length=100), OneLine] | None = None
    first_name: Short | None = None
    rank: Rank | None = None
    rating: Annotated[int, Field(ge=-900, le=3200)] | None = None
    club: Club | None = None
    country: Country | None = None
    egf_pin: Annotated[str, Field(max_length=12), OneLine] | None = None
    ffg_licence: Licence | None = None
    account: Name | None = None


class SignUpIn(_Strict):
    """``POST /api/tournaments/{id}/signup``: how the account's player is registered (``name``: the account's
    name by default)."""

    name: Short = ""
    first_name: Short = ""
    club: Club = ""
    country: Country = ""
    ffg_licence: Licence = ""


class AbsentIn(_Strict):
    """``PUT /api/tournaments/{id}/players/{key}/absent``: absent from ``round`` (or present again)."""

    round: Annotated[int, Field(ge=1, le=20)]
    absent: bool = True


class PairIn(_Strict):
    """``POST /api/tournaments/{id}/rounds/{n}/pairing``: ``again`` replaces a pairing (before the round starts),
    dropping the director's hand changes unless ``keep`` (the tables made by hand and the chosen bye stay);
    ``seed`` draws the pairing's random choices from that seed instead of OpenGotha's name-based draws."""

    again: bool = False
    keep: bool = False
    seed: Annotated[int, Field(ge=0, le=2**31)] | None = None


class ByeIn(_Strict):
    """``PUT /api/tournaments/{id}/rounds/{n}/bye``: the player who gets the bye (null: drop a bye chosen before
    the pairing)."""

    player: Name | None


class MatchIn(_Strict):
    """``POST /api/tournaments/{id}/rounds/{n}/match``: two players' keys, seated at one table by hand."""

    a: Name
    b: Name


class SwapIn(_Strict):
    """``POST /api/tournaments/{id}/rounds/{n}/swap``: two players' keys."""

    a: Name
    b: Name


class StartIn(_Strict):
    """``POST /api/tournaments/{id}/rounds/{n}/start``: online, the games' clocks start at ``start_at`` (default:
    now)."""

    start_at: datetime | None = None


class ResultIn(_Strict):
    """``PUT /api/tournaments/{id}/rounds/{n}/tables/{t}/result``: the winner (``black``, ``white``), ``draw``,
    ``both_win``, ``both_lose`` or ``unknown`` (clears it); ``by_forfeit``: the game was not played."""

    result: ResultName
    by_forfeit: bool = False


class PersonOut(_Strict):
    name: str
    role: str


class TPlayerOut(_Strict):
    """A registered player: ``key`` names them in every other answer and request."""

    key: str
    name: str
    first_name: str
    rank: str
    rating: int
    club: str
    country: str
    ffg_licence: str = ""
    egf_pin: str = ""
    account: str | None
    #: The account a director proposed to play for this player, until it confirms (then ``account``).
    proposed_account: str | None = None
    absent: list[int]
    #: The rank ``account`` has earned on keima (``keima.server.ratings.shown``; null before its first rated game),
    #: shown beside the account's name, ``account_provisional`` with a "?"; pairing keeps ``rank``.
    account_rank: str | None = None
    account_provisional: bool = False


class TGameOut(_Strict):
    """A pairing: ``game`` is the keima game of an online round (null at the table)."""

    table: int
    white: str
    black: str
    handicap: int
    result: ResultName
    by_forfeit: bool
    game: str | None


class WarningOut(_Strict):
    """A warning about a round's pairing before it starts (``keima.tournament.checks``): ``rematch`` (``value``: the
    round they met in), ``colour`` (``value``: the player's Whites minus Blacks with this round), ``handicap``
    (``value``: the stones the ranks call for, over the ceiling), ``missing-result`` (a table of round ``round``,
    the round before, has no result). ``players``: the keys it names."""

    kind: Literal["rematch", "colour", "handicap", "missing-result"]
    round: int
    table: int | None
    players: list[str]
    value: int


class RoundOut(_Strict):
    """A round: ``present``, the players who checked in to its online games; ``forfeit_at``, when a player of an
    online round who has not shown up loses by forfeit; ``hand_tables`` and ``hand_bye``, what a director changed
    by hand; ``warnings``, before the round starts."""

    round: int
    started: bool
    start_at: str | None
    forfeit_at: str | None = None
    bye: str | None
    present: list[str]
    games: list[TGameOut]
    hand_tables: list[int] = []
    hand_bye: str | None = None
    warnings: list[WarningOut] = []


class SettingsOut(_Strict):
    """Every setting (``TournamentPatch``'s names); ``locked``: those a paired round keeps from changing now."""

    online: bool
    rated: bool
    registration_open: bool
    forfeit_minutes: int
    short_name: str
    location: str
    begin_date: str
    end_date: str
    rules: str
    mm_bar: str
    mm_floor: str
    handicap_ceiling: int
    handicap_correction: int
    handicap_based_on: Literal["mms", "rank"]
    no_handicap_above: str
    main_time: int
    overtime: Literal["byoyomi", "canadian", "fischer", "sudden_death"]
    byoyomi_seconds: int
    canadian_stones: int
    canadian_seconds: int
    fischer_seconds: int
    criteria: list[str]
    locked: list[str]
    club: str | None = None


class YouOut(_Strict):
    """The caller: a director or co-director (``role``), the key of the player they are (``player``), the key of
    the player a director proposed their account to play for (``proposed``: confirm it to play)."""

    role: str | None
    player: str | None
    proposed: str | None = None


class TournamentOut(_Strict):
    """``GET /api/tournaments/{id}``: the whole tournament, ``version`` one more after each change."""

    id: str
    name: str
    system: str
    rounds: int
    size: int
    komi: str
    version: int
    settings: SettingsOut
    directors: list[PersonOut]
    players: list[TPlayerOut]
    round_list: list[RoundOut]
    you: YouOut


class TournamentLine(_Strict):
    """A tournament of the list: its dates (``YYYY-MM-DD``), ``status`` (``registration`` before the first round
    is paired, ``round`` while round ``round`` of ``rounds`` is the last one paired, ``finished`` once the last
    round has every result) and its number of ``players``."""

    id: str
    name: str
    created_at: datetime
    updated_at: datetime
    begin_date: str = ""
    end_date: str = ""
    location: str = ""
    status: Literal["registration", "round", "finished"] = "registration"
    round: int = 0
    rounds: int = 0
    players: int = 0


class TournamentsOut(_Strict):
    """``GET /api/tournaments``: newest first."""

    tournaments: list[TournamentLine]


class StandingOut(_Strict):
    """One line: ``values`` maps each placement criterion to its value as the results files print it."""

    place: int
    key: str
    name: str
    first_name: str
    rank: str
    values: dict[str, str]


class StandingsOut(_Strict):
    """``GET /api/tournaments/{id}/standings``."""

    after_round: int
    criteria: list[str]
    lines: list[StandingOut]


class LogEntryOut(_Strict):
    seq: int
    at: datetime
    by: str
    action: str
    detail: dict[str, object]


class LogOut(_Strict):
    """``GET /api/tournaments/{id}/log``: every change, oldest first."""

    entries: list[LogEntryOut]


class MyRoundOut(_Strict):
    """A round of the caller's: their table, colour, opponent (``bye``: they have the bye), and game."""

    round: int
    bye: bool
    table: int | None
    color: Literal["B", "W"] | None
    opponent: TPlayerOut | None
    handicap: int
    result: ResultName | None
    game: str | None


class MineOut(_Strict):
    """``GET /api/tournaments/{id}/me``: the caller's player and rounds (``player`` null: not registered)."""

    player: str | None
    rounds: list[MyRoundOut]
