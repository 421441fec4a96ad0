"""Pairing a round as OpenGotha does it: a cost for every possible pair, then a maximum-weight perfect matching.

The cost of a pair is a sum of terms, each bounded by an integer weight of :class:`PairingParameters` (OpenGotha's
help page "Pairing evaluation function" lists them; its defaults are ours):

* base: not a repeated game (the heaviest term by far), an optional random part, white/black balance;
* main: the same category (Swiss with categories), the same score group (a concave function of the distance
  between groups, so that many small gaps beat one large gap), draw-up/draw-down (prefer players in the middle of
  their group, and compensate a previous draw in the other direction), seeding inside a group (split and random,
  split and fold, split and slip: the top half against the bottom half in some order);
* secondary, for players below the thresholds (under the bar, under a rank, with few wins): a small handicap, and
  not meeting one's own club or country, traded against a score gap of a few points.

The matching is rustworkx's ``max_weight_matching`` (Edmonds' blossom algorithm, the same algorithm as
networkx's, compiled: 0.2 s instead of 30 s for 300 players) on those integer costs. The player
left out of an odd number gets the bye: the one with the fewest byes so far, then the weakest rank plus MMS, unless
that bye forces a repeated game another bye avoids (``_Pairer.choose_bye``).
Colours and handicap follow the handicap parameters, then the white/black balance.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import rustworkx as rx

from keima.tournament.criteria import ScoreSheet, category, check_criterion, score_sheet, starting_mms
from keima.tournament.model import (
    MIN_RANK,
    DrawMode,
    Game,
    Player,
    Seeding,
    Tournament,
    TournamentError,
)
from keima.tournament.standings import standings

#: Above _GROUP_MAX players OpenGotha pairs groups of _GROUP_MIN.._GROUP_MAX players one after the other.
_GROUP_MIN = 200
_GROUP_MAX = 600
#: OpenGotha lets a starting MMS go 1 below the floor and 2 above the bar (super-bar corrections).
_SMMS_CORR_MIN = -1
_SMMS_CORR_MAX = 2


@dataclass(frozen=True)
class Pairing:
    """The pairing of one round: its games (tables numbered from 1, best scores first) and the bye, if any."""

    round: int
    games: tuple[Game, ...]
    bye: str | None


def _identity(weight: int) -> int:
    return weight


def _tdiv(a: int, b: int) -> int:
    """Integer division rounding toward zero, as OpenGotha's Java arithmetic does."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def det_random(limit: int, p1: Player, p2: Player) -> int:
    """OpenGotha's deterministic "random" number in 0..limit for a pair, from the players' names; swapping the
    players gives ``limit`` minus the value."""
    n1 = p1.name + p1.first_name
    n2 = p2.name + p2.first_name
    inverse = n1 > n2
    s = (n2 + n1) if inverse else (n1 + n2)
    units = s.encode("utf-16-le")
    total = 0
    for i in range(len(units) // 2):
        total += int.from_bytes(units[2 * i : 2 * i + 2], "little") * (i + 1)
    value = (total * 1234567) % (limit + 1)
    return limit - value if inverse else value


def _seeded_random(seed: int, limit: int, p1: Player, p2: Player, salt: str) -> int:
    """A reproducible random number in 0..limit for a pair (either order), drawn from ``seed``."""
    a, b = sorted((p1.key, p2.key))
    digest = hashlib.blake2b(f"{seed}|{salt}|{a}|{b}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % (limit + 1)


@dataclass
class _Info:
    """A player's pairing information for the round: score group, place in it, draws up and down so far."""

    player: Player
    group: int = 0
    group_size: int = 1
    inner: int = 0
    du: int = 0
    dd: int = 0
    wb: int = 0


class _Pairer:
    def __init__(self, tournament: Tournament, round_number: int, seed: int | None) -> None:
        self.t = tournament
        self.rn = round_number - 1  # OpenGotha's round index, from 0
        self.seed = seed
        self.sheet: ScoreSheet = score_sheet(tournament)
        crit = [c for c in tournament.criteria]
        self.main = next((c for c in crit if c in ("NBW", "MMS", "CPS")), "NBW")
        self.mcmahon = bool(crit) and crit[0] == "MMS"
        g = tournament.general
        self.previous = [x for x in tournament.games if x.round < round_number]
        self.met: set[frozenset[str]] = {frozenset((x.white, x.black)) for x in self.previous}
        self.info: dict[str, _Info] = {p.key: _Info(p) for p in tournament.players}
        # OpenGotha lists the players to pair in standings order before the round, and its name-based "random"
        # draws depend on which of two players comes first: keep that order (it also computes DC and SDC, which
        # the group order below may use).
        self.order = [s.player.key for s in standings(tournament, round_number - 1, sheet=self.sheet)]
        self.position = {k: i for i, k in enumerate(self.order)}
        self._fill_groups()
        self._fill_draws()
        for key, info in self.info.items():
            balance = 0
            for x in self.previous:
                if x.handicap == 0 and key in (x.white, x.black):
                    balance += 1 if key == x.white else -1
            info.wb = balance
        self.ncat = max(1, g.number_of_categories)

    # -- scores -------------------------------------------------------------------------------------------------
    def score_before(self, key: str, rn: int) -> int:
        """Main score (whole points, rounded down) before round index ``rn``."""
        return self.sheet.value(key, self.main, rn) // 2

    def mms_x2_before(self, key: str) -> int:
        return self.sheet.value(key, "MMS", self.rn)

    def _score_range(self) -> tuple[int, int]:
        g = self.t.general
        if self.main == "MMS":
            return (
                g.mm_floor + _SMMS_CORR_MIN - MIN_RANK,
                g.mm_bar + _SMMS_CORR_MAX + self.rn - MIN_RANK,
            )
        if self.main == "CPS":
            return 0, 2**self.rn
        return 0, self.rn

    def _fill_groups(self) -> None:
        g = self.t.general
        low, high = self._score_range()
        pp = self.t.pairing
        extra = (
            pp.additional_criterion_1
            if self.rn + 1 <= pp.last_round_seed_system_1
            else pp.additional_criterion_2
        )
        crit = [c for c in self.t.criteria if c != "NULL"] + (
            [check_criterion(extra)] if extra != "NULL" else []
        )
        number = 0
        ncat = max(1, g.number_of_categories)
        for cat in range(ncat):
            for score in range(high, low - 1, -1):
                members = [
                    i
                    for k, i in self.info.items()
                    if category(i.player, g) == cat and self.score_before(k, self.rn) == score
                ]
                if members:
                    members.sort(
                        key=lambda i: (
                            tuple(-self.sheet.value(i.player.key, c, self.rn) for c in crit),
                            i.player.name,
                            i.player.first_name,
                        )
                    )
                    for place, i in enumerate(members):
                        i.group, i.group_size, i.inner = number, len(members), place
                number += 1
        self.number_of_groups = number

    def _fill_draws(self) -> None:
        for x in self.previous:
            before = x.round - 1
            sw = self.score_before(x.white, before)
            sb = self.score_before(x.black, before)
            if sw < sb:
                self.info[x.white].du += 1
                self.info[x.black].dd += 1
            elif sw > sb:
                self.info[x.white].dd += 1
                self.info[x.black].du += 1

    # -- the game two players would play ------------------------------------------------------------------------
    def game_between(self, p1: Player, p2: Player) -> tuple[str, str, int]:
        """(white key, black key, handicap) for a pair, per the handicap parameters then the colour balance."""
        if self.position[p1.key] > self.position[p2.key]:
            p1, p2 = p2, p1
        hp = self.t.handicap
        hd = handicap_called_for(self.t, self.sheet, self.rn + 1, p1, p2)
        hd = max(-hp.ceiling, min(hp.ceiling, hd))
        if hd > 0:
            return p1.key, p2.key, hd
        if hd < 0:
            return p2.key, p1.key, -hd
        wb1, wb2 = self.info[p1.key].wb, self.info[p2.key].wb
        if wb1 > wb2:
            return p2.key, p1.key, 0
        if wb1 < wb2:
            return p1.key, p2.key, 0
        if det_random(1, p1, p2) == 0:
            return p1.key, p2.key, 0
        return p2.key, p1.key, 0

    # -- the cost of a pair -------------------------------------------------------------------------------------
    def cost(self, p1: Player, p2: Player) -> int:
        """The pair's cost: the larger, the more the pair is wanted (see the module's docstring)."""
        g, pp = self.t.general, self.t.pairing
        if self.position[p1.key] > self.position[p2.key]:
            p1, p2 = p2, p1
        i1, i2 = self.info[p1.key], self.info[p2.key]
        k = pp.nx1_factor
        cost = 1
        if frozenset((p1.key, p2.key)) not in self.met:
            cost += pp.avoid_duplicate
        if pp.random:
            if self.seed is not None or not pp.deterministic:
                cost += _seeded_random(self.seed or 0, pp.random, p1, p2, "base")
            else:
                cost += det_random(pp.random, p1, p2)
        _, _, hd = self.game_between(p1, p2)
        if hd == 0:
            wb1, wb2 = i1.wb, i2.wb
            if wb1 * wb2 < 0:
                cost += pp.balance_wb
            elif (wb1 == 0 and abs(wb2) >= 2) or (wb2 == 0 and abs(wb1) >= 2):
                cost += pp.balance_wb // 2
        c1, c2 = category(p1, g), category(p2, g)
        if self.ncat > 1:
            x = abs(c1 - c2) / self.ncat
            cost += int(pp.avoid_mixing_categories * (1.0 - x) * (1.0 + k * x))
        sco_range = self.number_of_groups
        if c1 == c2:
            x = abs(i1.group - i2.group) / sco_range
            cost += int(pp.minimize_score_difference * (1.0 - x) * (1.0 + k * x))
        cost += self._dudd_cost(i1, i2, c1, c2)
        cost += self._seeding_cost(i1, i2)
        cost += self._secondary_cost(p1, p2, sco_range)
        return cost

    def _dudd_cost(self, i1: _Info, i2: _Info, c1: int, c2: int) -> int:
        pp = self.t.pairing
        cost = 0
        if i1.group != i2.group and abs(i1.group - i2.group) < 4:
            # Lower group numbers hold higher scores: "i1.group > i2.group" means i1 is drawn up.
            scenario = 2
            if i1.du > 0 and i1.group > i2.group:
                scenario -= 1
            if i1.dd > 0 and i1.group < i2.group:
                scenario -= 1
            if i2.du > 0 and i2.group > i1.group:
                scenario -= 1
            if i2.dd > 0 and i2.group < i1.group:
                scenario -= 1
            if scenario != 0 and i1.du > 0 and i1.dd < i1.du and i1.group < i2.group:
                scenario += 1
            if scenario != 0 and i1.dd > 0 and i1.du < i1.dd and i1.group > i2.group:
                scenario += 1
            if scenario != 0 and i2.du > 0 and i2.dd < i2.du and i2.group < i1.group:
                scenario += 1
            if scenario != 0 and i2.dd > 0 and i2.du < i2.dd and i2.group > i1.group:
                scenario += 1
            weight = pp.dudd_weight // 5
            upper, lower = (i1, i2) if i1.group < i2.group else (i2, i1)
            for who, mode in ((upper, pp.dudd_upper_mode), (lower, pp.dudd_lower_mode)):
                size, place = who.group_size, who.inner
                if mode is DrawMode.TOP:
                    cost += weight // 2 * (size - 1 - place) // size
                elif mode is DrawMode.MID:
                    cost += weight // 2 * (size - 1 - abs(2 * place - size + 1)) // size
                else:
                    cost += weight // 2 * place // size
            if scenario == 1:
                cost += weight
            elif scenario == 2 or (scenario > 2 and not pp.compensate_dudd):
                cost += 2 * weight
            elif scenario == 3:
                cost += 3 * weight
            elif scenario == 4:
                cost += 4 * weight
        gap = abs(c1 - c2)
        for _ in range(4):
            cost //= gap + 1
        return cost

    def _seeding_cost(self, i1: _Info, i2: _Info) -> int:
        if i1.group != i2.group:
            return 0
        pp = self.t.pairing
        size, a, b = i1.group_size, i1.inner, i2.inner
        top = pp.maximize_seeding
        system = pp.seed_system_1 if self.rn + 1 <= pp.last_round_seed_system_1 else pp.seed_system_2
        if system is Seeding.SPLIT_AND_RANDOM:
            if (2 * a < size) != (2 * b < size):
                spread = int(top * 0.2)
                if self.seed is not None:
                    return top - _seeded_random(self.seed, spread, i1.player, i2.player, "seed")
                return top - det_random(spread, i1.player, i2.player)
            return 0
        if system is Seeding.SPLIT_AND_FOLD:
            x = a + b - (size - 1)
            return top - _tdiv(_tdiv(top * x, size - 1) * x, size - 1)
        x = 2 * abs(a - b) - size
        return top - _tdiv(_tdiv(top * x, size) * x, size)

    def _secondary_cost(self, p1: Player, p2: Player, sco_range: int) -> int:
        t, g, pp = self.t, self.t.general, self.t.pairing
        wins_threshold = g.number_of_rounds if pp.secondary_wins_threshold else 2 * g.number_of_rounds
        bar = g.mm_bar - MIN_RANK
        max_mms = g.mm_bar + _SMMS_CORR_MAX - MIN_RANK + self.rn
        pseudo: list[int] = []
        for p in (p1, p2):
            nbw_x2 = self.sheet.value(p.key, "NBW", self.rn)
            excluded = (
                nbw_x2 >= wins_threshold
                or 2 * p.rank + nbw_x2 >= 2 * pp.secondary_rank_threshold
                or (starting_mms(p, g) >= bar and pp.secondary_bar_threshold)
            )
            pseudo.append(max_mms if excluded else self.mms_x2_before(p.key) // 2)
        if self.mcmahon:
            sec_range = sco_range
        else:
            sec_range = g.mm_bar - g.mm_floor + _SMMS_CORR_MAX - _SMMS_CORR_MIN + self.rn
        k = pp.nx1_factor
        x = abs(pseudo[0] - pseudo[1]) / sec_range
        cost = int(pp.minimize_handicap * (1.0 - x) * (1.0 + k * x))

        country_ratio = 0.0
        if p1.country.lower() != p2.country.lower() and pp.prefer_score_gap_to_same_country:
            country_ratio = min(1.0, pp.prefer_score_gap_to_same_country / sco_range)
        same_club = p1.club.lower() == p2.club.lower()
        same_group = any(
            p1.club.lower() in {c.lower() for c in clubs} and p2.club.lower() in {c.lower() for c in clubs}
            for _, clubs in t.clubs_groups
        )
        club_ratio = 0.0
        factor = pp.prefer_score_gap_to_same_club
        if factor and same_group and not same_club:
            club_ratio = factor / 2.0 / sco_range
        if factor and not same_group and not same_club:
            club_ratio = factor * 1.2 / sco_range
        club_ratio = min(club_ratio, 1.0)
        geo = max(country_ratio, club_ratio) + min(country_ratio, club_ratio) / 2.0
        if geo > 0.0:
            geo += 0.5 / sco_range
        geo_cost = pp.minimize_score_difference - int(pp.avoid_same_geo * (1.0 - geo) * (1.0 + k * geo))
        return cost + min(geo_cost, pp.avoid_same_geo)

    # -- the round ----------------------------------------------------------------------------------------------
    def bye_order(self, keys: list[str]) -> list[str]:
        """The players in OpenGotha's order of preference for the bye: fewest byes so far, then lowest rank +
        MMS; among equals the last by name first."""

        def weight(k: str) -> int:
            byes = sum(1 for r, b in self.t.byes.items() if b == k and r <= self.rn)
            return self.info[k].player.rank + self.mms_x2_before(k) + 1000 * byes

        by_name = sorted(
            keys,
            key=lambda k: (self.info[k].player.name.lower(), self.info[k].player.first_name.lower()),
            reverse=True,
        )
        return sorted(by_name, key=weight)  # stable: equal weights keep the reversed name order

    def choose_bye(self, keys: list[str]) -> str:
        """The bye of an odd number: OpenGotha's first choice (``bye_order``), unless it forces a repeated game
        that another bye avoids; then the first player in that order whose bye leaves the fewest repeated games.

        One matching decides it: every pair not played yet weighs more than any difference of preference between
        two byes, and the bye is a node joined to each player by their preference. Above ``_GROUP_MAX`` players
        (paired in groups) OpenGotha's first choice is kept."""
        order = self.bye_order(keys)
        first = order[0]
        if len(keys) > _GROUP_MAX or not self.t.pairing.avoid_duplicate:
            return first
        if not any(frozenset((a, b)) in self.met for a in keys for b in keys if a < b):
            return first
        n = len(keys)
        unplayed = n + 1  # more than any bye's weight: one more pair not played outweighs the preference
        graph: rx.PyGraph = rx.PyGraph()
        graph.add_nodes_from(range(n + 1))
        edges = [
            (i, j, 0 if frozenset((order[i], order[j])) in self.met else unplayed)
            for i in range(n)
            for j in range(i + 1, n)
        ]
        edges += [(i, n, n - i) for i in range(n)]
        graph.add_edges_from(edges)
        matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity, verify_optimum=False)
        for a, b in matching:
            if n in (a, b):
                return order[a if b == n else b]
        return first

    def chunks(self, keys: list[str]) -> list[list[str]]:
        """The players split as OpenGotha splits more than 600: from the top score down, groups of at least 200
        (an even number) and at most 600, each paired on its own; the rest together."""
        remaining = list(keys)
        out: list[list[str]] = []
        g = self.t.general
        low, high = self._score_range()
        while len(remaining) > _GROUP_MAX:
            group: list[str] = []
            ready = False
            for cat in range(self.ncat):
                for score in range(high, low - 1, -1):
                    for k in list(remaining):
                        if category(self.info[k].player, g) > cat or self.score_before(k, self.rn) < score:
                            continue
                        group.append(k)
                        remaining.remove(k)
                        if len(group) >= _GROUP_MAX or len(remaining) <= _GROUP_MIN:
                            ready = True
                            break
                    if len(group) >= _GROUP_MIN and len(group) % 2 == 0:
                        ready = True
                    if ready:
                        break
                if ready:
                    break
            out.append(group)
        out.append(remaining)
        return [c for c in out if c]

    def pair(self, keys: Sequence[str]) -> list[tuple[str, str, int]]:
        players = [self.info[k].player for k in keys]
        graph: rx.PyGraph = rx.PyGraph()
        graph.add_nodes_from(range(len(players)))
        graph.add_edges_from(
            [
                (i, j, self.cost(players[i], players[j]))
                for i in range(len(players))
                for j in range(i + 1, len(players))
            ]
        )
        # Every cost is at least 1, and an unmatched player would lose a whole pair's worth: the optimum is a
        # perfect matching, and max_cardinality makes sure of it.
        matching = rx.max_weight_matching(
            graph, max_cardinality=True, weight_fn=_identity, verify_optimum=False
        )
        out = []
        for a, b in matching:
            i, j = min(a, b), max(a, b)
            out.append(self.game_between(players[i], players[j]))
        return out

    def table_order(self, game: tuple[str, str, int]) -> tuple[tuple[int, ...], int]:
        """Sort key of a new game for table numbers: the better score first, then the better rating (after the
        round being paired, as OpenGotha sorts; it takes the weaker player when White is strictly stronger)."""
        crit = [c for c in self.t.criteria if c != "NULL"]
        white, black = game[0], game[1]

        def scores(k: str) -> tuple[int, ...]:
            return tuple(self.sheet.value(k, c, self.rn + 1) for c in crit)

        sw, sb = scores(white), scores(black)
        rw, rb = self.info[white].player.rating, self.info[black].player.rating
        best = white
        if sw == sb and rw < rb:
            best = black
        if sw > sb:
            best = black
        return tuple(-v for v in scores(best)), -self.info[best].player.rating


def handicap_called_for(tournament: Tournament, sheet: ScoreSheet, round_number: int, p1: Player, p2: Player) -> int:
    """The stones ``p1`` gives ``p2`` in round ``round_number`` (negative: ``p2`` gives them) by the handicap
    parameters before the ceiling: the rank (or MMS before the round) difference, ranks above "no handicap above"
    counted as that rank, less the correction. The ceiling then caps it (``game_between``)."""
    hp = tournament.handicap
    r1, r2 = p1.rank, p2.rank
    if hp.based_on_mms:
        r1 = sheet.value(p1.key, "MMS", round_number - 1) // 2 + MIN_RANK
        r2 = sheet.value(p2.key, "MMS", round_number - 1) // 2 + MIN_RANK
    r1 = min(r1, hp.no_handicap_above)
    r2 = min(r2, hp.no_handicap_above)
    hd = r1 - r2
    if hd > 0:
        return max(0, hd - hp.correction)
    if hd < 0:
        return min(0, hd + hp.correction)
    return 0


def pair_round(tournament: Tournament, round_number: int, seed: int | None = None) -> Pairing:
    """Pair round ``round_number`` (from 1) from the results of the rounds before it.

    The players paired are those registered as final (``FIN``) who take part in the round and have neither a game
    nor the bye in it yet. ``seed`` replaces OpenGotha's deterministic name-based random draws (split and random,
    the random term) by draws from that seed. Tables are numbered after the round's existing games.

    Raises :class:`TournamentError` for a round outside the tournament, or an inconsistent tournament."""
    if not 1 <= round_number <= tournament.general.number_of_rounds:
        raise TournamentError(f"round {round_number} is not in 1..{tournament.general.number_of_rounds}")
    pairer = _Pairer(tournament, round_number, seed)
    busy = {k for x in tournament.games if x.round == round_number for k in (x.white, x.black)}
    existing_bye = tournament.byes.get(round_number)
    keys = [
        p.key
        for p in tournament.players
        if p.plays(round_number)
        and p.registering_status == "FIN"
        and p.key not in busy
        and p.key != existing_bye
    ]
    bye = None
    if len(keys) % 2:
        if existing_bye is not None:
            raise TournamentError(
                f"round {round_number} already has a bye and an odd number of players to pair"
            )
        bye = pairer.choose_bye(keys)
        keys.remove(bye)
    pairs = [pair for chunk in pairer.chunks(keys) for pair in pairer.pair(chunk)]
    pairs.sort(key=pairer.table_order)
    used = {x.table for x in tournament.games if x.round == round_number}
    games = []
    table = 1
    for white, black, hd in pairs:
        while table in used:
            table += 1
        games.append(Game(round_number, table, white, black, hd))
        table += 1
    return Pairing(round_number, tuple(games), bye if bye is not None else existing_bye)


def pairing_cost(tournament: Tournament, round_number: int, games: Sequence[Game]) -> int:
    """The total cost, under OpenGotha's criteria, of ``games`` as the pairing of ``round_number`` (from the
    results of the rounds before it): comparing two pairings of the same players, the larger is the better."""
    pairer = _Pairer(tournament, round_number, None)
    total = 0
    for x in games:
        total += pairer.cost(pairer.info[x.white].player, pairer.info[x.black].player)
    return total


def game_between(tournament: Tournament, round_number: int, table: int, key1: str, key2: str) -> Game:
    """The game of round ``round_number`` at ``table`` between ``key1`` and ``key2`` as the pairing would set it
    (colours and handicap from the results before the round): what a director's swap of two players gives.

    Raises :class:`TournamentError` for an unknown player or a round outside the tournament."""
    if not 1 <= round_number <= tournament.general.number_of_rounds:
        raise TournamentError(f"round {round_number} is not in 1..{tournament.general.number_of_rounds}")
    pairer = _Pairer(tournament, round_number, None)
    white, black, hd = pairer.game_between(tournament.player(key1), tournament.player(key2))
    return Game(round_number, table, white, black, hd)
