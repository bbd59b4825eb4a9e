"""A stream's mailbox (``fanout.Mailbox``): first in first out, bounded, one reader woken per message."""

from __future__ import annotations

import asyncio

import pytest

from cardtui.server.actor.fanout import Mailbox


async def test_messages_come_out_in_order_and_a_waiting_reader_is_woken() -> None:
    box = Mailbox(4)
    reader = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    assert not reader.done()
    box.put_nowait(b"a")
    box.put_nowait(b"b")
    assert await reader == b"a"
    assert box.qsize() == 1 and not box.empty()
    assert await box.get() == b"b"
    assert box.empty()
    with pytest.raises(asyncio.QueueEmpty):
        box.get_nowait()


async def test_a_full_mailbox_refuses_and_keeps_what_it_had() -> None:
    box = Mailbox(2)
    box.put_nowait(b"1")
    box.put_nowait(None)
    with pytest.raises(asyncio.QueueFull):
        box.put_nowait(b"3")
    assert [box.get_nowait(), box.get_nowait()] == [b"1", None]


async def test_a_reader_cancelled_while_waiting_leaves_the_mailbox_usable() -> None:
    box = Mailbox(2)
    reader = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    reader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reader
    box.put_nowait(b"after")  # no waiter left behind to trip over
    assert await asyncio.wait_for(box.get(), 5) == b"after"
