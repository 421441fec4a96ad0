"""The typed bodies of the club endpoints (docs/web-api.md, *Clubs*): what the routes accept and answer."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from keima.server.clubs.ladder import DAYS_MAX, DAYS_MIN, REACH_MAX


def _one_line(text: str) -> str:
    # A club's city and link are shown on one line: no line break nor control character (422 names the field).
    if any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or c in "\u2028\u2029" for c in text):
        raise ValueError("one line of printable text only")
    return text.strip()


def _link(text: str) -> str:
    text = _one_line(text)
    if text and not text.startswith(("https://", "http://")):
        raise ValueError("a link begins with https:// or http://")
    return text


OneLine = AfterValidator(_one_line)
City = Annotated[str, Field(max_length=80), OneLine]
Link = Annotated[str, Field(max_length=300), AfterValidator(_link)]
Description = Annotated[str, Field(max_length=2000)]
PlayerName = Annotated[str, Field(min_length=1, max_length=40)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LadderSettings(_Strict):
    """The ladder's rules: ``reach`` the places above one's own a member may challenge, ``days`` to accept a
    challenge before losing it, ``speed`` of the ladder games, their board ``size``."""

    reach: Annotated[int, Field(ge=1, le=REACH_MAX)] = 3
    days: Annotated[int, Field(ge=DAYS_MIN, le=DAYS_MAX)] = 7
    speed: Literal["live", "correspondence"] = "correspondence"
    size: Literal[9, 13, 19] = 19


class NewClub(_Strict):
    """``POST /api/clubs``."""

    name: Annotated[str, Field(min_length=1, max_length=100)]
    code: Annotated[str, Field(max_length=8)] | None = None
    city: City = ""
    description: Description = ""
    link: Link = ""
    ladder: LadderSettings = Field(default_factory=LadderSettings)


class ClubPatch(_Strict):
    """``PATCH /api/clubs/{slug}``: the fields given change; ``new_invite`` makes a new invitation code (the old
    link stops working)."""

    name: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    code: Annotated[str, Field(max_length=8)] | None = None
    city: City | None = None
    description: Description | None = None
    link: Link | None = None
    ladder: LadderSettings | None = None
    new_invite: bool = False


class JoinIn(_Strict):
    """``POST /api/clubs/{slug}/members``: the invitation code (a member at once), or none (a request)."""

    code: Annotated[str, Field(min_length=1, max_length=64)] | None = None


class RoleIn(_Strict):
    """``PUT /api/clubs/{slug}/members/{name}``: accept a request (``member``), name or unname an admin."""

    role: Literal["member", "admin"]


class ChallengeIn(_Strict):
    """``POST /api/clubs/{slug}/ladder/challenges``: the member challenged, by name."""

    defender: PlayerName


class AnnouncementIn(_Strict):
    """``POST /api/clubs/{slug}/announcements``."""

    text: Annotated[str, Field(min_length=1, max_length=1000)]


class ImportIn(_Strict):
    """``POST /api/clubs/{slug}/imports``: lines of the FFG rating list (``ech_ffg_V3.txt``); those of the club's
    code are kept."""

    lines: Annotated[str, Field(min_length=1, max_length=2_000_000)]


class ProposeIn(_Strict):
    """``PUT /api/clubs/{slug}/imports/{licence}``: the account the line is proposed to (null: nobody)."""

    account: PlayerName | None


class AnswerIn(_Strict):
    """``POST /api/clubs/{slug}/imports/{licence}/answer``: the account holder's answer."""

    accept: bool


class ClubLine(_Strict):
    """A club in a list: its address, name, FFG code, city, number of members, the reader's role (lists of the
    reader's clubs only)."""

    slug: str
    name: str
    code: str | None
    city: str
    members: int = 0
    role: str | None = None


class ClubsOut(_Strict):
    clubs: list[ClubLine]


class MemberOut(_Strict):
    """A member: name, rank shown (earned from rated games, or typed; ``provisional``), ``earned``, role, ladder
    place, FFG licence (when given)."""

    name: str
    rank: str | None
    provisional: bool
    earned: bool
    role: str
    place: int | None
    licence: str | None


class GameLine(_Strict):
    """A member's game: id, the players' names, result (null while on), board size, when (started or ended)."""

    id: str
    black: str | None
    white: str | None
    result: str | None
    size: int
    at: float


class AnnouncementOut(_Strict):
    id: int
    by: str | None
    at: float
    text: str


class TournamentLine(_Strict):
    """A tournament for the club's members: its id, name and when it was made."""

    id: str
    name: str
    at: float


class YouOut(_Strict):
    """The reader in this club: ``role`` (null: not in it), the invitation ``code`` (admins only), the FFG line
    proposed to them (``proposal``)."""

    role: str | None
    code: str | None = None
    proposal: dict[str, str | None] | None = None


class ClubOut(_Strict):
    """``GET /api/clubs/{slug}``: the club, its members by rank (``requests`` for admins only), its members'
    games in progress and recent results, its announcements, its tournaments (registration for its members), and
    the reader."""

    slug: str
    name: str
    code: str | None
    city: str
    description: str
    link: str | None
    ladder_settings: LadderSettings
    members: list[MemberOut]
    requests: list[MemberOut]
    live: list[GameLine]
    recent: list[GameLine]
    announcements: list[AnnouncementOut]
    tournaments: list[TournamentLine]
    you: YouOut


class ChallengeOut(_Strict):
    """A ladder challenge: id, the players' names, status (``open``, ``playing``, ``won``, ``lost``, ``expired``,
    ``withdrawn``: the challenger's view), the game, when an open one is lost by the defender."""

    id: int
    challenger: str
    defender: str
    status: str
    game: str | None
    result: str | None
    due_at: float


class RungOut(_Strict):
    place: int
    name: str
    rank: str | None


class LadderOut(_Strict):
    """``GET /api/clubs/{slug}/ladder``: the order (place 1 the top), the challenges in progress and the last
    ended, the rules."""

    ladder: list[RungOut]
    challenges: list[ChallengeOut]
    settings: LadderSettings


class ImportLine(_Strict):
    licence: str
    name: str
    rank: str | None
    status: str
    account: str | None


class ImportsOut(_Strict):
    """The club's imported lines; ``added`` how many the last import added."""

    lines: list[ImportLine]
    added: int = 0


class PlayerClubsOut(_Strict):
    """``GET /api/players/{name}/clubs``."""

    clubs: list[ClubLine]
