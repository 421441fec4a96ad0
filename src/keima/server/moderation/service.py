"""Reports and moderators' actions (docs/moderation.md).

A report names a player, a game or a chat message, with a reason from a list and a text; one per reporter and
target. A moderator (named with ``keima admin moderator add NAME``) reads the queue and acts: ``warn``, ``mute``
(no chat anywhere, for some hours), ``suspend`` (no new game and no chat, for some hours), ``ban``, ``lift`` (ends a
mute, suspension or ban), ``rename`` (an abusive name), ``annul`` (a game's rating effect: the game is left out of
the ratings, which are recomputed from the games' events), ``dismiss`` (a report that needs nothing). Each action
writes a line of the audit log in the transaction that does it, tells the player by the bell (and email, as the
notifications do), and the reporter when it answers their report.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from keima.server import timesource
from keima.server.accounts import Player, Players, Standing, name_key, required_player, too_many
from keima.server.errors import Refused, quote
from keima.server.moderation import store
from keima.server.moderation.abandon import Presence
from keima.server.moderation.schemas import ActionIn, LogOut, ReportIn
from keima.server.notifications import notify
from keima.server.ratings import subscriber as ratings_subscriber
from keima.server.storage import Store

#: Reports one player may make in an hour: enough for a bad evening, not a flood of the moderators' queue.
MAX_REPORTS_PER_HOUR = 10


def _iso(at: datetime | None) -> str | None:
    return None if at is None else (at if at.tzinfo else at.replace(tzinfo=UTC)).isoformat()


def log_out(row: Any) -> LogOut:
    """A line of the audit log as the API shows it."""
    return LogOut(id=row.id, at=_iso(row.at) or "", moderator=row.moderator_name, player=row.player_name,
                  action=row.action, reason=row.reason, until=_iso(row.until), game=row.game_id,
                  report=row.report_id)


class Moderation:
    """Reports and actions of one server process (``app.state.moderation``)."""

    def __init__(self, store_: Store, players: Players, standing: Standing, hub: Any) -> None:
        self.store = store_
        self.players = players
        self.standing = standing
        self.hub = hub
        self.presence = Presence(hub.pubsub)  # who has left every page, as this process sees it

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    async def named(self, name: str, field: str = "name") -> tuple[str, str]:
        """(id, name) of the player named ``name``; raises ``Refused`` 404 naming ``field`` when nobody is."""
        found: tuple[str, str] | None = await self._run(store.player_named, self.store.engine, name_key(name))
        if found is None:
            raise Refused("not-found", f"{field}: no player named {quote(name)}", field=field)
        return found

    async def moderator(self, request: Any) -> Player:
        """The calling moderator; raises 401 without a player, 403 ``not-moderator`` for anyone else."""
        player = await required_player(request)
        if not await self._run(store.is_moderator, self.store.engine, player.id):
            raise Refused("not-moderator", "only a moderator may do this")
        return player

    # -- reports -------------------------------------------------------------------------------------------
    async def report(self, reporter: Player, body: ReportIn) -> int:
        """Store ``reporter``'s report; returns its id. Raises 409 ``not-registered`` for a guest, 429 past
        ``MAX_REPORTS_PER_HOUR`` reports in the last hour, 422 (naming the field) for what is missing or wrong,
        404 for a player or game nobody has, 409 ``already-reported`` for a second report of one target."""
        if reporter.guest:  # a guest is made for free: each would be one more report of the same target
            raise Refused("not-registered", "only a registered player may report: register or log in first")
        now = timesource.now_utc()
        since = now - timedelta(hours=1)
        made: int = await self._run(store.reports_since, self.store.engine, reporter.id, since)
        if made >= MAX_REPORTS_PER_HOUR:
            first: datetime = await self._run(store.first_report_since, self.store.engine, reporter.id, since)
            raise too_many((first - since).total_seconds(), "reports (at most "
                           f"{MAX_REPORTS_PER_HOUR} an hour)")
        if body.reason == "other" and not body.text.strip():
            raise Refused("invalid-request", "text: say what happened (the reason is \"other\")", field="text")
        values: dict[str, Any] = {"reporter_id": reporter.id, "reason": body.reason, "text": body.text.strip(),
                                  "at": now, "player_id": None, "game_id": None, "quote": None}
        if body.kind == "player":
            if body.name is None:
                raise Refused("invalid-request", "name: the player reported is missing", field="name")
            pid, _name = await self.named(body.name)
            values.update(target=f"player:{pid}", player_id=pid)
        else:
            if body.game is None:
                raise Refused("invalid-request", "game: the game reported is missing", field="game")
            s = await self.hub.cache.get(body.game)  # 404 no-such-game
            seated = {p.get("id") for p in s.people.values() if p.get("id")}
            values["game_id"] = s.id
            if body.kind == "game":
                if body.name is not None:
                    values["player_id"] = (await self.named(body.name))[0]
                elif reporter.id in seated:
                    values["player_id"] = next((p for p in seated if p != reporter.id), None)
                values["target"] = f"game:{s.id}"
            else:
                message = next((m for m in s.chat if m.get("sender") == body.sender and m.get("at") == body.at), None)
                if body.sender is None or body.at is None or message is None:
                    raise Refused("invalid-request", "sender: no such chat message in this game (its sender and "
                                  "at, as the game's state shows them)", field="sender")
                values.update(target=f"chat:{s.id}:{body.sender}:{body.at}"[:120], player_id=message.get("player"),
                              quote=f"{message.get('from', '')}: {message.get('text', '')}"[:600])
        if values["player_id"] == reporter.id:  # the field that named the reporter: a message's sender, or name
            field = "sender" if body.kind == "chat" else "name"
            raise Refused("invalid-request", f"{field}: you cannot report yourself", field=field)
        got: int | None = await self.store.write(store.add_report(values))
        if got is None:
            raise Refused("already-reported", "you reported this already: a moderator will read it")
        return got

    # -- actions -------------------------------------------------------------------------------------------
    async def act(self, moderator: Player, body: ActionIn) -> LogOut:
        """Carry out a moderator's action (see the module docstring); returns the audit log's line. Raises 422
        naming the missing field, 404 for a player, game or report nobody has."""
        target: tuple[str, str] | None = None
        report = None
        if body.report is not None:
            report = await self._run(store.report_row, self.store.engine, body.report)
            if report is None:
                raise Refused("not-found", f"report: no report {body.report}", field="report")
        if body.action == "dismiss" and report is None:
            raise Refused("invalid-request", "report: dismiss answers a report", field="report")
        if body.action not in ("annul", "dismiss"):
            if body.name is None:
                raise Refused("invalid-request", "name: the player acted on is missing", field="name")
            target = await self.named(body.name)
        if body.action in ("mute", "suspend") and body.hours is None:
            raise Refused("invalid-request", "hours: how long, in hours", field="hours")
        if body.action == "rename" and body.new_name is None:
            raise Refused("invalid-request", "new_name: the player's new name is missing", field="new_name")
        if body.action == "annul" and body.game is None:
            raise Refused("invalid-request", "game: the game to annul is missing", field="game")
        until = None if body.hours is None else timesource.now_utc() + timedelta(hours=body.hours)
        told: list[str] = [] if target is None else [target[0]]
        extra: dict[str, Any] = {}
        if body.action == "rename":
            assert target is not None
            player = await self.players.get(target[0])
            if player is None:
                raise Refused("not-found", "name: this account is gone", field="name")
            try:
                renamed = await self.players.update(player, body.new_name, None, False)
            except Refused as exc:  # the name refused is the moderator's new_name, not the player acted on
                raise Refused(exc.code, f"new_name: {exc.message}", reason=exc.reason,
                              field="new_name" if exc.field == "name" else exc.field) from None
            extra["name"] = renamed.name
        if body.action == "annul":
            assert body.game is not None
            s = await self.hub.cache.get(body.game)
            told = sorted({p["id"] for p in s.people.values() if p.get("id")})
        row_id = await self.store.write(lambda conn: self._apply(conn, moderator, body, target, until, told, extra))
        if body.action == "annul":
            await self._run(ratings_subscriber.recompute, self.store.engine)
            # The game itself says it is no longer rated: its page and lists showed the change it made, and a
            # recomputation records changes only for the games that still count.
            await self.hub.service.change(body.game, lambda s: None if s.rating_change == {} else s.rate({}),
                                          fresh=True)
        if target is not None:
            self.standing.forget_cached(target[0])
        if body.action == "ban":
            assert target is not None
            # "No login" holds for the sessions already open too: a banned account kept them, and with them its
            # reports, blocks and name changes; its seats still play the games under way.
            await self.players.end_sessions(target[0])
        rows = await self._run(store.log_rows, self.store.engine)
        return next(log_out(r) for r in rows if r.id == row_id)

    def _apply(self, conn: Any, moderator: Player, body: ActionIn, target: tuple[str, str] | None,
               until: datetime | None, told: list[str], extra: dict[str, Any]) -> int:
        # One transaction: the standing, the annulment, the report handled, the log line, the bells.
        pid = None if target is None else target[0]
        if body.action == "mute":
            assert pid is not None
            store.set_standing(conn, pid, muted_until=until, reason=body.reason)
        elif body.action == "suspend":
            assert pid is not None
            store.set_standing(conn, pid, suspended_until=until, reason=body.reason)
        elif body.action == "ban":
            assert pid is not None
            store.set_standing(conn, pid, banned=True, reason=body.reason)
        elif body.action == "lift":
            assert pid is not None
            store.set_standing(conn, pid, muted_until=None, suspended_until=None, banned=False, reason=body.reason)
        elif body.action == "annul":
            assert body.game is not None
            if not store.annul(conn, body.game):  # the transaction is dropped: no second log line, no second bell
                raise Refused("wrong-phase", "game: this game's rating effect is annulled already", field="game",
                              reason="annulled")
        report = None if body.report is None else store.handle_report(conn, body.report, moderator.id)
        store.log_action(conn, moderator_id=moderator.id, moderator_name=moderator.name, player_id=pid,
                         player_name=None if target is None else extra.get("name", target[1]), action=body.action,
                         reason=body.reason, until=until, game_id=body.game, report_id=body.report)
        line_id = int(conn.execute(store.last_log_id()).scalar() or 0)
        key = f"moderation.{line_id}"
        if body.action != "dismiss":
            data = {"action": body.action, "text": body.reason, "until": _iso(until), **extra}
            for who in told:
                notify.add_notification(conn, who, "moderation", None, data, key)
        if report is not None:
            reported = store.names_in(conn, [report.player_id]) if report.player_id else {}
            data = {"action": "handled", "text": body.reason, "name": reported.get(report.player_id, "")}
            notify.add_notification(conn, report.reporter_id, "moderation", None, data, f"{key}.reporter")
        return line_id
