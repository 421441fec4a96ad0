"""Rating lists: the FFG's ``ech_ffg_V3.txt`` and the EGD's list (as OpenGotha reads it, ``egf_db.txt``), read into rated
players, so that registering a player by FFG licence or EGF PIN fills name, rank, rating, club and country.

Both lists are fixed-column text (columns counted from 0, end excluded):

FFG (``ech_ffg_V3.txt``, Latin-1; a first line ``#Echelle au DD/MM/YYYY ...``), one player a line:

=========  =======  ==================================================================
columns    field    notes
=========  =======  ==================================================================
0-38       names    family name, one blank, given names (the family name has no blank)
38-43      rating   the FFG's rating, right-aligned (-900 is 20K... 0 is about 2K);
                    keima stores it as OpenGotha does, plus 2050 (EGD's scale)
44         status   licence status (``L`` licensed, ``e`` foreign, ``-`` none)
46-53      licence  seven digits, ``-------`` when none
54-58      club     four characters, ``xxxx`` when none
59-61      country  two letters
=========  =======  ==================================================================

EGD (the EGF's ``egf_db``-style list, one player a line; lines whose columns 1-9 are not a PIN are skipped):

=========  =======  ==================================================================
1-9        PIN      eight digits
11-48      names    family name, one blank, given names
49-52      country  two letters (three columns)
53-57      club     up to four characters
60-63      grade    ``5k``, ``2d``...
71-75      GoR      the EGF rating, kept as it is
=========  =======  ==================================================================

A rated player's rank is the one its rating gives (:func:`keima.tournament.model.rank_from_rating`), as OpenGotha
does by default; ``rank_from_grade`` takes the EGD grade instead when it is readable.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from keima.tournament.model import Player, TournamentError, parse_rank, rank_from_rating

#: What keima adds to an FFG rating to put it on the EGD's scale (OpenGotha's rule).
FFG_OFFSET = 2050


@dataclass(frozen=True)
class RatedPlayer:
    """One line of a rating list. ``rating`` is on the EGD's scale (2100 is 1D)."""

    name: str
    first_name: str
    rating: int
    club: str
    country: str
    origin: str
    ffg_licence: str = ""
    ffg_licence_status: str = ""
    egf_pin: str = ""
    grade: str = ""

    def rank(self, rank_from_grade: bool = False) -> int:
        """The rank to register with: from the rating, or from the EGD grade when asked and readable."""
        if rank_from_grade and self.grade.strip():
            try:
                return parse_rank(self.grade)
            except TournamentError:
                pass
        return rank_from_rating(self.rating)

    def to_player(self, rank_from_grade: bool = False) -> Player:
        """A :class:`Player` registered from this line."""
        raw = self.rating - FFG_OFFSET if self.origin == "FFG" else self.rating
        return Player(
            name=self.name,
            first_name=self.first_name,
            rank=self.rank(rank_from_grade),
            rating=self.rating,
            club=self.club,
            country=self.country,
            ffg_licence=self.ffg_licence,
            ffg_licence_status=self.ffg_licence_status,
            egf_pin=self.egf_pin,
            rating_origin=f"{self.origin} : {raw}",
            grade=self.grade.strip().upper(),
        )


def _names(field: str) -> tuple[str, str]:
    field = field.strip()
    name, _, first = field.partition(" ")
    return name.strip(), first.strip()


def read_ffg(lines: Iterable[str]) -> Iterator[RatedPlayer]:
    """The players of an FFG list, in order; lines too short or not starting with a letter are skipped (the header,
    blank lines). Raises :class:`TournamentError` for a player line whose rating is not a number."""
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r\n")
        if len(line) < 61 or not line[:1].isalpha():
            continue
        name, first = _names(line[0:38])
        try:
            rating = int(line[38:43])
        except ValueError:
            raise TournamentError(f"FFG list line {number}: rating {line[38:43]!r} is not a number") from None
        licence = line[46:53].strip()
        club = line[54:58].strip()
        yield RatedPlayer(
            name=name,
            first_name=first,
            rating=rating + FFG_OFFSET,
            club="" if club == "xxxx" else club,
            country=line[59:61].strip(),
            origin="FFG",
            ffg_licence="" if set(licence) <= {"-"} else licence,
            ffg_licence_status=line[44:45].strip(),
        )


def read_egd(lines: Iterable[str]) -> Iterator[RatedPlayer]:
    """The players of an EGD list, in order; lines without a PIN in columns 1-9 are skipped. Raises
    :class:`TournamentError` for a player line whose GoR is not a number."""
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r\n")
        pin = line[1:9]
        if len(line) < 75 or not pin.isdigit():
            continue
        name, first = _names(line[11:48])
        try:
            rating = int(line[71:75])
        except ValueError:
            raise TournamentError(f"EGD list line {number}: GoR {line[71:75]!r} is not a number") from None
        yield RatedPlayer(
            name=name,
            first_name=first or "x",
            rating=rating,
            club=line[53:57].strip(),
            country=line[49:52].strip(),
            origin="EGF",
            egf_pin=pin,
            grade=line[60:63].strip(),
        )


def by_licence(players: Iterable[RatedPlayer]) -> dict[str, RatedPlayer]:
    """FFG licence -> rated player (players without a licence left out)."""
    return {p.ffg_licence: p for p in players if p.ffg_licence}


def by_pin(players: Iterable[RatedPlayer]) -> dict[str, RatedPlayer]:
    """EGF PIN -> rated player."""
    return {p.egf_pin: p for p in players if p.egf_pin}


def ffg_line(p: RatedPlayer) -> str:
    """The FFG list line of ``p`` (the inverse of :func:`read_ffg`, for tests and for lists made by hand)."""
    names = f"{p.name} {p.first_name}".ljust(38)[:38]
    licence = p.ffg_licence or "-------"
    return (
        f"{names}{p.rating - FFG_OFFSET:>5} {p.ffg_licence_status or '-':1} {licence:>7} "
        f"{(p.club or 'xxxx'):<4} {p.country:<2}"
    )


def egd_line(p: RatedPlayer) -> str:
    """The EGD list line of ``p`` (the inverse of :func:`read_egd`)."""
    names = f"{p.name} {p.first_name}".ljust(37)[:37]
    return f" {p.egf_pin:>8}  {names} {p.country:<3} {p.club:<4}   {p.grade:<3}        {p.rating:>4}"
