"""An invite as lobby.proto's ``InviteResponse`` (``server.invites`` holds no protobuf)."""

from __future__ import annotations

from cardtui.server.lobby.invites import Where
from cardtui.v1 import common_pb2, lobby_pb2


def response(where: Where, code: str = "", table: common_pb2.TableSummary | None = None,
             opens_lock: bool = False) -> lobby_pb2.InviteResponse:
    return lobby_pb2.InviteResponse(code=code, table=table, opens_lock=opens_lock, servers=list(where.servers),
                                    pages=list(where.pages), local=where.local)
