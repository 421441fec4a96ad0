"""The routes of a player's muted chat senders (keima.server.accounts.mutes; docs/web-api.md, *Chat*)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from keima.server.accounts import Mutes, players_of
from keima.server.edge import same_origin
from keima.server.errors import ErrorBody, Refused

router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (401, 403, 422)}
Handle = Annotated[str, Path(min_length=3, max_length=64)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MutedOut(_Strict):
    """A muted sender: its handle (a chat message's ``sender``) and the name it wrote under when muted."""

    sender: str
    name: str


class MutesOut(_Strict):
    """``GET /api/me/mutes``: the caller's muted senders, oldest first."""

    mutes: list[MutedOut]


class MuteIn(_Strict):
    """``PUT /api/me/mutes/{sender}``: the name the sender wrote under (shown in the caller's list)."""

    name: Annotated[str, Field(min_length=1, max_length=80)]


def _mutes(request: Request) -> Mutes:
    m: Mutes = request.app.state.mutes
    return m


async def _player_id(request: Request) -> str:
    pid = await players_of(request).player_id(request.cookies)
    if pid is None:
        raise Refused("not-logged-in", "no player for this browser: play, chat or register first, or log in")
    return pid


@router.get("/api/me/mutes", responses={200: {"model": MutesOut}, **_errors})
async def list_mutes(request: Request) -> Response:
    """The senders the caller muted (401 without a player)."""
    found = await _mutes(request).of(await _player_id(request))
    body = MutesOut(mutes=[MutedOut(sender=k, name=v) for k, v in found.items()])
    return Response(body.model_dump_json(), media_type="application/json")


@router.put("/api/me/mutes/{sender}", status_code=204, responses=_errors)
async def mute(sender: Handle, body: MuteIn, request: Request) -> Response:
    """Mute ``sender`` for the caller: the server leaves its messages out of every game state and new message it
    sends the caller (204; 422 for a handle that is not one, the caller's own, or a list already full)."""
    same_origin(request)
    await _mutes(request).add(await _player_id(request), sender, body.name)
    return Response(status_code=204)


@router.delete("/api/me/mutes/{sender}", status_code=204, responses=_errors)
async def unmute(sender: Handle, request: Request) -> Response:
    """Unmute ``sender`` for the caller (204, also when it was not muted)."""
    same_origin(request)
    await _mutes(request).remove(await _player_id(request), sender)
    return Response(status_code=204)
