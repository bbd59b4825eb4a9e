"""The client's screens, one module for each screen or family of screens the app pushes.

The app (``client.app``) goes from screen to screen: connecting (``connect``), asking the
player's name (``name``), the lobby and the create form (``lobby``), a table (``table``), the
tournaments (``tournaments``), the replays (``replay``) and the dialogs over them (``confirm``,
``leaving``, ``password``, ``invite``, ``phrase``, ``help``, ``players``, ``analysis``). What
they share stays in ``client``: the connection, the typed views of a table, the words, the
widgets several screens show (the footer, the action bar, the table's log and summary) and the
boards. So a screen imports from there and from other screens, and nothing outside this package
imports a screen but the app, the command line and the tests.
"""
