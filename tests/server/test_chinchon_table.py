"""Chinchón over the wire, on a real server: a person put out comes back in (the reenganche) by the action its
view offers, and the table deals on."""

from __future__ import annotations

from cardtui.server.app import Running
from cardtui.v1 import common_pb2
from tests.conftest import Player, act, create, kind, started

A = common_pb2.ActionType


async def test_a_person_put_out_comes_back_in_by_the_action_the_view_offers(server: Running) -> None:
    """ana draws from the stock and throws what she drew, never closing, at a table whose target is 10: the bot's
    first close puts her out. Her view offers coming back in and staying out; she comes back in, at the bot's
    points, and the next hand is dealt to both."""
    options = {"target": common_pb2.OptionValue(number=10), "reentries": common_pb2.OptionValue(number=1),
               "limit": common_pb2.OptionValue(number=10)}
    table_id = await create(server, game="chinchon", seats=2, bots=1, options=options)
    ana = await Player(f"127.0.0.1:{server.port}").join(table_id, "ana")
    try:
        ana.subscribe()
        await started(server, table_id)

        def mine(p: Player) -> bool:
            view = p.last_view
            return view is not None and p.seat in view.to_act and bool(view.legal)

        while True:
            await ana.wait_for(mine)
            view = ana.last_view
            assert view is not None
            kinds = {a.type for a in view.legal}
            if A.ACTION_TYPE_REENTER in kinds:
                assert kinds == {A.ACTION_TYPE_REENTER, A.ACTION_TYPE_PASS}, view.legal
                break
            drawn = view.rummy.drawn if view.rummy.HasField("drawn") else None
            # Counted before acting: the move's events (and the view after it) may arrive before Act returns.
            seen = len(ana.events)
            if A.ACTION_TYPE_DRAW in kinds:
                await ana.act(act(A.ACTION_TYPE_DRAW, source=common_pb2.DRAW_SOURCE_STOCK))
            else:
                await ana.act(act(A.ACTION_TYPE_DISCARD, cards=[drawn]))
            await ana.wait_for(lambda p, seen=seen: len(p.events) > seen)
        hands = sum(1 for e in ana.events if e.HasField("cards_dealt"))
        await ana.act(act(A.ACTION_TYPE_REENTER))
        await ana.wait_for(lambda p: "chinchon_reentered" in p.kinds())
        back = next(e.rummy.chinchon_reentered for e in ana.events if kind(e) == "chinchon_reentered")
        assert back.seat == ana.seat and back.points <= 10, back
        await ana.wait_for(lambda p: sum(1 for e in p.events if e.HasField("cards_dealt")) > hands)
    finally:
        await ana.close()
