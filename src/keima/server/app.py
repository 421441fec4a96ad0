"""The ASGI application and the wiring point of the server's packages (docs/server.md, *Map*).

``create_app(db_url)`` returns a FastAPI application; on start-up it opens the database, brings the schema to the
newest migration, starts the writer thread and makes the process's hub (``make_hub``: the games with every domain's
subscribers and timed jobs), the players, the lobby, chat, the matchmaker, the mailer and the reviews; on shut-down
it stops them. Each package's routes are in its ``routes`` modules; the HTTP edge is ``keima.server.edge``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from keima.server.accounts import ChatFlood, Limits, Mutes, Players, Standing, load_secret
from keima.server.automatch import Matchmaker
from keima.server.automatch import routes as automatch_routes
from keima.server.boards import BOARDS_MAX_BODY, Boards
from keima.server.boards import routes as board_routes
from keima.server.clubs import SUBSCRIBER as CLUBS_SUBSCRIBER  # clubs (issue 46)
from keima.server.clubs import challenge_routes as club_challenge_routes
from keima.server.clubs import ladder_routes as club_ladder_routes
from keima.server.clubs import routes as club_routes
from keima.server.edge import DIST, BodyLimit, SecurityHeaders, content_security_policy, ui, unreachable
from keima.server.edge import http as edge_http
from keima.server.games import REMIND, WARN, AwaySettings, Chat, Hub, conditional_routes
from keima.server.games import routes as game_routes
from keima.server.live import PLAYER_PREFIX, LocalPubSub, PubSub
from keima.server.lobby import Lobby
from keima.server.lobby import routes as lobby_routes
from keima.server.moderation import Moderation
from keima.server.moderation import routes as moderation_routes
from keima.server.notifications import Mailer, Smtp, count_reminder, notify
from keima.server.notifications import routes as notification_routes
from keima.server.players import games_routes as player_games_routes
from keima.server.players import mutes_routes
from keima.server.players import routes as player_routes
from keima.server.ratings import bot_routes, records, with_shown_rank
from keima.server.ratings import routes as rating_routes
from keima.server.ratings import subscriber as ratings_subscriber
from keima.server.reviews import (
    REVIEW_MAX_BODY,
    ReviewService,
    bot_review_routes,
    positions,
    record_review,
    stored_game,
)
from keima.server.storage import Store, default_url, make_engine, migrate
from keima.server.tournaments import player_routes as tournament_player_routes
from keima.server.tournaments import relays as tournament_relays
from keima.server.tournaments import results as tournament_results
from keima.server.tournaments import round_routes
from keima.server.tournaments import rounds as tournament_rounds
from keima.server.tournaments import routes as tournament_routes
from keima.version import package_version

log = logging.getLogger("keima.server")


def make_hub(store: Store, pubsub: PubSub, **options: Any) -> Hub:
    """The process's ``Hub`` (``options``: its keyword arguments) with what every domain adds to the games: the
    durable subscribers of their events (the players' records, ratings, tournament results, notifications, the clubs'
    ladder games, in that order), the scheduler's jobs of ratings (``rated``) and notifications (``warn``, ``remind``), and the
    rank a game shows beside a player who takes a seat (the ratings' ``with_shown_rank``)."""
    return Hub(store, pubsub, subscribers=[records.SUBSCRIBER, ratings_subscriber.SUBSCRIBER,
                                           tournament_results.SUBSCRIBER, notify.SUBSCRIBER, CLUBS_SUBSCRIBER],
               handlers={ratings_subscriber.RATED: ratings_subscriber.rated_handler, WARN: notify.warn_handler,
                         REMIND: count_reminder.remind_handler},
               shown_ranks=with_shown_rank, **options)


def create_app(db_url: str | None = None, *, pubsub: PubSub | None = None, dist: Path | None = None,
               cache_size: int = 2000, redis_url: str | None = None,
               engines: dict[str, str] | None = None, smtp_url: str | None = None,
               public_url: str | None = None) -> FastAPI:
    """Return the keima web application for the database at ``db_url`` (default: SQLite in the user's data
    folder). The database is opened and migrated when the application starts (ASGI lifespan). At most about
    ``cache_size`` idle games stay in memory. ``redis_url``: cluster mode (docs/deploy.md): live updates through
    Redis, bot moves and estimates on the workers' queue, games checked against the database before each
    change. ``engines``: GTP engines offered as opponents, name -> command line (their commands are run as child
    processes, one per game, in the web process). ``smtp_url``: where to send the notifications' emails
    (``keima.server.notifications.mailer``; None: no email, the bell only); ``public_url``: the server's address as players
    reach it, for the links in the emails (default ``http://localhost:8000``)."""
    smtp = None if not smtp_url else Smtp.parse(smtp_url)
    url = db_url or default_url()
    web_root = dist or DIST

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(url)
        migrate(engine)
        store = Store(engine)
        store.start()
        cluster_parts: list[Any] = []
        review_queue: Any = None
        if redis_url:
            from keima.server.live import JobQueue, RedisPubSub

            rps = RedisPubSub(redis_url)
            queue = JobQueue(redis_url)
            await queue.start()
            await rps.start()
            cluster_parts = [rps, queue]
            review_queue = queue
            hub = make_hub(store, rps, cache_size=cache_size, shared=True, jobs=queue, engines=engines)
            rps.on_remote = hub.on_remote
            rps.rebuildable = hub.rebuildable
            # Automatch ends a wait when the player's last lobby socket closes, in whichever process it was.
            rps.counted = lambda channel: hub.rebuildable(channel) or channel.startswith(PLAYER_PREFIX)
            rps.on_subscribed = lambda channel: hub.spawn(hub.refresh(channel))
            hub.bots.start_sweep()
        else:
            hub = make_hub(store, pubsub or LocalPubSub(), cache_size=cache_size, engines=engines)
        app.state.hub = hub
        reviews = ReviewService(engine, lambda gid: stored_game(store, gid), jobs=review_queue)
        app.state.reviews = reviews
        if not redis_url:
            await asyncio.to_thread(reviews.resume)  # reviews left under way by the last run go on
        # Cluster mode: login and chat limits counted in Redis, once across the processes.
        limits = Limits(redis_url)
        cluster_parts.append(limits)
        # The players and what each request needs of them (``keima.server.accounts.requests``), signed by the server's key.
        secret = await asyncio.get_running_loop().run_in_executor(None, load_secret, hub.store)
        app.state.players = Players(hub.store, secret, limits, engines=hub.bots.engines)
        app.state.lobby = Lobby(hub)
        app.state.mutes = Mutes(hub.store, secret)
        app.state.standing = standing = Standing(hub.store, app.state.mutes.handle)  # moderation (issue 47)
        app.state.mutes.blocked = standing.hidden
        app.state.chat = Chat(hub, limits, handle=app.state.mutes.handle, check=standing.check_chat)
        app.state.chat_flood = ChatFlood(limits)
        app.state.away = AwaySettings(hub.store, hub.service)
        app.state.moderation = Moderation(hub.store, app.state.players, standing, hub)  # moderation (issue 47)
        matchmaker = app.state.matchmaker = Matchmaker(hub, app.state.players)
        matchmaker.start()
        tournament_rounds.install(hub, app.state.players)
        mailer = Mailer(engine, smtp, public_url or "http://localhost:8000", app.state.players.sign)
        app.state.mailer = mailer
        mailer.start()
        app.state.boards = Boards(engine, store.write)
        gc.callbacks.append(hub.gc_pauses.observe)
        try:
            yield
        finally:
            gc.callbacks.remove(hub.gc_pauses.observe)
            await matchmaker.close()
            await app.state.boards.close()
            reviews.close()
            await mailer.close()
            await hub.close()
            for part in cluster_parts:
                await part.close()
            store.stop()
            engine.dispose()

    app = FastAPI(
        title="keima",
        version=package_version(),
        description="Go under the French rules: the JSON + WebSocket API of the keima server (docs/web-api.md).",
        lifespan=lifespan,
    )
    app.include_router(player_routes.router)
    app.include_router(lobby_routes.router)
    app.include_router(rating_routes.router)
    app.include_router(bot_routes.router)
    app.include_router(automatch_routes.router)
    app.include_router(player_games_routes.router)
    app.include_router(tournament_routes.router)
    app.include_router(round_routes.router)
    app.include_router(tournament_player_routes.router)
    app.include_router(notification_routes.router)
    app.include_router(mutes_routes.router)
    app.include_router(conditional_routes.router)
    app.include_router(moderation_routes.router)  # moderation (issue 47)
    app.include_router(club_routes.router)  # clubs (issue 46)
    app.include_router(club_ladder_routes.router)
    app.include_router(club_challenge_routes.router)
    app.include_router(board_routes.router)
    app.include_router(tournament_relays.router)
    app.add_middleware(BodyLimit, larger={"/api/review": REVIEW_MAX_BODY,
                                          "/api/analysis": bot_review_routes.ANALYSIS_MAX_BODY,
                                          "/api/tournaments/import": tournament_routes.IMPORT_MAX,
                                          "/api/boards": BOARDS_MAX_BODY})
    app.add_middleware(SecurityHeaders, csp=content_security_policy(web_root))

    edge_http.install(app)
    unreachable.install(app)  # the database out of reach: 503 storage-error everywhere, one warning line
    app.include_router(game_routes.router)
    app.include_router(positions.router)
    app.include_router(record_review.router)
    app.include_router(bot_review_routes.router)
    app.include_router(ui.router(web_root))  # last: its catch-all takes every other path
    return app

