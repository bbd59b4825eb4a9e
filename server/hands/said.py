"""A judged decision's parts as the wire gives them, for the server's analyses and for ``cardtui analyze``, which
says them offline: here rather than beside the server's ``Lobby.Analyze`` (``server.hands.analysis``), so that
the command loads the engine and the wire, not the server."""

from __future__ import annotations

from collections.abc import Mapping

from google.protobuf.message import Message

from cardtui.engine import advice, analysis
from cardtui.server.base import wire
from cardtui.v1 import analysis_pb2

REASONS: Mapping[advice.Kind, type[Message]] = {
    advice.Kind.ENVIDO: analysis_pb2.EnvidoAdvice, advice.Kind.TRUCO: analysis_pb2.TrucoAdvice,
    advice.Kind.DRAW: analysis_pb2.DrawAdvice, advice.Kind.DISCARD: analysis_pb2.DiscardAdvice,
    advice.Kind.KNOCK: analysis_pb2.KnockAdvice, advice.Kind.BET: analysis_pb2.BetAdvice}
"""Each kind of reason's message (``AnalysisReason``'s field of the kind's name), its fields the reason's."""


def scale_message() -> analysis_pb2.PointsScale:
    """The one scale a loss is said in (``engine.analysis``'s points and lines), for a client to say it by."""
    lines = analysis.THRESHOLDS
    return analysis_pb2.PointsScale(stake=analysis.CHIP_POINTS, inaccuracy=lines.inaccuracy, mistake=lines.mistake,
                                    blunder=lines.blunder)


def reason_message(r: advice.Reason) -> analysis_pb2.AnalysisReason:
    """A decision's reason (``engine.advice``) as the wire gives it: its kind's message, its fields by name (as the
    views are: ``wire.message``)."""
    out = analysis_pb2.AnalysisReason()
    getattr(out, str(r.kind)).CopyFrom(wire.message(r, REASONS[r.kind]))
    return out
