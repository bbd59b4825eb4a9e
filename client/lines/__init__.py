"""Play by ear: the client as lines of plain text, for a screen reader (``cardtui connect --screen-reader``).

Nothing is redrawn: each thing that happens at the table is one sentence, said once as it happens, and the
player answers with a line (an action's number or key, or a command such as ``hand`` or ``say hello``). The
sentences are the table log's own (``client.words``), with cards and marks put into words a speech
synthesiser reads as a person would (``sentences``); the commands are words in the reader's language
(``commands``); the loop follows the lobby and the table through the one path to a table
(``client.connection.Connection``), cutting and checking every deal as the screen client does (``loop``);
the lines go to a terminal or to the browser page's terminal (``terminal``).
"""
