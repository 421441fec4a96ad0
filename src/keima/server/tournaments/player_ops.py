"""What a director does to a registered player: edit them, link them to a keima account, remove or withdraw them.
Each function returns a ``keima.server.tournaments.store.Change`` (see ``keima.server.tournaments.changes``).

The rules (docs/tournaments.md, *Players*):

- names, club, country, licence and PIN change at any time; a new name or first name gives the player a new key,
  which their games, byes, account and check-ins follow;
- the rank and the rating change until a round that pairs the player has started (409 after): the rank sets the
  player's McMahon score from round 1 and the handicap of their games, which a played round can no longer follow;
- a player never paired is removed; a player paired once is withdrawn instead: absent from every round that does
  not pair them yet (the games and results they have stay, as the standings and the files need them).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from keima.server.errors import Refused, quote
from keima.server.tournaments.store import Change, Outcome, Stored
from keima.tournament.model import Player, Tournament, TournamentError, parse_rank, rank_text


def _player(t: Tournament, key: str) -> Player:
    try:
        return t.player(key)
    except TournamentError:
        raise Refused("not-found", f"no player {quote(key)} in this tournament") from None


def _paired_rounds(t: Tournament, key: str) -> set[int]:
    return {g.round for g in t.games if key in (g.white, g.black)} | {r for r, k in t.byes.items() if k == key}


def _started(s: Stored, rn: int) -> bool:
    return bool(s.settings.get("rounds", {}).get(str(rn), {}).get("started"))


def _rekeyed(s: Stored, t: Tournament, old: str, new: str) -> tuple[Tournament, dict[str, Any]]:
    """``t`` and the settings with the player ``old`` named ``new`` in the games, byes, proposals and check-ins."""

    def k(x: str) -> str:
        return new if x == old else x

    t = replace(t, games=tuple(replace(g, white=k(g.white), black=k(g.black)) for g in t.games),
                byes={r: k(x) for r, x in t.byes.items()})
    settings = dict(s.settings)
    if old in settings.get("proposals", {}):
        settings["proposals"] = {k(x): a for x, a in settings["proposals"].items()}
    rounds = {rn: {**info, "present": [k(x) for x in info.get("present", [])]} if "present" in info else info
              for rn, info in settings.get("rounds", {}).items()}
    return t, {**settings, "rounds": rounds}


def edit(key: str, patch: dict[str, Any], proposed: tuple[str, str] | None, unlink: bool) -> Change:
    """Change the player ``key``'s fields named in ``patch`` (``PlayerPatch``'s names but ``account``); propose
    the account ``proposed`` (``(id, name)``) to play for them, or (``unlink``) take theirs away. 404 no such
    player; 409 the new name is another player's, the rank once a round pairing them started, the account plays
    another player of the tournament; 422 a bad rank (``field`` names it)."""

    def do(s: Stored) -> Outcome:
        t = s.tournament
        p = _player(t, key)
        account = proposed
        changes: dict[str, Any] = {}
        for name in ("name", "first_name", "club", "country", "egf_pin", "ffg_licence"):
            if name in patch and patch[name] is not None:
                changes[name] = patch[name].strip().upper() if name == "country" else patch[name].strip()
        if patch.get("rank") is not None:
            try:
                changes["rank"] = parse_rank(patch["rank"], strict=True)
            except TournamentError as exc:
                raise Refused("invalid-request", f"rank: {exc}", field="rank") from None
        if patch.get("rating") is not None:
            changes["rating"] = patch["rating"]
        played = sorted(r for r in _paired_rounds(t, key) if _started(s, r))
        for name in ("rank", "rating"):
            if name in changes and changes[name] != getattr(p, name) and played:
                raise Refused("wrong-phase", f"round {played[0]} has started with {rank_text(p.rank)} for this "
                              f"player: the {name} sets their score and handicap from round 1, so it no longer "
                              "changes", field=name, reason="started")
        new = replace(p, **changes)
        if not new.name:
            raise Refused("invalid-request", "name: a player has a name", field="name")
        settings = dict(s.settings)
        bind: dict[str, str] = {}
        unbind: list[str] = []
        log: list[tuple[str, dict[str, Any]]] = []
        if new.key != key:
            if any(q.key == new.key for q in t.players):
                raise Refused("already-registered", f"{new.name} {new.first_name} is already registered".strip())
            t, settings = _rekeyed(s, t, key, new.key)
            if key in s.accounts:
                unbind.append(key)
                bind[new.key] = s.accounts[key]
        t = replace(t, players=tuple(new if q.key == key else q for q in t.players))
        if changes:
            log.append(("player", {"player": new.key, "was": key} | {k: v for k, v in patch.items() if k != "account"
                                                                    and v is not None}))
        proposals = dict(settings.get("proposals", {}))
        bound = s.accounts.get(key)
        if account is not None and account[0] == bound:
            account = None  # it plays for this player already
        elif unlink or account is not None:
            if bound is not None:
                unbind.append(key)
                bind.pop(new.key, None)
            proposals.pop(new.key, None)
            if account is None:
                log.append(("account-unlinked", {"player": new.key}))
        if account is not None:
            pid, name = account
            if pid in [a for k, a in s.accounts.items() if k != key]:
                raise Refused("already-registered", f"{name} already plays in this tournament")
            proposals[new.key] = pid
            log.append(("account-proposed", {"player": new.key}))
        settings["proposals"] = proposals
        return Outcome(t, settings, log, bind=bind, unbind=sorted(set(unbind)))

    return do


def _remaining(s: Stored, key: str) -> list[int]:
    """The rounds in which the player ``key`` is not paired and that have not started: a withdrawal's."""
    t = s.tournament
    paired = _paired_rounds(t, key)
    p = t.player(key)
    return [r for r in range(1, t.general.number_of_rounds + 1)
            if r not in paired and not _started(s, r) and p.plays(r)]


def withdraw_remaining(key: str) -> Change:
    """Mark the player ``key`` absent from every round that does not pair them and has not started (409 when no
    such round is left): the player has left the tournament; their games stay."""

    def do(s: Stored) -> Outcome:
        t = s.tournament
        p = _player(t, key)
        rounds = _remaining(s, key)
        if not rounds:
            raise Refused("wrong-phase", "this player has no round left to withdraw from", reason="withdrawn")
        flags = [x and (i + 1) not in rounds for i, x in enumerate(p.participating)]
        t = replace(t, players=tuple(replace(q, participating=tuple(flags)) if q.key == key else q
                                     for q in t.players))
        return Outcome(t, s.settings, [("withdraw-remaining", {"player": key, "rounds": rounds})])

    return do


def remove(key: str) -> Change:
    """Remove the player ``key`` when never paired (no game nor bye), else withdraw them from the remaining
    rounds (``withdraw_remaining``)."""
    withdraw = withdraw_remaining(key)

    def do(s: Stored) -> Outcome:
        t = s.tournament
        _player(t, key)
        if _paired_rounds(t, key):
            return withdraw(s)
        t = replace(t, players=tuple(p for p in t.players if p.key != key))
        proposals = {k: a for k, a in s.settings.get("proposals", {}).items() if k != key}
        return Outcome(t, {**s.settings, "proposals": proposals}, [("withdraw", {"player": key})],
                       unbind=[key] if key in s.accounts else [])

    return do
