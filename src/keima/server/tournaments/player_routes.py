"""The endpoints that change a registered player (docs/web-api.md, *Tournaments*): edit them, link them to a keima
account, withdraw them from the remaining rounds; the rules are ``keima.server.tournaments.player_ops``'."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from keima.server.tournaments import player_ops
from keima.server.tournaments.routes import _account, _answer, _change, _errors
from keima.server.tournaments.schemas import PlayerPatch, TournamentOut

router = APIRouter()


@router.patch("/api/tournaments/{tid}/players/{key}", responses={200: {"model": TournamentOut}, **_errors})
async def edit_player(tid: str, key: str, body: PlayerPatch, request: Request) -> Response:
    """Change a player's name, first name, rank, rating, club, country, licence or PIN; ``account`` proposes a
    keima account to play for them (it confirms), null unlinks theirs. 409: the rank once a round pairing them
    has started, a name another player has, an account playing for another player; 422 a bad rank."""
    patch = body.model_dump(exclude_unset=True)
    unlink = "account" in patch and body.account is None
    proposed = None
    if body.account is not None:
        pid, name, _ = await _account(request, body.account, "account")
        proposed = (pid, name)
    return await _answer(request, await _change(request, tid, player_ops.edit(key, patch, proposed, unlink)))


@router.post("/api/tournaments/{tid}/players/{key}/withdraw", responses={200: {"model": TournamentOut}, **_errors})
async def withdraw_player(tid: str, key: str, request: Request) -> Response:
    """Withdraw a player from every remaining round (absent from each round not started that does not pair them
    yet), in one action; their games stay. 409 when no round is left."""
    return await _answer(request, await _change(request, tid, player_ops.withdraw_remaining(key)))
