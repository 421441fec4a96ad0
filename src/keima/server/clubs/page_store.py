"""Storage of what a club's page shows besides its members and ladder: its members' games, its announcements
(each told to the members' bells in the same transaction), its tournaments, the challenges offered to its
members only, and the lines of the FFG rating list proposed to its
members. The club's other SQL is ``keima.server.clubs.store``.

Blocking functions of a SQLAlchemy engine: call them from a thread.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keima.server.clubs.store import MEMBER_ROLES
from keima.server.notifications import notify
from keima.server.storage import (
    club_announcements,
    club_games,
    club_imports,
    club_members,
    clubs,
    game_players,
    games,
    players,
    tournaments,
)

M, A, IM = club_members.c, club_announcements.c, club_imports.c
ANNOUNCEMENTS_SHOWN = 10


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def member_games(engine: Engine, club_id: str, limit: int = 20) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The games in progress of the club's members (both seats taken; newest started first) and their last
    finished games (newest ended first), at most ``limit`` each: ``{"id", "people", "result", "size", "at"}``.
    Read from the members' seats (``game_players``' index), so a page costs the members' games, not the
    server's."""
    mine = sa.select(M.player_id).where(M.club_id == club_id, M.role.in_(MEMBER_ROLES))
    seated = sa.select(game_players.c.game_id).where(game_players.c.player_id.in_(mine)).distinct().subquery()
    base = (sa.select(games.c.id, games.c.people, games.c.result, games.c.params, games.c.created_at,
                      games.c.updated_at).select_from(games.join(seated, seated.c.game_id == games.c.id)))
    live_q = (base.where(games.c.phase != "finished", games.c.invite_hash.is_(None))
              .order_by(games.c.created_at.desc()).limit(limit))
    done_q = base.where(games.c.phase == "finished").order_by(games.c.updated_at.desc()).limit(limit)
    with engine.connect() as conn:
        live, done = conn.execute(live_q).all(), conn.execute(done_q).all()

    def line(r: Any, at: datetime) -> dict[str, Any]:
        people = r.people or {}
        return {"id": r.id, "black": (people.get("B") or {}).get("name"), "white": (people.get("W") or {}).get("name"),
                "result": r.result, "size": int((r.params or {}).get("size") or 19), "at": _utc(at).timestamp()}

    return [line(r, r.created_at) for r in live], [line(r, r.updated_at) for r in done]


def announce(engine: Engine, club: dict[str, Any], player_id: str, text: str, now: datetime) -> int:
    """Keep an admin's announcement to the club and put it in each member's bell (and email, by their
    settings: the ``club`` kind), in one transaction; returns its id."""
    with engine.begin() as conn:
        key = conn.execute(club_announcements.insert().values(club_id=club["id"], player_id=player_id, at=now,
                                                              text=text)).inserted_primary_key
        assert key is not None
        aid = int(key[0])
        told = conn.execute(sa.select(M.player_id).where(M.club_id == club["id"], M.role.in_(MEMBER_ROLES),
                                                         M.player_id != player_id)).scalars().all()
        data = {"club": club["slug"], "name": club["name"], "text": text}
        for pid in told:
            notify.add_notification(conn, pid, "club", None, data, f"club.{club['id']}.{aid}")
    return aid


def announcements(engine: Engine, club_id: str, limit: int = ANNOUNCEMENTS_SHOWN) -> list[dict[str, Any]]:
    """The club's last announcements, newest first: ``{"id", "by", "at", "text"}``."""
    q = (sa.select(A.id, A.at, A.text, players.c.name).select_from(
        club_announcements.outerjoin(players, players.c.id == A.player_id))
         .where(A.club_id == club_id).order_by(A.id.desc()).limit(limit))
    with engine.connect() as conn:
        return [{"id": r.id, "by": r.name, "at": _utc(r.at).timestamp(), "text": r.text} for r in conn.execute(q)]


def import_lines(engine: Engine, club_id: str, lines: list[dict[str, Any]]) -> int:
    """Keep the rating list's ``lines`` of the club (``{"licence", "name", "rank"}``) as proposals; a licence
    proposed already keeps its row (and its account, and whether it was confirmed). Returns how many are new."""
    with engine.begin() as conn:
        known = set(conn.execute(sa.select(IM.licence).where(IM.club_id == club_id)).scalars())
        new = [ln for ln in lines if ln["licence"] not in known]
        for ln in new:
            conn.execute(club_imports.insert().values(club_id=club_id, licence=ln["licence"], name=ln["name"],
                                                      rank=ln["rank"], player_id=None, status="proposed"))
    return len(new)


def imports(engine: Engine, club_id: str) -> list[dict[str, Any]]:
    """The club's imported lines by name: licence, name, rank, the account proposed (its name) and status."""
    q = (sa.select(IM.licence, IM.name, IM.rank, IM.status, IM.player_id, players.c.name.label("account"))
         .select_from(club_imports.outerjoin(players, players.c.id == IM.player_id))
         .where(IM.club_id == club_id).order_by(IM.name))
    with engine.connect() as conn:
        return [{"licence": r.licence, "name": r.name, "rank": r.rank, "status": r.status, "account": r.account}
                for r in conn.execute(q)]


def propose(engine: Engine, club_id: str, licence: str, player_id: str | None) -> bool:
    """Propose the imported line ``licence`` to the account ``player_id`` (None: to nobody); a confirmed line
    stays. Returns False when the club has no such line."""
    with engine.begin() as conn:
        done = conn.execute(club_imports.update().where(IM.club_id == club_id, IM.licence == licence,
                                                        IM.status != "confirmed")
                            .values(player_id=player_id, status="proposed")).rowcount
    return bool(done)


def proposal(engine: Engine, club_id: str, player_id: str) -> dict[str, Any] | None:
    """The line proposed to ``player_id`` in the club and not answered yet (``{"licence", "name", "rank"}``)."""
    with engine.connect() as conn:
        r = conn.execute(sa.select(IM.licence, IM.name, IM.rank).where(
            IM.club_id == club_id, IM.player_id == player_id, IM.status == "proposed")).first()
    return None if r is None else {"licence": r.licence, "name": r.name, "rank": r.rank}


def answered(engine: Engine, club_id: str, licence: str, player_id: str, yes: bool) -> bool:
    """The account holder confirms (``yes``) or refuses the line ``licence`` proposed to them; False when no such
    line waits for them."""
    with engine.begin() as conn:
        done = conn.execute(club_imports.update().where(IM.club_id == club_id, IM.licence == licence,
                                                        IM.player_id == player_id, IM.status == "proposed")
                            .values(status="confirmed" if yes else "refused")).rowcount
    return bool(done)


def set_licence(engine: Engine, club_id: str, player_id: str, licence: str) -> None:
    """Write the member's FFG licence (from a line they confirmed)."""
    with engine.begin() as conn:
        conn.execute(club_members.update().where(M.club_id == club_id, M.player_id == player_id)
                     .values(licence=licence))


def player_clubs(engine: Engine, name_key: str) -> list[dict[str, Any]]:
    """The clubs of the player whose folded name is ``name_key``: ``{"slug", "name", "code", "city", "role"}`` (requests
    left out), by name."""
    q = (sa.select(clubs.c.slug, clubs.c.name, clubs.c.code, clubs.c.city, M.role)
         .select_from(club_members.join(clubs, clubs.c.id == M.club_id).join(players, players.c.id == M.player_id))
         .where(players.c.name_key == name_key, players.c.deleted_at.is_(None), M.role.in_(MEMBER_ROLES))
         .order_by(clubs.c.name))
    with engine.connect() as conn:
        return [{"slug": r.slug, "name": r.name, "code": r.code, "city": r.city, "role": r.role}
                for r in conn.execute(q)]


def add_club_game(engine: Engine, game_id: str, club_id: str, player_id: str, code: str, now: datetime) -> None:
    """Keep the challenge ``game_id`` as offered to the club's members only, with its invitation ``code``."""
    with engine.begin() as conn:
        conn.execute(club_games.insert().values(game_id=game_id, club_id=club_id, player_id=player_id,
                                                invite_code=code, created_at=now))


def waiting_club_games(engine: Engine, player_id: str, limit: int = 30) -> list[dict[str, Any]]:
    """The challenges offered to the members of ``player_id``'s clubs and not taken yet, newest first:
    ``{"id", "club", "club_name", "by", "size", "speed", "code", "mine"}`` (``code`` the invitation's, which
    only members read)."""
    mine = sa.select(M.club_id).where(M.player_id == player_id, M.role.in_(MEMBER_ROLES))
    g = club_games.c
    q = (sa.select(g.game_id, g.invite_code, g.player_id, clubs.c.slug, clubs.c.name, players.c.name.label("by"),
                   games.c.params, games.c.clock)
         .select_from(club_games.join(clubs, clubs.c.id == g.club_id).join(games, games.c.id == g.game_id)
                      .join(players, players.c.id == g.player_id))
         .where(g.club_id.in_(mine), games.c.phase != "finished", games.c.invite_hash.is_not(None))
         .order_by(g.created_at.desc()).limit(limit))
    with engine.connect() as conn:
        return [{"id": r.game_id, "club": r.slug, "club_name": r.name, "by": r.by,
                 "size": int((r.params or {}).get("size") or 19),
                 "speed": _speed(r.clock or {}),
                 "code": r.invite_code, "mine": r.player_id == player_id} for r in conn.execute(q)]


def _speed(clock: dict[str, Any]) -> str:
    # A clock of a day or more a move (or for the main time) is a correspondence game's.
    day = 86400
    return "correspondence" if max(float(clock.get("main") or 0), float(clock.get("per_move") or 0)) >= day else "live"


def club_tournaments(engine: Engine, slug: str, limit: int = 20) -> list[dict[str, Any]]:
    """The tournaments whose registration is for the club's members (``settings.club``), newest first:
    ``{"id", "name", "at"}``."""
    q = (sa.select(tournaments.c.id, tournaments.c.name, tournaments.c.created_at)
         .where(tournaments.c.settings["club"].as_string() == slug)
         .order_by(tournaments.c.created_at.desc()).limit(limit))
    with engine.connect() as conn:
        return [{"id": r.id, "name": r.name, "at": _utc(r.created_at).timestamp()} for r in conn.execute(q)]
