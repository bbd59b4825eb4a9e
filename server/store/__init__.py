"""Where tables and hand histories are kept: one store, a part per domain, two backends.

``Store`` (``sqlite``) owns the connection and its transaction, and holds the parts: ``tables``
(each table's journal: what a restart needs), ``hands`` (hand histories and their analyses),
``owners`` (which process drives which table, and the fence), ``identity`` (players, names,
sessions), ``ratings`` (records), ``tournaments`` and ``meta`` (the store's id and secrets).
``postgresql.PostgresStore`` is the same store on PostgreSQL; ``server.stores.open_store`` picks
one. The names the rest of the server uses are all here.
"""

from __future__ import annotations

from cardtui.server.store.base import PRIVATE, Fenced, Link, Part, StoreDown, StoreInUse, token_digest
from cardtui.server.store.hands import Hands, Played
from cardtui.server.store.identity import Identity, Player
from cardtui.server.store.meta import Meta
from cardtui.server.store.owners import Owner, Owners, Place, _owner_key
from cardtui.server.store.ratings import Ratings, Record
from cardtui.server.store.schema import SESSION_DAYS
from cardtui.server.store.sqlite import FOLDER_MODE, SUFFIXES, Store
from cardtui.server.store.tables import Kept, SavedSeat, SavedTable, Tables
from cardtui.server.store.tournaments import Tournaments

__all__ = [
    "FOLDER_MODE", "PRIVATE", "SESSION_DAYS", "SUFFIXES",
    "Fenced", "Hands", "Identity", "Kept", "Link", "Meta", "Owner", "Owners", "Part", "Place", "Played", "Player",
    "Ratings", "Record", "SavedSeat", "SavedTable", "Store", "StoreDown", "StoreInUse", "Tables", "Tournaments",
    "_owner_key", "token_digest",
]
