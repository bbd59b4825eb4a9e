"""Refusals: what the server will not do, typed by the gRPC status each maps to.

Every refusal carries a sentence a person can read; ``service`` maps the type to its status
code in one place. Input quoted back is cut short, so a long name never comes back whole.
"""

from __future__ import annotations

import grpc


class Refusal(Exception):
    """A request the server will not carry out; ``str()`` is the sentence for the person.

    The sentence is an English template and its named arguments (``Refusal("Seat {seat} is
    taken.", seat=3)``): the template is the message id a client looks up in its own language
    (``wire.problem``), the arguments fill it in. The English sentence goes along for clients
    that do not read ids.
    """

    code = grpc.StatusCode.UNKNOWN

    def __init__(self, template: str, /, **args: object) -> None:
        self.template = template
        self.args_ = {k: str(v) for k, v in args.items()}
        super().__init__(template.format(**self.args_) if self.args_ else template)


class InvalidArgument(Refusal):
    """Malformed: no state could make this request right."""

    code = grpc.StatusCode.INVALID_ARGUMENT


class FailedPrecondition(Refusal):
    """Not now: not this seat's turn, not legal in this state, the table moved on."""

    code = grpc.StatusCode.FAILED_PRECONDITION


class PermissionDenied(Refusal):
    """Not for you: a spectator acting, a wrong token or password."""

    code = grpc.StatusCode.PERMISSION_DENIED


class Unauthenticated(Refusal):
    """A session the server does not know: prove the key again."""

    code = grpc.StatusCode.UNAUTHENTICATED


class NotFound(Refusal):
    code = grpc.StatusCode.NOT_FOUND


class Unavailable(Refusal):
    """Not here, not now: the table is served by another process (the lobby says where), or
    its process is being replaced. A client tries again."""

    code = grpc.StatusCode.UNAVAILABLE


class ResourceExhausted(Refusal):
    """A limit: no free seat, too many tables or streams, too fast."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED


QUOTE = 40
"""The most of a person's input a sentence repeats."""


def quote(text: str) -> str:
    """``text`` in quotes, cut to ``QUOTE`` characters, for a sentence."""
    short = text if len(text) <= QUOTE else text[: QUOTE - 1] + "…"
    return repr(short)
