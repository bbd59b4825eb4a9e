"""What the engine refuses, as sentences: an action the rules do not allow now, options out of bounds.

Kept apart from the contract (``engine.core``) so that what both the contract and the modules it
builds on raise (``engine.options`` reads options into records) comes from below them both.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``str()`` is a sentence a person can read.

    The sentence may be a template with named arguments (``IllegalAction("It is {name}'s
    turn.", name=...)``): the server sends the template as a message id and the arguments
    apart, so each client says it in its own language.
    """

    def __init__(self, template: str = "", /, **args: object) -> None:
        self.template = template
        self.args_ = {k: str(v) for k, v in args.items()}
        super().__init__(template.format(**self.args_) if self.args_ else template)


def N_(message: str) -> str:
    """Mark a sentence for the message catalogs (the client says it in the reader's language)."""
    return message


class NotYourTurn(IllegalAction):
    """The seat may not act at this moment."""


class InvalidOptions(ValueError):
    """Table options that break the rules' limits; a sentence, maybe a template with named
    arguments (as ``IllegalAction``), so each client can say it in its own language."""

    def __init__(self, template: str = "", /, **args: object) -> None:
        self.template = template
        self.args_ = {k: str(v) for k, v in args.items()}
        super().__init__(template.format(**self.args_) if self.args_ else template)
