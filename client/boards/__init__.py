"""One board widget per game family; each draws its game's view and nothing else.

``registry`` says which board draws a game. This file imports nothing, so that importing one
board, or one of the parts boards share (``parts``), does not load every board.
"""
