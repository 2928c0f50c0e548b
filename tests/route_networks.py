"""Route networks for comparing the trade-route search with its oracle, and for looking for slow shapes.

A network is what the search takes: one player's pieces as edge ids of a board (a ship as ``~eid``, in the
order the state lists them) and the owner of each built intersection. Shapes: random connected growth (one
to three parts, roads and ships mixed, buildings of the player and of others scattered), dense clusters
(every side of a few adjacent hexes), "flowers" (every side of a hex and its six neighbours: 30 pieces,
12 junctions) with the player's own buildings wherever roads meet ships, and small changes of any of them
(:func:`mutate`, the step of the hill-climb in ``bench/trade_route.py``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from service.engine.geometry import edge_hexes, hex_neighbours, hex_sides
from service.engine.mapgraph import MapGraph

PLAYER = 0
#: The supply: a network never holds more than this many roads, nor more ships, and a player never more
#: than this many buildings (5 settlements and 4 cities); buildings keep the distance rule, as a posted
#: state must.
ROADS = SHIPS = 15
BUILDINGS = 9


def board() -> MapGraph:
    """A board large enough for any network here (the search does not look at terrain)."""
    return MapGraph.build({(q, r): "forest" for q in range(-7, 8) for r in range(-7, 8)})


@dataclass
class Net:
    eids: list[int]
    owners: dict[int, int] = field(default_factory=dict)

    def copy(self) -> "Net":
        return Net(list(self.eids), dict(self.owners))

    def describe(self, g: MapGraph) -> dict:
        """The network in board terms (edges and nodes), for reports."""
        return {
            "roads": [list(g.edges[x]) for x in self.eids if x >= 0],
            "ships": [list(g.edges[~x]) for x in self.eids if x < 0],
            "own": [list(g.nodes[n]) for n, p in sorted(self.owners.items()) if p == PLAYER],
            "opponent": [list(g.nodes[n]) for n, p in sorted(self.owners.items()) if p != PLAYER],
        }


def _near(g: MapGraph, eid: int) -> list[int]:
    a, b = g.edge_node_ids[eid]
    return [e for n in (a, b) for e in g.node_edge_ids[n] if e != eid]


def place(g: MapGraph, owners: dict[int, int], n: int, owner: int) -> bool:
    """Put a building of ``owner`` on node ``n`` if the distance rule and the supply allow it."""
    if n in owners or any(m in owners for m in g.node_neighbour_ids[n]):
        return False
    if sum(1 for p in owners.values() if p == owner) >= BUILDINGS:
        return False
    owners[n] = owner
    return True


def _counts(eids: list[int]) -> tuple[int, int]:
    ships = sum(1 for x in eids if x < 0)
    return len(eids) - ships, ships


def random_net(rnd: random.Random, g: MapGraph, pieces: int = 0) -> Net:
    """Connected growth from one to three starting sides; roads and ships mixed in proportions drawn per
    network; own and opponent buildings on some of the nodes reached; the pieces in a shuffled order."""
    pieces = pieces or rnd.randint(2, ROADS + SHIPS)
    ship_share = rnd.choice([0.0, 0.3, 0.5, 0.7, 1.0])
    centre = g.edge_index[(0, 0, "E")]
    starts = [centre] + rnd.sample(range(len(g.edges)), rnd.choice([0, 0, 1, 2]))
    taken: set[int] = set()
    out: list[int] = []
    frontier: list[int] = []
    for s in starts:
        frontier.append(s)
    while len(out) < pieces and frontier:
        e = rnd.choice(frontier)
        if e in taken:
            frontier.remove(e)
            continue
        roads, ships = _counts(out)
        ship = rnd.random() < ship_share
        if ship and ships >= SHIPS or not ship and roads >= ROADS:
            ship = not ship
        taken.add(e)
        out.append(~e if ship else e)
        frontier.extend(x for x in _near(g, e) if x not in taken)
    nodes = sorted({n for x in out for n in g.edge_node_ids[~x if x < 0 else x]})
    owners: dict[int, int] = {}
    p_own, p_opp = rnd.choice([(0, 0), (0.1, 0.05), (0.3, 0.1), (0.6, 0.0), (0.2, 0.3), (1.0, 0.0)])
    rnd.shuffle(nodes)
    for n in nodes:
        r = rnd.random()
        if r < p_own:
            place(g, owners, n, PLAYER)
        elif r < p_own + p_opp:
            place(g, owners, n, rnd.randint(1, 3))
    rnd.shuffle(out)
    return Net(out, owners)


def cluster_net(rnd: random.Random, g: MapGraph, hexes: int = 0) -> Net:
    """Every side of a few adjacent hexes (within the supply), roads and ships, own buildings wherever
    both meet and now and then an opponent's building."""
    hexes = hexes or rnd.randint(2, 7)
    hs = [(0, 0)]
    while len(hs) < hexes:
        h = rnd.choice(hex_neighbours(rnd.choice(hs)))
        if h not in hs:
            hs.append(h)
    sides: list[int] = []
    for h in hs:
        for e in hex_sides(h):
            eid = g.edge_index[e]
            if eid not in sides:
                sides.append(eid)
    sides = sides[:ROADS + SHIPS]
    k = rnd.randint(max(0, len(sides) - SHIPS), min(ROADS, len(sides)))
    rnd.shuffle(sides)
    net = Net([e for e in sides[:k]] + [~e for e in sides[k:]])
    _own_where_mixed(g, net)
    for _ in range(rnd.choice([0, 0, 1, 2])):
        x = rnd.choice(net.eids)
        place(g, net.owners, g.edge_node_ids[~x if x < 0 else x][rnd.randint(0, 1)], 1)
    rnd.shuffle(net.eids)
    return net


def flower(g: MapGraph, centre: tuple[int, int] = (0, 0), ships: frozenset = frozenset(),
           own_everywhere: bool = False) -> Net:
    """Every side of ``centre`` and its six neighbours (30 sides, 12 junctions): those in ``ships`` (edge
    ids) ships, the rest roads; own buildings wherever a road meets a ship (or anywhere), as many as the
    distance rule and the supply allow."""
    inner, outer = flower_sides(g, centre)
    net = Net([~e if e in ships else e for e in inner + outer])
    if own_everywhere:
        for x in net.eids:
            for n in g.edge_node_ids[~x if x < 0 else x]:
                place(g, net.owners, n, PLAYER)
    else:
        _own_where_mixed(g, net)
    return net


def flower_sides(g: MapGraph, centre: tuple[int, int] = (0, 0)) -> tuple[list[int], list[int]]:
    """The flower's 12 inner sides (between two of its hexes) and 18 outer ones, as edge ids."""
    hs = [centre] + hex_neighbours(centre)
    inner, outer = [], []
    for h in hs:
        for e in hex_sides(h):
            eid = g.edge_index[e]
            if eid in inner or eid in outer:
                continue
            a, b = edge_hexes(g.edges[eid])
            (inner if a in hs and b in hs else outer).append(eid)
    return inner, outer


def _own_where_mixed(g: MapGraph, net: Net) -> None:
    kinds: dict[int, set] = {}
    for x in net.eids:
        for n in g.edge_node_ids[~x if x < 0 else x]:
            kinds.setdefault(n, set()).add(x < 0)
    for n, k in kinds.items():
        if len(k) == 2:
            place(g, net.owners, n, PLAYER)


def mutate(rnd: random.Random, g: MapGraph, net: Net) -> Net:
    """One small change within the supply: a piece added next to the network, one taken away, one turned
    from road to ship or back, a building put or taken on one of its nodes, or two pieces' order swapped."""
    out = net.copy()
    roads, ships = _counts(out.eids)
    move = rnd.randrange(6)
    if move == 0 and out.eids:
        taken = {~x if x < 0 else x for x in out.eids}
        near = [e for x in out.eids for e in _near(g, ~x if x < 0 else x) if e not in taken]
        if near:
            e = rnd.choice(near)
            if ships < SHIPS and (roads >= ROADS or rnd.random() < 0.5):
                out.eids.insert(rnd.randint(0, len(out.eids)), ~e)
            elif roads < ROADS:
                out.eids.insert(rnd.randint(0, len(out.eids)), e)
    elif move == 1 and len(out.eids) > 2:
        out.eids.pop(rnd.randrange(len(out.eids)))
    elif move == 2 and out.eids:
        i = rnd.randrange(len(out.eids))
        x = out.eids[i]
        if x < 0 and roads < ROADS or x >= 0 and ships < SHIPS:
            out.eids[i] = ~x
    elif move in (3, 4) and out.eids:
        x = rnd.choice(out.eids)
        n = g.edge_node_ids[~x if x < 0 else x][rnd.randint(0, 1)]
        if n in out.owners:
            del out.owners[n]
        else:
            place(g, out.owners, n, PLAYER if move == 3 else rnd.randint(1, 3))
    elif len(out.eids) > 1:
        i, j = rnd.sample(range(len(out.eids)), 2)
        out.eids[i], out.eids[j] = out.eids[j], out.eids[i]
    return out
